// reader: a rule's C++ helper; its header keeps to the rules' layer.
#pragma once

#include "engine/rule.h"
#include "rules/sbo/sbo.h"

namespace hl {
int read_options(const hl_rule *r);
}
