// Multi-threaded stress test of hl::pool_allocator's inline node path (the
// thread bins and the inline frees of heaplint/detail/tcache.h), against
// the release runtime where it is on. Waves of threads fill and drain lists
// and maps of stamped nodes; nodes travel between threads through a shared
// mailbox (splice: no copy), so that many are freed by a thread other than
// the one that allocated them, often after that thread has exited and its
// heap went to a thread of the next wave. A registry of live blocks proves
// that no block is handed out twice or freed unallocated; every stamp is
// checked when its node dies; the statistics balance at the end.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <list>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "check.hpp"
#include "heaplint/containers.hpp"

namespace {

constexpr int kWaves = 4;
constexpr int kThreads = 4;
constexpr int kOps = 200000;

// ---- registry of live blocks ----------------------------------------------

constexpr int kStripes = 64;
struct stripe {
  std::mutex lock;
  std::unordered_set<std::uintptr_t> live;
} registry[kStripes];
std::atomic<int> twice{0}, unknown{0}, corrupt{0};

stripe& stripe_of(const void* p) {
  std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  return registry[((a >> 4) ^ (a >> 12)) % kStripes];
}

// hl::pool_allocator, with every block registered while it is out.
template <class T> struct tracked {
  using value_type = T;
  using is_always_equal = std::true_type;
  tracked() = default;
  template <class U> tracked(const tracked<U>&) noexcept {}
  T* allocate(std::size_t n) {
    T* p = hl::pool_allocator<T>().allocate(n);
    stripe& s = stripe_of(p);
    std::lock_guard<std::mutex> g(s.lock);
    if (!s.live.insert(reinterpret_cast<std::uintptr_t>(p)).second) twice++;
    return p;
  }
  void deallocate(T* p, std::size_t n) noexcept {
    {
      stripe& s = stripe_of(p);
      std::lock_guard<std::mutex> g(s.lock);
      if (s.live.erase(reinterpret_cast<std::uintptr_t>(p)) != 1) unknown++;
    }
    hl::pool_allocator<T>().deallocate(p, n);
  }
};
template <class T, class U> bool operator==(const tracked<T>&, const tracked<U>&) { return true; }
template <class T, class U> bool operator!=(const tracked<T>&, const tracked<U>&) { return false; }

// ---- stamped values ---------------------------------------------------------

struct stamp {
  std::uint32_t thread, seq;
  std::uint64_t pad[3];
  stamp(std::uint32_t t, std::uint32_t s) : thread(t), seq(s) {
    for (int i = 0; i < 3; i++) pad[i] = mix(i);
  }
  std::uint64_t mix(int i) const { return (std::uint64_t(thread) << 40 ^ seq) * 0x9E3779B97F4A7C15ull + i; }
  void check() const {
    for (int i = 0; i < 3; i++)
      if (pad[i] != mix(i)) corrupt++;
  }
};

using stamp_list = std::list<stamp, tracked<stamp>>;
using stamp_map = std::map<std::uint32_t, stamp, std::less<std::uint32_t>,
                           tracked<std::pair<const std::uint32_t, stamp>>>;

std::mutex mailbox_lock;
stamp_list mailbox;

struct rng {
  std::uint64_t s;
  std::uint32_t next() {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return static_cast<std::uint32_t>(s);
  }
};

void pop_checked(stamp_list& l) {
  l.front().check();
  l.pop_front();
}

void work(std::uint32_t id) {
  rng r{0x2545F4914F6CDD1Dull * (id + 1)};
  stamp_list mine;
  stamp_map tree;
  for (std::uint32_t seq = 0; seq < static_cast<std::uint32_t>(kOps); seq++) {
    std::uint32_t x = r.next();
    switch (x % 8) {
      case 0: case 1: case 2: mine.emplace_back(id, seq); break;
      case 3: if (!mine.empty()) pop_checked(mine); break;
      case 4: tree.emplace(x >> 8, stamp(id, seq)); break;
      case 5: {
        auto it = tree.lower_bound(x >> 8);
        if (it != tree.end()) { it->second.check(); tree.erase(it); }
        break;
      }
      case 6: {  // hand up to 32 nodes to whoever comes next, take what others left
        std::lock_guard<std::mutex> g(mailbox_lock);
        auto end = mine.begin();
        for (int i = 0; i < 32 && end != mine.end(); i++) ++end;
        stamp_list taken;
        taken.splice(taken.end(), mailbox);
        mailbox.splice(mailbox.end(), mine, mine.begin(), end);
        mine.splice(mine.end(), taken);
        break;
      }
      default:
        if (mine.size() > 512)
          while (mine.size() > 256) pop_checked(mine);
        break;
    }
  }
  // Leave some behind in the mailbox for the next wave to free; the rest dies here.
  std::lock_guard<std::mutex> g(mailbox_lock);
  auto end = mine.begin();
  for (int i = 0; i < 100 && end != mine.end(); i++) ++end;
  mailbox.splice(mailbox.end(), mine, mine.begin(), end);
  while (!mine.empty()) pop_checked(mine);
  for (auto& kv : tree) kv.second.check();
}

}  // namespace

int main() {
  hl_pool_stats before, after;
  hl_trim();
  hl_totals(&before);
  for (int wave = 0; wave < kWaves; wave++) {
    std::vector<std::thread> crew;
    for (int t = 0; t < kThreads; t++) crew.emplace_back(work, static_cast<std::uint32_t>(wave * kThreads + t));
    for (auto& t : crew) t.join();
  }
  while (!mailbox.empty()) pop_checked(mailbox);
  hl_trim();
  hl_totals(&after);

  std::size_t left = 0;
  for (auto& s : registry) left += s.live.size();
  if (twice || unknown || corrupt || left)
    std::fprintf(stderr, "handed out twice %d, freed unknown %d, corrupt stamps %d, still registered %zu\n",
                 twice.load(), unknown.load(), corrupt.load(), left);
  CHECK(twice == 0);
  CHECK(unknown == 0);
  CHECK(corrupt == 0);
  CHECK(left == 0);
  if (after.in_use != before.in_use)
    std::fprintf(stderr, "in use before %zu, after %zu\n", before.in_use, after.in_use);
  CHECK(after.in_use == before.in_use);
  CHECK(after.allocations - before.allocations == after.frees - before.frees);
  return hl_test::failures();
}
