// Node containers against allocators, in one process: std::allocator (the
// process's malloc: glibc, or mimalloc or jemalloc when run.sh preloads one),
// a std::pmr::unsynchronized_pool_resource, hl::bound_allocator over a
// private hl_allocator, hl::pool_allocator (the process-wide pools behind
// the thread cache), a bare free list (the least an allocator that reuses
// memory does: one LIFO list per size and thread, a pop and a push) and a
// bump allocator that never frees (the lower limit of what any allocator
// can cost for that container).
//
//   hl_bench_nodes THREADS ROUNDS [WORKLOAD]   (WORKLOAD: run only the names containing it)
//
// Each workload is a container and a pattern:
//   fill   10,000 inserts, then clear(); per insert (with its share of the clear)
//   churn  a container of 1,000 elements, 10,000 times: insert one, erase the
//          oldest; per insert+erase (filling and clearing are not timed)
// and, for comparison, a string grown to 10,000 characters one at a time.
// With THREADS > 1, every thread runs the same workload with the same
// allocator at the same time, each on containers of its own (10 times per
// round, so that the barriers around a round weigh little); the time is the
// round's wall time per operation of one thread.
//
// The allocators take turns round after round, so that a change in machine
// load hits them alike; one line per workload and allocator, tab-separated:
// threads, container, pattern, allocator, median ns per operation.
//
// Under callgrind (single-threaded; run.sh -c), each workload and allocator
// runs its rounds alone between two toggles of collection, then dumps its
// counts under the name "container|pattern|allocator".
#include <pthread.h>
#include <sys/mman.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <forward_list>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <memory_resource>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "heaplint/pool_allocator.hpp"

namespace {

constexpr int kFill = 10000;
constexpr int kLive = 1000;
constexpr int kChurn = 10000;

// Keeps the optimiser from dropping the work on c.
template <class T> void escape(T& c) { asm volatile("" : : "r"(&c) : "memory"); }

// ---- the bump allocator: one region per thread, reset after each round ----

struct bump_region {
  unsigned char* base = nullptr;  // a reset goes back to base; the buckets lie below it
  unsigned char* cur = nullptr;
  unsigned char* end = nullptr;
};
thread_local bump_region bump_tls;
constexpr std::size_t kBumpBytes = std::size_t(256) << 20;  // address space; touched as used

void bump_init() {
  void* p = mmap(nullptr, kBumpBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) std::abort();
  bump_tls.base = bump_tls.cur = static_cast<unsigned char*>(p);
  bump_tls.end = bump_tls.base + kBumpBytes;
}

template <class T> struct bump_allocator {
  using value_type = T;
  bump_allocator() = default;
  template <class U> bump_allocator(const bump_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    bump_region& r = bump_tls;
    auto a = reinterpret_cast<std::uintptr_t>(r.cur);
    a = (a + alignof(T) - 1) & ~(std::uintptr_t(alignof(T)) - 1);
    auto* p = reinterpret_cast<unsigned char*>(a);
    if (n * sizeof(T) > std::size_t(r.end - p)) std::abort();
    r.cur = p + n * sizeof(T);
    return reinterpret_cast<T*>(p);
  }
  void deallocate(T*, std::size_t) noexcept {}
};
template <class T, class U> bool operator==(const bump_allocator<T>&, const bump_allocator<U>&) { return true; }
template <class T, class U> bool operator!=(const bump_allocator<T>&, const bump_allocator<U>&) { return false; }

// ---- the bare free list: what reusing memory costs at the least -----------
// One LIFO list per 8-byte size (up to 256) and thread, carved from a
// region of its own when empty: allocate pops, deallocate pushes; no
// statistics, no return of memory, no other thread's frees, no care for
// where the blocks lie. Arrays (the buckets) go to operator new.
//
// Its lists are private to this file, and the compiler knows it: no store
// through a container's pointer can reach them, so it may keep a list's
// head in a register across a loop of pushes and pops. An allocator whose
// lists other code reads (statistics, a thread's exit, a trim) cannot have
// that. Built with -DHL_BENCH_FREE_LIST_SHARED=1, the lists are a global
// whose address is published, as such an allocator's are, and the column
// measures the same pop and push without that help (bench/README.md).

#if defined(HL_BENCH_FREE_LIST_SHARED) && HL_BENCH_FREE_LIST_SHARED
}  // namespace
struct lifo_region {  // zero-initialized, as __thread wants
  void* head[33];
  unsigned char* cur;
  unsigned char* end;
};
__thread lifo_region lifo_tls __attribute__((tls_model("initial-exec")));
lifo_region* volatile lifo_seen;
namespace {
#else
struct lifo_region {
  void* head[33] = {};
  unsigned char* cur = nullptr;
  unsigned char* end = nullptr;
};
thread_local lifo_region lifo_tls;
#endif

void lifo_init() {
  void* p = mmap(nullptr, kBumpBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) std::abort();
  lifo_tls.cur = static_cast<unsigned char*>(p);
  lifo_tls.end = lifo_tls.cur + kBumpBytes;
#if defined(HL_BENCH_FREE_LIST_SHARED) && HL_BENCH_FREE_LIST_SHARED
  lifo_seen = &lifo_tls;
#endif
}

template <class T> struct lifo_allocator {
  using value_type = T;
  static_assert(alignof(T) <= 8, "the bare free list hands out 8-byte aligned blocks");
  static constexpr std::size_t bytes = (sizeof(T) + 7) / 8 * 8;
  static constexpr bool listed = bytes <= 256;
  lifo_allocator() = default;
  template <class U> lifo_allocator(const lifo_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n != 1 || !listed) return static_cast<T*>(::operator new(n * sizeof(T)));
    lifo_region& r = lifo_tls;
    void*& head = r.head[bytes / 8];
    if (void* p = head) {
      std::memcpy(&head, p, sizeof(void*));
      return static_cast<T*>(p);
    }
    if (bytes > std::size_t(r.end - r.cur)) std::abort();
    void* p = r.cur;
    r.cur += bytes;
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n != 1 || !listed) return ::operator delete(p);
    void*& head = lifo_tls.head[bytes / 8];
    std::memcpy(static_cast<void*>(p), &head, sizeof(void*));
    head = p;
  }
};
template <class T, class U> bool operator==(const lifo_allocator<T>&, const lifo_allocator<U>&) { return true; }
template <class T, class U> bool operator!=(const lifo_allocator<T>&, const lifo_allocator<U>&) { return false; }

