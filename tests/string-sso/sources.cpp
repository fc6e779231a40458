// The sources whose length heaplint knows at compile time, and those it
// does not (silent: never guessed). libstdc++ (15 characters inline).
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --implicit-check-not=warning:
#include <string>
#include <string_view>

using namespace std::literals;

#define LONG_LITERAL "0123456789012345678901234567890"
constexpr std::string_view kView = "0123456789012345678901234567890";
const std::string_view kSuffixed = "01234567890123456789"sv;
constexpr std::string_view kShortView = "0123456789";
constexpr int kCount = 40;

void sink(const std::string &);
std::string make();
const std::string &ref();

void sources(const char *p, std::string name, int n, char c) {
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a string literal of 31 characters allocates: libstdc++ keeps at most 15 characters inline [string-sso]
  std::string a = LONG_LITERAL;
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a "..."s literal of 16 characters allocates
  std::string b = "0123456789012345"s;
  // CHECK: sources.cpp:[[@LINE+1]]:15: warning: std::string built from a std::string_view constant of 31 characters allocates
  std::string d(kView);
  // CHECK: sources.cpp:[[@LINE+1]]:15: warning: std::string built from a std::string_view constant of 20 characters allocates
  std::string e{kSuffixed};
  std::string f(kShortView);
  // CHECK: sources.cpp:[[@LINE+1]]:15: warning: std::string built from a fill of 40 characters allocates
  std::string g(kCount, 'x');
  // CHECK: sources.cpp:[[@LINE+1]]:15: warning: std::string built from a fill of 16 characters allocates
  std::string h(16, c);
  // CHECK: sources.cpp:[[@LINE+1]]:15: warning: std::string built from a pointer and a count of 20 characters allocates
  std::string i(p, 20);
  // CHECK: sources.cpp:[[@LINE+1]]:15: warning: std::string built from a string literal of 16 characters allocates
  std::string j(LONG_LITERAL, 16);
  // A NUL ends the string a pointer gives: its length is not the array's.
  std::string k = "0123456\0abcdefghijklmnopqrstuvwxyz";
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a string literal of 17 characters allocates
  std::string l = R"(a\0b\x0c012345678)";
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a string literal of 30 characters allocates
  std::string m = "012345678901234" "567890123456789";
  // Unknown lengths: a pointer, a count known only at run time, a copy.
  std::string u1(p);
  std::string u2(n, 'x');
  std::string u3 = name;
  std::string u4 = make();
}

void concatenations(const std::string &name, std::string &&tmp, const char *p) {
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a concatenation of 16 characters allocates
  std::string a = std::string("abc") + "0123456789012";
  std::string b = std::string("abc") + "012345678901";
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a concatenation of 17 characters allocates
  std::string c = std::string("0123456789") + "012345" + 'x';
  // Lvalues and pointers of unknown length make a new string: a lower bound.
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a concatenation of at least 16 characters allocates
  std::string d = name + "0123456789012345";
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a concatenation of at least 20 characters allocates
  std::string e = p + std::string("01234567890123456789");
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a concatenation of at least 16 characters allocates
  std::string f = ref() + "0123456789012345";
  // An rvalue of unknown origin may have room already: nothing is known.
  std::string g = make() + "0123456789012345";
  std::string h = std::move(tmp) + "0123456789012345";
  // A piece of a concatenation is judged with the whole, once.
  // CHECK: sources.cpp:[[@LINE+1]]:8: warning: std::string built from a concatenation of 43 characters allocates
  sink(std::string(40, 'x') + "abc");
}

void assignments(std::string &out) {
  std::string s;
  // CHECK: sources.cpp:[[@LINE+1]]:3: warning: assigning a string literal of 16 characters to std::string 's' allocates unless it has the room already: libstdc++ keeps at most 15 characters inline [string-sso]
  s = "0123456789012345";
  // CHECK: sources.cpp:[[@LINE+1]]:3: warning: assigning a std::string_view constant of 31 characters to std::string 'out' allocates unless
  out.assign(kView);
  s = "012345678901234";
}

struct Member {
  // CHECK: sources.cpp:[[@LINE+1]]:19: warning: std::string built from a string literal of 16 characters allocates
  std::string a = "0123456789012345";
  std::string b;
  // CHECK: sources.cpp:[[@LINE+1]]:14: warning: std::string built from a string literal of 16 characters allocates
  Member() : b("0123456789012345") {}
};

std::string returned() {
  // CHECK: sources.cpp:[[@LINE+1]]:10: warning: std::string built from a string literal of 16 characters allocates
  return "0123456789012345";
}

void argument() {
  // CHECK: sources.cpp:[[@LINE+2]]:8: warning: std::string built from a string literal of 16 characters allocates
  // CHECK: sources.cpp:[[@LINE+1]]:8: note: a constant made into a temporary for sink(): pass a static const std::string built once, or let sink() take a std::string_view
  sink("0123456789012345");
  // CHECK: sources.cpp:[[@LINE+1]]:8: warning: std::string built from a string literal of 16 characters allocates
  sink(std::string("0123456789012345"));
}

// Built once for the whole program (or thread): not reported.
static const std::string kGlobal = "0123456789012345678901234567890";
void once() {
  static const std::string local = "0123456789012345678901234567890";
  thread_local std::string per_thread = "0123456789012345678901234567890";
}
