// The capacities a profile states (-D from its string.sso-capacity), checked
// against the library by the compiler: an empty basic_string's capacity()
// is its small-string capacity, and constexpr from C++20.
#include <string>

template <class C> constexpr std::size_t capacity() { return std::basic_string<C>().capacity(); }
static_assert(capacity<char>() == CHAR_CAP, "char");
static_assert(capacity<wchar_t>() == WCHAR_CAP, "wchar_t");
static_assert(capacity<char8_t>() == CHAR8_CAP, "char8_t");
static_assert(capacity<char16_t>() == CHAR16_CAP, "char16_t");
static_assert(capacity<char32_t>() == CHAR32_CAP, "char32_t");