// ---- allocator kinds: how to make each container's allocator ---------------

struct std_kind {
  template <class T> using alloc = std::allocator<T>;
  template <class T> alloc<T> make() const { return {}; }
  void after_round() {}
};

struct pmr_kind {
  std::pmr::memory_resource* r;
  template <class T> using alloc = std::pmr::polymorphic_allocator<T>;
  template <class T> alloc<T> make() const { return alloc<T>(r); }
  void after_round() {}
};

struct bound_kind {
  hl_allocator* a;
  template <class T> using alloc = hl::bound_allocator<T>;
  template <class T> alloc<T> make() const { return alloc<T>(a); }
  void after_round() {}
};

struct hl_kind {
  template <class T> using alloc = hl::pool_allocator<T>;
  template <class T> alloc<T> make() const { return {}; }
  void after_round() {}
};

struct lifo_kind {
  template <class T> using alloc = lifo_allocator<T>;
  template <class T> alloc<T> make() const { return {}; }
  void after_round() {}
};

struct bump_kind {
  template <class T> using alloc = bump_allocator<T>;
  template <class T> alloc<T> make() const { return {}; }
  void after_round() { bump_tls.cur = bump_tls.base; }
  static void mark() { bump_tls.base = bump_tls.cur; }
};

// A permutation of [0, 1000003): keys in an order that makes trees rebalance
// as in real use, each key once.
int scrambled(int i) { return static_cast<int>((static_cast<unsigned long long>(i) * 7919u) % 1000003u); }

enum workload_id { LIST, FLIST, MAP_HINT, MAP_INDEX, SET, UMAP, STRING, WORKLOADS };
const char* const workload_names[WORKLOADS] = {"list<int>", "forward_list<int>", "map<int,int> end hint",
                                               "map<int,int> operator[]", "set<int> scrambled",
                                               "unordered_map<int,int>", "string growth"};

