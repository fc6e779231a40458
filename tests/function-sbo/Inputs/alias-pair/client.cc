#include "client.h"

#include <vendor.h>

void Client::get(DownloadProgress p) { downloads_.push_back(std::move(p)); }

// An UploadProgress handed on as a DownloadProgress: the two types must
// stay one.
void Client::post(UploadProgress p) {
  uploads_.push_back(p);
  get(std::move(p));
}

void Client::alpha(Alpha a) { alphas_.push_back(std::move(a)); }

void Client::beta(Beta b) {
  Alpha a = b;
  alphas_.push_back(std::move(a));
  betas_.push_back(std::move(b));
}

void Client::job(Job j) { jobs_.push_back(std::move(j)); }

void Client::inner(Inner i) { inners_.push_back(std::move(i)); }

void Client::wrap(Inner i) {
  outers_.push_back([i](int v) {
    if (v) i();
  });
}

long Client::run() {
  long n = 0;
  for (auto &d : downloads_) n += d(1, 2);
  for (auto &u : uploads_) n += u(3, 4);
  for (auto &a : alphas_) n += a(6);
  for (auto &b : betas_) n += b(7);
  for (auto &j : jobs_) n += vendor_run(j);
  for (auto &i : inners_) i();
  for (auto &o : outers_) o(8);
  return n;
}
