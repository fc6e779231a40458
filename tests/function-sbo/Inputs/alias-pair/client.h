// A client whose callback types are named twice over: two aliases of one
// std::function type, as cpp-httplib's DownloadProgress and UploadProgress.
// Values pass between them, so they are retyped together or not at all.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

using DownloadProgress = std::function<bool(std::size_t, std::size_t)>;
using UploadProgress = std::function<bool(std::size_t, std::size_t)>;

// Beta's type is written by a macro heaplint may not edit: neither is
// retyped.
#define HOOK_TYPE std::function<int(int)>
using Alpha = std::function<int(int)>;
using Beta = HOOK_TYPE;

// Its rewrite would break client.cc, which hands a Job to vendor_run().
using Job = std::function<long()>;

// Each fine alone, not together: Outer's value captures an Inner (32
// bytes as a std::function, so Outer is planned at 32); retyped for its
// 40-byte value, an Inner is 48 bytes, and that lambda outgrows Outer.
using Inner = std::function<void()>;
using Outer = std::function<void(int)>;

class Client {
 public:
  Client() {
    downloads_.reserve(4);
    uploads_.reserve(4);
    alphas_.reserve(4);
    betas_.reserve(4);
    jobs_.reserve(4);
    inners_.reserve(4);
    outers_.reserve(4);
  }
  void get(DownloadProgress p);
  void post(UploadProgress p);
  void alpha(Alpha a);
  void beta(Beta b);
  void job(Job j);
  void inner(Inner i);
  void wrap(Inner i);
  long run();

 private:
  std::vector<DownloadProgress> downloads_;
  std::vector<UploadProgress> uploads_;
  std::vector<Alpha> alphas_;
  std::vector<Beta> betas_;
  std::vector<Job> jobs_;
  std::vector<Inner> inners_;
  std::vector<Outer> outers_;
};
