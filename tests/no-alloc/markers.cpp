// What makes a function a no-allocation zone: clang's function effects,
// HEAPLINT_NO_ALLOC before or after the declarator, on a declaration whose
// definition comes later, a lambda's marker; nonblocking(false) is no zone.
// The errors are errors (exit 1) unless the config says otherwise.
//
// RUN: %not %heaplint %s -- -std=c++20 -I%src_root/runtime/include > %t.out 2> %t.err
// RUN: %FileCheck %s --implicit-check-not=error: < %t.out
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t.err
// SUMMARY: 0 warnings and 8 errors in 1 file (no C++ standard library header included, x86_64)
#include <heaplint/noalloc.h>

struct Voice {
  long a;
};

void nonblocking() [[clang::nonblocking]] {
  // CHECK: markers.cpp:[[@LINE+2]]:10: error: in no-allocation zone 'nonblocking()': new Voice allocates from the global heap [no-alloc]
  // CHECK: markers.cpp:[[@LINE-2]]:6: note: nonblocking() is a no-allocation zone: marked {{\[\[}}clang::nonblocking{{\]\]}}
  delete new Voice;
}

void nonallocating() [[clang::nonallocating]] {
  // CHECK: markers.cpp:[[@LINE+2]]:10: error: in no-allocation zone 'nonallocating()': new Voice
  // CHECK: note: nonallocating() is a no-allocation zone: marked {{\[\[}}clang::nonallocating{{\]\]}}
  delete new Voice;
}

void blocking() [[clang::nonblocking(false)]] { delete new Voice; }

HEAPLINT_NO_ALLOC void before() {
  // CHECK: markers.cpp:[[@LINE+2]]:10: error: in no-allocation zone 'before()': new Voice
  // CHECK: note: before() is a no-allocation zone: marked HEAPLINT_NO_ALLOC
  delete new Voice;
}

void after() HEAPLINT_NO_ALLOC;
void after() {
  // CHECK: markers.cpp:[[@LINE+1]]:10: error: in no-allocation zone 'after()': new Voice
  delete new Voice;
}

namespace audio {
struct Mixer {
  void process() [[clang::nonblocking]];
  HEAPLINT_NO_ALLOC void render();
  template <class T> void fill(T) [[clang::nonallocating]] {
    // CHECK: markers.cpp:[[@LINE+1]]:12: error: in no-allocation zone 'audio::Mixer::fill()': new Voice
    delete new Voice;
  }
};
void Mixer::process() {
  // CHECK: markers.cpp:[[@LINE+1]]:10: error: in no-allocation zone 'audio::Mixer::process()': new Voice
  delete new Voice;
}
void Mixer::render() {
  // CHECK: markers.cpp:[[@LINE+1]]:10: error: in no-allocation zone 'audio::Mixer::render()': new Voice
  delete new Voice;
}
} // namespace audio

void not_a_zone() { delete new Voice; }

void lambdas() {
  auto zone = []() [[clang::nonblocking]] {
    // CHECK: markers.cpp:[[@LINE+2]]:12: error: in no-allocation zone 'the lambda at {{.*}}markers.cpp:[[@LINE-1]]': new Voice
    // CHECK: note: the lambda at {{.*}} is a no-allocation zone: marked {{\[\[}}clang::nonblocking{{\]\]}}
    delete new Voice;
  };
  auto other = [] { delete new Voice; };
  zone();
  other();
}
