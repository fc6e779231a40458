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
