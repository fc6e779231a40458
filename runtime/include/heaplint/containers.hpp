// heaplint/containers.hpp: the standard node containers, strings and string
// streams over heaplint's pools. Same template parameters as std, minus the
// allocator:
//
//   hl::list<T>           hl::map<K, V, Compare>   hl::unordered_map<K, V, Hash, Eq>
//   hl::string            hl::ostringstream        hl::queue<T> / hl::stack<T> (over hl::deque)
//
// hl::X uses hl::pool_allocator (the process-wide size-class allocator);
// hl::bound::X uses hl::bound_allocator and takes the allocator (or an
// hl::static_arena) in its constructor, e.g.
//   static hl::static_arena<64 * 1024> arena;
//   hl::bound::list<int> l(arena);
//
// There is no hl::vector on purpose: a vector is one contiguous block that
// grows geometrically, the wrong shape for fixed-size blocks (see
// docs/runtime.md). Unordered containers hash hl strings like std strings.
#ifndef HEAPLINT_CONTAINERS_HPP
#define HEAPLINT_CONTAINERS_HPP

#include <deque>
#include <forward_list>
#include <functional>
#include <list>
#include <map>
#include <queue>
#include <set>
#include <sstream>
#include <stack>
#include <string>
#if __cplusplus >= 201703L
#include <string_view>
#endif
#include <unordered_map>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include "pool_allocator.hpp"

namespace hl {

// std::hash, which knows basic_string only with std::allocator; this also
// hashes strings with heaplint's allocators, by their characters: as
// std::hash<std::basic_string_view> does from C++17 (so equal to std::hash of
// the same std::string), by FNV-1a below C++17.
template <class T>
struct hash : std::hash<T> {};
template <class C, class Traits, class A>
struct hash<std::basic_string<C, Traits, A>> {
  std::size_t operator()(const std::basic_string<C, Traits, A> &s) const noexcept {
#if defined(__cpp_lib_string_view)
    return std::hash<std::basic_string_view<C, Traits>>()(std::basic_string_view<C, Traits>(s));
#else
    const unsigned char *p = reinterpret_cast<const unsigned char *>(s.data());
    const unsigned char *end = p + s.size() * sizeof(C);
    std::size_t h = sizeof(std::size_t) >= 8 ? static_cast<std::size_t>(14695981039346656037ULL) : 2166136261U;
    const std::size_t prime = sizeof(std::size_t) >= 8 ? static_cast<std::size_t>(1099511628211ULL) : 16777619U;
    for (; p != end; ++p) h = (h ^ *p) * prime;
    return h;
#endif
  }
};

// The unordered aliases' default hash: std::hash<K> itself wherever it
// applies, so that a container retyped from std:: keeps its iterator types
// (libstdc++ picks the node layout from the hash type); hl::hash only for
// strings with another allocator, which std::hash does not take.
template <class K>
struct default_hash {
  using type = std::hash<K>;
};
template <class C, class Traits, class A>
struct default_hash<std::basic_string<C, Traits, A>> {
  using type =
      typename std::conditional<std::is_same<A, std::allocator<C>>::value, std::hash<std::basic_string<C, Traits, A>>,
                                hash<std::basic_string<C, Traits, A>>>::type;
};
template <class K>
using default_hash_t = typename default_hash<K>::type;

template <class T>
using list = std::list<T, pool_allocator<T>>;
template <class T>
using forward_list = std::forward_list<T, pool_allocator<T>>;
template <class T>
using deque = std::deque<T, pool_allocator<T>>;

template <class K, class V, class Compare = std::less<K>>
using map = std::map<K, V, Compare, pool_allocator<std::pair<const K, V>>>;
template <class K, class V, class Compare = std::less<K>>
using multimap = std::multimap<K, V, Compare, pool_allocator<std::pair<const K, V>>>;
template <class K, class Compare = std::less<K>>
using set = std::set<K, Compare, pool_allocator<K>>;
template <class K, class Compare = std::less<K>>
using multiset = std::multiset<K, Compare, pool_allocator<K>>;

template <class K, class V, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_map = std::unordered_map<K, V, Hash, Eq, pool_allocator<std::pair<const K, V>>>;
template <class K, class V, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_multimap = std::unordered_multimap<K, V, Hash, Eq, pool_allocator<std::pair<const K, V>>>;
template <class K, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_set = std::unordered_set<K, Hash, Eq, pool_allocator<K>>;
template <class K, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_multiset = std::unordered_multiset<K, Hash, Eq, pool_allocator<K>>;

template <class C, class Traits = std::char_traits<C>>
using basic_string = std::basic_string<C, Traits, pool_allocator<C>>;
using string = basic_string<char>;
using wstring = basic_string<wchar_t>;
using u16string = basic_string<char16_t>;
using u32string = basic_string<char32_t>;

template <class C, class Traits = std::char_traits<C>>
using basic_stringstream = std::basic_stringstream<C, Traits, pool_allocator<C>>;
template <class C, class Traits = std::char_traits<C>>
using basic_ostringstream = std::basic_ostringstream<C, Traits, pool_allocator<C>>;
template <class C, class Traits = std::char_traits<C>>
using basic_istringstream = std::basic_istringstream<C, Traits, pool_allocator<C>>;
using stringstream = basic_stringstream<char>;
using ostringstream = basic_ostringstream<char>;
using istringstream = basic_istringstream<char>;
using wstringstream = basic_stringstream<wchar_t>;
using wostringstream = basic_ostringstream<wchar_t>;
using wistringstream = basic_istringstream<wchar_t>;

template <class T, class Container = hl::deque<T>>
using queue = std::queue<T, Container>;
template <class T, class Container = hl::deque<T>>
using stack = std::stack<T, Container>;

// The same containers bound to one hl_allocator instance. String streams
// cannot be given an allocator object before C++20, so they have no bound
// form.
namespace bound {
template <class T>
using list = std::list<T, bound_allocator<T>>;
template <class T>
using forward_list = std::forward_list<T, bound_allocator<T>>;
template <class T>
using deque = std::deque<T, bound_allocator<T>>;

template <class K, class V, class Compare = std::less<K>>
using map = std::map<K, V, Compare, bound_allocator<std::pair<const K, V>>>;
template <class K, class V, class Compare = std::less<K>>
using multimap = std::multimap<K, V, Compare, bound_allocator<std::pair<const K, V>>>;
template <class K, class Compare = std::less<K>>
using set = std::set<K, Compare, bound_allocator<K>>;
template <class K, class Compare = std::less<K>>
using multiset = std::multiset<K, Compare, bound_allocator<K>>;

template <class K, class V, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_map = std::unordered_map<K, V, Hash, Eq, bound_allocator<std::pair<const K, V>>>;
template <class K, class V, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_multimap = std::unordered_multimap<K, V, Hash, Eq, bound_allocator<std::pair<const K, V>>>;
template <class K, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_set = std::unordered_set<K, Hash, Eq, bound_allocator<K>>;
template <class K, class Hash = default_hash_t<K>, class Eq = std::equal_to<K>>
using unordered_multiset = std::unordered_multiset<K, Hash, Eq, bound_allocator<K>>;

template <class C, class Traits = std::char_traits<C>>
using basic_string = std::basic_string<C, Traits, bound_allocator<C>>;
using string = basic_string<char>;
using wstring = basic_string<wchar_t>;

template <class T, class Container = bound::deque<T>>
using queue = std::queue<T, Container>;
template <class T, class Container = bound::deque<T>>
using stack = std::stack<T, Container>;
}  // namespace bound

}  // namespace hl

#endif
