// reader: a rule's C++ helper reaching past engine/rule.h into input/, as
// no rule may.
#include "rules/sbo/reader.hpp"

#include "input/config.h"

namespace hl {
int read_options(const hl_rule *r) { return r != nullptr; }
} // namespace hl
