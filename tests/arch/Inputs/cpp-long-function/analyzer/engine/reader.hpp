// reader: what a fixture's C++ reader offers.
#pragma once

namespace hl {
int sum(int n);
}
