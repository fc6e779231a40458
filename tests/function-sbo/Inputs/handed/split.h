// The two overloads of cpp-httplib's detail::split: the short one hands its
// callback on to the long one, which only calls it: both become
// function_refs together. each_twice hands its callback on to each, which
// only calls it, but also stores a copy: it stays.
#pragma once
#include <cstddef>
#include <functional>
void split(const char *b, const char *e, char d, std::function<void(const char *, const char *)> fn);
void split(const char *b, const char *e, char d, std::size_t m, std::function<void(const char *, const char *)> fn);
void each(int n, const std::function<void(int)> &f);
void each_twice(int n, const std::function<void(int)> &f);
// relay hands f on to store, whose parameter is written through an alias:
// heaplint follows no alias's parameter, so relay's stays.
using Slot = std::function<void(int)>;
void store(Slot s);
void relay(int n, const std::function<void(int)> &f);