// Every container of one allocator kind, owned by one thread.
template <class K> struct suite {
  using pair_alloc = typename K::template alloc<std::pair<const int, int>>;
  K kind;
  std::list<int, typename K::template alloc<int>> list;
  std::forward_list<int, typename K::template alloc<int>> flist;
  std::map<int, int, std::less<int>, pair_alloc> map;
  std::set<int, std::less<int>, typename K::template alloc<int>> set;
  std::unordered_map<int, int, std::hash<int>, std::equal_to<int>, pair_alloc> umap;
  typename decltype(flist)::iterator tail;

  explicit suite(K k)
      : kind(k), list(kind.template make<int>()), flist(kind.template make<int>()),
        map(kind.template make<std::pair<const int, int>>()), set(kind.template make<int>()),
        umap(0, std::hash<int>(), std::equal_to<int>(), kind.template make<std::pair<const int, int>>()) {
    // Buckets for every round up front: the rows compare node allocations,
    // not rehashing (and the bump region can be reset under them).
    umap.reserve(kFill);
  }

  void fill(int w) {
    switch (w) {
      case LIST: for (int i = 0; i < kFill; i++) list.push_back(i); escape(list); list.clear(); break;
      case FLIST: for (int i = 0; i < kFill; i++) flist.push_front(i); escape(flist); flist.clear(); break;
      case MAP_HINT: for (int i = 0; i < kFill; i++) map.emplace_hint(map.end(), i, i); escape(map); map.clear(); break;
      case MAP_INDEX: for (int i = 0; i < kFill; i++) map[i] = i; escape(map); map.clear(); break;
      case SET: for (int i = 0; i < kFill; i++) set.insert(scrambled(i)); escape(set); set.clear(); break;
      case UMAP: for (int i = 0; i < kFill; i++) umap.emplace(i, i); escape(umap); umap.clear(); break;
      case STRING: {
        // Not a node container: ten allocations of growing sizes, most of
        // them beyond the size classes. Here to show that nothing is lost.
        std::basic_string<char, std::char_traits<char>, typename K::template alloc<char>> str(kind.template make<char>());
        for (int i = 0; i < kFill; i++) str.push_back(static_cast<char>('a' + i % 26));
        escape(str);
        break;
      }
    }
  }

  // Fills kLive elements; the churn that follows inserts key kLive + i and
  // erases the oldest, key i (forward_list: appends at tail, erases the front).
  void prefill(int w) {
    tail = flist.before_begin();
    for (int i = 0; i < kLive; i++) {
      switch (w) {
        case LIST: list.push_back(i); break;
        case FLIST: tail = flist.insert_after(tail, i); break;
        case MAP_HINT: case MAP_INDEX: map.emplace_hint(map.end(), i, i); break;
        case SET: set.insert(scrambled(i)); break;
        case UMAP: umap.emplace(i, i); break;
      }
    }
  }

  void churn(int w) {
    switch (w) {
      case LIST:
        for (int i = 0; i < kChurn; i++) { list.push_back(i); list.pop_front(); }
        break;
      case FLIST:
        for (int i = 0; i < kChurn; i++) { tail = flist.insert_after(tail, kLive + i); flist.pop_front(); }
        break;
      case MAP_HINT:
        for (int i = 0; i < kChurn; i++) { map.emplace_hint(map.end(), kLive + i, i); map.erase(map.begin()); }
        break;
      case MAP_INDEX:
        for (int i = 0; i < kChurn; i++) { map[kLive + i] = i; map.erase(i); }
        break;
      case SET:
        for (int i = 0; i < kChurn; i++) { set.insert(scrambled(kLive + i)); set.erase(scrambled(i)); }
        break;
      case UMAP:
        for (int i = 0; i < kChurn; i++) { umap.emplace(kLive + i, i); umap.erase(i); }
        break;
    }
    escape(list), escape(flist), escape(map), escape(set), escape(umap);
  }

  void clear() { list.clear(); flist.clear(); map.clear(); set.clear(); umap.clear(); kind.after_round(); }
};

enum kind_id { STD, PMR, BOUND, HL, LIFO, BUMP, KINDS };
const char* const kind_names[KINDS] = {"std::allocator", "pmr::unsynchronized_pool", "hl::bound_allocator",
                                       "hl::pool_allocator", "free list", "bump"};

// One thread's containers for every kind, made on that thread.
struct worker {
  std::pmr::unsynchronized_pool_resource pmr;
  hl_allocator* own = nullptr;
  std::unique_ptr<suite<std_kind>> s_std;
  std::unique_ptr<suite<pmr_kind>> s_pmr;
  std::unique_ptr<suite<bound_kind>> s_bound;
  std::unique_ptr<suite<hl_kind>> s_hl;
  std::unique_ptr<suite<lifo_kind>> s_lifo;
  std::unique_ptr<suite<bump_kind>> s_bump;

  worker() {
    if (hl_allocator_create(&own, nullptr) != HL_OK) std::abort();
    bump_init();
    lifo_init();
    s_std.reset(new suite<std_kind>(std_kind{}));
    s_pmr.reset(new suite<pmr_kind>(pmr_kind{&pmr}));
    s_bound.reset(new suite<bound_kind>(bound_kind{own}));
    s_hl.reset(new suite<hl_kind>(hl_kind{}));
    s_lifo.reset(new suite<lifo_kind>(lifo_kind{}));
    s_bump.reset(new suite<bump_kind>(bump_kind{}));
    bump_kind::mark();
  }
  ~worker() {
    s_bound.reset();
    hl_allocator_destroy(own);
  }

  // Runs (workload, pattern) inner times on suite s; returns the ns of the
  // timed parts (under callgrind, collects only those).
  template <class S> static double timed(S& s, int w, bool churn, int inner) {
    double ns = 0;
    for (int r = 0; r < inner; r++) {
      if (churn) s.prefill(w);
      if (callgrind) CALLGRIND_TOGGLE_COLLECT;
      auto t0 = std::chrono::steady_clock::now();
      if (churn) s.churn(w); else s.fill(w);
      ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      if (callgrind) CALLGRIND_TOGGLE_COLLECT;
      s.clear();
    }
    return ns;
  }
  static bool callgrind;

