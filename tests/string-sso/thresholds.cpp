// Each library's small-string capacity per character type, from the
// profiles (measured by heaplint calibrate): a literal one character longer
// allocates, one of the capacity does not.
//   libstdc++: char 15, wchar_t 3, char8_t 15, char16_t 7, char32_t 3
//   libc++ 64-bit: char 22, wchar_t 4, char8_t 22, char16_t 10, char32_t 4
//   libc++ 32-bit: char 10, wchar_t 1, char8_t 10, char16_t 4, char32_t 1
//
// RUN: %heaplint %s -- -std=c++20 | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- -std=c++20 -stdlib=libc++ | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
// RUN: %heaplint %s -- -std=c++20 -stdlib=libc++ -m32 2>&1 | %FileCheck %s --check-prefix=LLVM32 --implicit-check-not=warning:
// LLVM32: heaplint: warning: the profile for libc++ on 32-bit targets describes no wrappers: they are not checked
#include <string>

void chars() {
  std::string c10 = "0123456789";
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: std::string built from a string literal of 11 characters allocates: libc++ keeps at most 10 characters inline [string-sso]
  std::string c11 = "01234567890";
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: {{.*}} of 15 characters allocates: libc++ keeps at most 10
  std::string c15 = "012345678901234";
  // GNU: thresholds.cpp:[[@LINE+2]]:21: warning: std::string built from a string literal of 16 characters allocates: libstdc++ keeps at most 15 characters inline [string-sso]
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: {{.*}} of 16 characters allocates: libc++ keeps at most 10
  std::string c16 = "0123456789012345";
  // GNU: thresholds.cpp:[[@LINE+2]]:21: warning: {{.*}} of 22 characters allocates: libstdc++ keeps at most 15
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: {{.*}} of 22 characters allocates: libc++ keeps at most 10
  std::string c22 = "0123456789012345678901";
  // GNU: thresholds.cpp:[[@LINE+3]]:21: warning: {{.*}} of 23 characters allocates: libstdc++ keeps at most 15
  // LLVM: thresholds.cpp:[[@LINE+2]]:21: warning: std::string built from a string literal of 23 characters allocates: libc++ keeps at most 22 characters inline [string-sso]
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: {{.*}} of 23 characters allocates: libc++ keeps at most 10
  std::string c23 = "01234567890123456789012";
}

void wide() {
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: std::wstring built from a string literal of 3 characters allocates: libc++ keeps at most 1 character inline
  std::wstring w3 = L"012";
  // GNU: thresholds.cpp:[[@LINE+2]]:21: warning: std::wstring built from a string literal of 4 characters allocates: libstdc++ keeps at most 3 characters inline
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: std::wstring {{.*}} of 4 characters
  std::wstring w4 = L"0123";
  // GNU: thresholds.cpp:[[@LINE+3]]:21: warning: std::wstring {{.*}} of 5 characters
  // LLVM: thresholds.cpp:[[@LINE+2]]:21: warning: std::wstring built from a string literal of 5 characters allocates: libc++ keeps at most 4 characters inline
  // LLVM32: thresholds.cpp:[[@LINE+1]]:21: warning: std::wstring {{.*}} of 5 characters
  std::wstring w5 = L"01234";
  std::u8string u8_10 = u8"0123456789";
  // GNU: thresholds.cpp:[[@LINE+2]]:25: warning: std::u8string built from a string literal of 16 characters allocates: libstdc++ keeps at most 15 characters inline
  // LLVM32: thresholds.cpp:[[@LINE+1]]:25: warning: std::u8string {{.*}} of 16 characters
  std::u8string u8_16 = u8"0123456789012345";
  // LLVM32: thresholds.cpp:[[@LINE+1]]:23: warning: std::u16string built from a string literal of 7 characters allocates: libc++ keeps at most 4 characters inline
  std::u16string u7 = u"0123456";
  // GNU: thresholds.cpp:[[@LINE+2]]:23: warning: std::u16string built from a string literal of 8 characters allocates: libstdc++ keeps at most 7 characters inline
  // LLVM32: thresholds.cpp:[[@LINE+1]]:23: warning: std::u16string {{.*}} of 8 characters
  std::u16string u8 = u"01234567";
  // GNU: thresholds.cpp:[[@LINE+3]]:24: warning: std::u16string {{.*}} of 11 characters
  // LLVM: thresholds.cpp:[[@LINE+2]]:24: warning: std::u16string built from a string literal of 11 characters allocates: libc++ keeps at most 10 characters inline
  // LLVM32: thresholds.cpp:[[@LINE+1]]:24: warning: std::u16string {{.*}} of 11 characters
  std::u16string u11 = u"01234567890";
  // GNU: thresholds.cpp:[[@LINE+3]]:23: warning: std::u32string built from a string literal of 4 characters allocates: libstdc++ keeps at most 3 characters inline
  // LLVM32: thresholds.cpp:[[@LINE+2]]:23: warning: std::u32string {{.*}} of 4 characters
  // (4 fits libc++ on 64-bit targets.)
  std::u32string U4 = U"0123";
}

// Another allocator is the allocator's business: std::pmr::string, a
// string over heaplint's pools, a basic_string of another character type.
#include <memory_resource>
template <class T> struct other_alloc : std::allocator<T> {
  template <class U> struct rebind { using other = other_alloc<U>; };
};
void others() {
  std::pmr::string p = "0123456789012345678901234567890";
  std::basic_string<char, std::char_traits<char>, other_alloc<char>> a = "0123456789012345678901234567890";
}
