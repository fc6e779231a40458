// string-sso follows the string ABI the unit is compiled with. Under
// libstdc++'s pre-C++11 ABI (_GLIBCXX_USE_CXX11_ABI=0) std::string is the
// copy-on-write one with no small-string buffer: a 5-character string calls
// operator new once, and the message names that ABI. The program counts each
// site's calls (measure.hpp) and hl-groundtruth compares them with heaplint's
// warnings; under the default ABI nothing here allocates and nothing is
// reported. A header that sets the macro counts as the flag does.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -O0 -isystem %probes %s -o %t/abi0
// RUN: %t/abi0 > %t/abi0.measured
// RUN: %FileCheck %s --check-prefix=COUNT0 < %t/abi0.measured
// RUN: %heaplint -v %s -- -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -isystem %probes > %t/abi0.heaplint 2>&1
// RUN: %FileCheck %s --check-prefix=ABI0 --implicit-check-not=warning: < %t/abi0.heaplint
// RUN: %groundtruth compare --min-sites 5 string-sso %t/abi0.measured %t/abi0.heaplint
//
// RUN: printf '#define _GLIBCXX_USE_CXX11_ABI 0\n#include <string>\n' > %t/config.h
// RUN: %heaplint -v %s -- -std=c++17 -include %t/config.h -isystem %probes 2>&1 | %FileCheck %s --check-prefix=ABI0 --implicit-check-not=warning:
//
// RUN: %gxx -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 -O0 -isystem %probes %s -o %t/abi1
// RUN: %t/abi1 > %t/abi1.measured
// RUN: %FileCheck %s --check-prefix=COUNT1 < %t/abi1.measured
// RUN: %heaplint -v %s -- -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 -isystem %probes > %t/abi1.heaplint 2>&1
// RUN: %FileCheck %s --check-prefix=ABI1 --implicit-check-not=warning: < %t/abi1.heaplint
// RUN: %groundtruth compare --min-sites 5 string-sso %t/abi1.measured %t/abi1.heaplint
//
// ABI1: 0 warnings in 1 file (libstdc++, x86_64)
#include <count_new.hpp>

#include <cstdio>
#include <cstring>
#include <string>

static void site(int line, unsigned long count, const char *label) {
  std::printf("%d %lu rule=string-sso %s\n", line, count, label);
}
#define MEASURE(label, ...)                                   \
  do {                                                        \
    unsigned long before_ = hl_count::allocations();          \
    __VA_ARGS__;                                              \
    site(__LINE__, hl_count::allocations() - before_, label); \
  } while (0)

// The counts the program prints, "<line> <operator new calls> ...", and
// heaplint's warnings, line by line.
int main(int, char **argv) {
  // One character, known only at run time: not judged, and short enough that
  // copying it allocates under neither ABI.
  std::string shared(argv[0] + std::strlen(argv[0]) - 1);
  // COUNT0: {{^}}[[@LINE+3]] 1 rule=string-sso five
  // COUNT1: {{^}}[[@LINE+2]] 0 rule=string-sso five
  // ABI0: abi.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::string built from a string literal of 5 characters allocates: libstdc++'s pre-C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=0) keeps no characters inline [string-sso]
  MEASURE("five", std::string s("hello"));
  // COUNT0: {{^}}[[@LINE+2]] 1 rule=string-sso one
  // ABI0: abi.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::string built from a fill of 1 character allocates: libstdc++'s pre-C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=0) keeps no characters inline [string-sso]
  MEASURE("one", std::string s(1, 'x'));
  // The empty string shares a static representation; a copy shares the
  // characters (copy-on-write) and counts its references.
  // COUNT0: {{^}}[[@LINE+1]] 0 rule=string-sso empty
  MEASURE("empty", std::string s(""));
  // COUNT0: {{^}}[[@LINE+1]] 0 rule=string-sso copy
  MEASURE("copy", std::string s = shared);
  // COUNT0: {{^}}[[@LINE+3]] 1 rule=string-sso fifteen
  // COUNT1: {{^}}[[@LINE+2]] 0 rule=string-sso fifteen
  // ABI0: abi.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: std::string built from a string literal of 15 characters allocates: libstdc++'s pre-C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=0) keeps no characters inline [string-sso]
  MEASURE("fifteen", std::string s("fifteen chars!!"));
}