  double run(int kind, int w, bool churn, int inner) {
    switch (kind) {
      case STD: return timed(*s_std, w, churn, inner);
      case PMR: return timed(*s_pmr, w, churn, inner);
      case BOUND: return timed(*s_bound, w, churn, inner);
      case HL: return timed(*s_hl, w, churn, inner);
      case LIFO: return timed(*s_lifo, w, churn, inner);
      default: return timed(*s_bump, w, churn, inner);
    }
  }
};

bool worker::callgrind = false;

struct job {
  int kind, w;
  bool churn;
};

// ---- threads: every worker runs the same job between two barriers ---------

struct team {
  int threads, inner;
  pthread_barrier_t start, done;
  job current{};
  bool stop = false;
  std::vector<pthread_t> ids;

  static void* main_of(void* arg) {
    team* t = static_cast<team*>(arg);
    worker me;
    for (;;) {
      pthread_barrier_wait(&t->start);
      if (t->stop) break;
      me.run(t->current.kind, t->current.w, t->current.churn, t->inner);
      pthread_barrier_wait(&t->done);
    }
    return nullptr;
  }

  team(int n, int rounds_inner) : threads(n), inner(rounds_inner), ids(n) {
    pthread_barrier_init(&start, nullptr, n + 1);
    pthread_barrier_init(&done, nullptr, n + 1);
    for (auto& id : ids) pthread_create(&id, nullptr, main_of, this);
  }
  ~team() {
    stop = true;
    pthread_barrier_wait(&start);
    for (auto id : ids) pthread_join(id, nullptr);
  }

  // Wall time of one round, in ns: from before the workers are released
  // (taken after, it could miss a round that ran while this thread waited
  // for a processor) to when the last one is done.
  double round(const job& j) {
    current = j;
    auto t0 = std::chrono::steady_clock::now();
    pthread_barrier_wait(&start);
    pthread_barrier_wait(&done);
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  }
};

double ops_of(const job& j) { return j.churn ? kChurn : kFill; }

void print(int threads, const job& j, std::vector<double>& runs) {
  std::sort(runs.begin(), runs.end());
  std::printf("%d\t%s\t%s\t%s\t%.3f\n", threads, workload_names[j.w], j.churn ? "churn" : "fill",
              kind_names[j.kind], runs[runs.size() / 2]);
}

const char* only = nullptr;  // run only the workloads whose name contains this

std::vector<job> all_jobs() {
  std::vector<job> jobs;
  for (int churn = 0; churn < 2; churn++)
    for (int w = 0; w < WORKLOADS; w++)
      if (!only || std::strstr(workload_names[w], only))
        if (!(churn && w == STRING))
        for (int k = 0; k < KINDS; k++) jobs.push_back({k, w, churn != 0});
  return jobs;
}

// Per workload, the kinds take turns within each round.
void run_interleaved(int threads, int rounds) {
  std::vector<job> jobs = all_jobs();
  const int inner = threads > 1 ? 10 : 1;
  std::unique_ptr<team> crew;
  std::unique_ptr<worker> solo;
  if (threads > 1) crew.reset(new team(threads, inner)); else solo.reset(new worker);
  auto once = [&](const job& j) {
    return crew ? crew->round(j) : solo->run(j.kind, j.w, j.churn, inner);
  };
  for (std::size_t first = 0; first < jobs.size(); first += KINDS) {
    std::vector<std::vector<double>> runs(KINDS);
    for (int k = 0; k < KINDS; k++) once(jobs[first + k]);  // warm up: pools, caches, page faults
    for (int r = 0; r < rounds; r++)
      for (int k = 0; k < KINDS; k++) runs[k].push_back(once(jobs[first + k]) / (inner * ops_of(jobs[first + k])));
    for (int k = 0; k < KINDS; k++) print(threads, jobs[first + k], runs[k]);
    std::fflush(stdout);
  }
}

void run_callgrind(int rounds) {
  worker solo;
  for (const job& j : all_jobs()) {
    solo.run(j.kind, j.w, j.churn, 1);  // warm up
    worker::callgrind = true;
    solo.run(j.kind, j.w, j.churn, rounds);
    worker::callgrind = false;
    std::string name = std::string(workload_names[j.w]) + "|" + (j.churn ? "churn" : "fill") + "|" + kind_names[j.kind];
    CALLGRIND_DUMP_STATS_AT(name.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 31;
  if (argc > 3) only = argv[3];
  if (threads < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: %s THREADS ROUNDS\n", argv[0]);
    return 2;
  }
  if (RUNNING_ON_VALGRIND)
    run_callgrind(rounds);
  else
    run_interleaved(threads, rounds);
  return 0;
}
