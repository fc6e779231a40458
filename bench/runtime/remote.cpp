// Frees from another thread, the event-loop pattern: one producer thread
// allocates messages and hands each through a ring to one of CONSUMERS
// threads (in turn), which frees it. Every free is a free of a block another
// thread allocated.
//
//   hl_bench_remote ALLOCATOR KIND CONSUMERS MESSAGES [SPINS]
//
// ALLOCATOR: std (std::allocator: the process's malloc, glibc or whatever
// run.sh preloads) or hl (hl::pool_allocator: the process-wide pools).
// KIND, what one message is:
//   node    a 24-byte list node (two links and a value), allocated alone
//   string  a std::basic_string of 17 to 120 characters (beyond the
//           small-string buffer: its characters are a block of their own)
//   event   a struct holding an hl::inplace_function with 40 bytes of
//           captures (an 80-byte block)
//   mixed   the three in turn
// SPINS: how many times a side that finds nothing to do polls (with a pause
// between) before it sleeps; 0 by default (see wait_for).
// Each ring holds 1,024 messages, so at most CONSUMERS * 1,024 are in
// flight: memory that keeps growing is the allocator's, not the bench's.
//
// Prints one tab-separated line: allocator, kind, consumers, messages,
// seconds, million messages per second, CPU ns per message (all threads;
// waits sleep, so this is the work, whatever else the machine runs), peak
// RSS (VmHWM), RSS after a tenth of the messages and RSS at the end (KiB):
// over a long run the last two say whether memory stays bounded.
#include <pthread.h>
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "heaplint/inplace_function.hpp"
#include "heaplint/pool_allocator.hpp"

namespace {

constexpr unsigned kRing = 1024;  // messages per ring, a power of two
constexpr unsigned kBatch = kRing / 2;

enum kind_id { NODE, STRING, EVENT, MIXED };

struct node {
  node *next, *prev;
  long value;
};

struct event {
  hl::inplace_function<long(long), 48> fn;
  long id;
};

// One message in a ring: what it is, and the object (a string lives in the
// slot; a node or an event is a pointer to its block).
struct slot {
  int kind;
  alignas(std::max_align_t) unsigned char obj[48];
};

// A side that finds nothing to do sleeps on a futex until the other side
// wakes it (after SPINS polls, 0 unless given): on 2 shared cores a waiter
// that spins or yields can keep the thread it waits for off the CPU (that
// made runs up to 7 times slower at random), and a consumer that polls the
// producer's tail takes its cache line at every poll, so that the
// producer's next store waits for it: with 64 polls the faster the
// consumer, the more it polls and the slower the whole (bench/README.md,
// "Frees from another thread: the consumer's polls"). The CPU time is then
// the work's alone.
// head and tail are stored, and the sleeping flags read, sequentially
// consistent, so that a side either sees the other asleep or is seen. Each
// side wakes the other for kBatch messages or kBatch free slots at least
// (the end wakes the consumers whatever is left), so that the futex calls
// are a few per thousand messages, not two per message.
struct alignas(64) ring {
  std::atomic<unsigned> head{0};  // written by the consumer
  std::atomic<int> producer_asleep{0};
  std::atomic<unsigned> producer_wake{0};     // the futex the producer sleeps on
  alignas(64) std::atomic<unsigned> tail{0};  // written by the producer
  std::atomic<int> consumer_asleep{0};
  std::atomic<unsigned> consumer_wake{0};
  alignas(64) slot slots[kRing];
};

std::atomic<bool> g_done{false};

void futex(std::atomic<unsigned> &word, int op, unsigned value) {
  syscall(SYS_futex, reinterpret_cast<unsigned *>(&word), op | FUTEX_PRIVATE_FLAG, value, nullptr, nullptr, 0);
}

int g_spins = 0;  // polls before a side sleeps

// Waits until ready() holds: g_spins polls, then sleeps on wake (flag says so).
template <class F>
void wait_for(F ready, std::atomic<int> &asleep, std::atomic<unsigned> &wake) {
  for (int spins = 0; spins < g_spins; spins++) {
    if (ready()) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  while (!ready()) {
    unsigned seen = wake.load(std::memory_order_seq_cst);
    asleep.store(1, std::memory_order_seq_cst);
    if (!ready()) futex(wake, FUTEX_WAIT, seen);
    asleep.store(0, std::memory_order_relaxed);
  }
}

void wake_up(std::atomic<int> &asleep, std::atomic<unsigned> &wake) {
  if (asleep.load(std::memory_order_seq_cst)) {
    wake.fetch_add(1, std::memory_order_seq_cst);
    futex(wake, FUTEX_WAKE, 1);
  }
}

long rss_kib(const char *field) {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  std::size_t n = std::strlen(field);
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, field, n) == 0) kib = std::strtol(line + n, nullptr, 10);
  std::fclose(f);
  return kib;
}

// The messages of one allocator family A (std::allocator or
// hl::pool_allocator): how the producer makes them, how a consumer frees
// them.
template <template <class> class A>
struct messages {
  using string = std::basic_string<char, std::char_traits<char>, A<char>>;
  static_assert(sizeof(string) <= sizeof(slot::obj), "a string fits a slot");

  static void make(slot &s, int kind, unsigned long i) {
    s.kind = kind;
    if (kind == NODE) {
      A<node> a;
      node *n = a.allocate(1);
      new (n) node{nullptr, nullptr, static_cast<long>(i)};
      std::memcpy(s.obj, &n, sizeof n);
    } else if (kind == STRING) {
      std::size_t len = 17 + (i * 2654435761u >> 7) % 104;
      new (s.obj) string(len, static_cast<char>('a' + i % 26));
    } else {
      A<event> a;
      event *e = a.allocate(1);
      long x = static_cast<long>(i), y = x * 3, z = x ^ 5, w = x + 7, v = x - 1;
      new (e) event{[x, y, z, w, v](long k) { return k + x + y + z + w + v; }, x};
      std::memcpy(s.obj, &e, sizeof e);
    }
  }

  static long consume(slot &s) {
    long seen;
    if (s.kind == NODE) {
      node *n;
      std::memcpy(&n, s.obj, sizeof n);
      seen = n->value;
      A<node>().deallocate(n, 1);
    } else if (s.kind == STRING) {
      string *str = std::launder(reinterpret_cast<string *>(s.obj));
      seen = static_cast<long>(str->size()) + (*str)[0];
      str->~string();
    } else {
      event *e;
      std::memcpy(&e, s.obj, sizeof e);
      seen = e->fn(e->id);
      e->~event();
      A<event>().deallocate(e, 1);
    }
    return seen;
  }
};

struct consumer_arg {
  ring *r;
  long (*consume)(slot &);
  long sink;
};

void *consumer(void *p) {
  auto *arg = static_cast<consumer_arg *>(p);
  ring &r = *arg->r;
  unsigned head = 0;
  long sink = 0;
  for (;;) {
    wait_for([&] { return r.tail.load(std::memory_order_seq_cst) != head || g_done.load(std::memory_order_seq_cst); },
             r.consumer_asleep, r.consumer_wake);
    unsigned tail = r.tail.load(std::memory_order_acquire);
    if (tail == head) {  // done, and nothing left
      arg->sink = sink;
      return nullptr;
    }
    for (; head != tail; head++) sink += arg->consume(r.slots[head % kRing]);
    r.head.store(head, std::memory_order_seq_cst);
    if (kRing - (r.tail.load(std::memory_order_relaxed) - head) >= kBatch) wake_up(r.producer_asleep, r.producer_wake);
  }
}

double cpu_seconds() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Returns the wall time; *cpu: the CPU time of all the threads.
template <template <class> class A>
double run(int kind, unsigned consumers, unsigned long count, long *rss_tenth, double *cpu) {
  std::vector<ring> rings(consumers);
  std::vector<consumer_arg> args(consumers);
  std::vector<pthread_t> threads(consumers);
  std::vector<unsigned> tails(consumers, 0);
  double cpu0 = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  for (unsigned c = 0; c < consumers; c++) {
    args[c] = {&rings[c], &messages<A>::consume, 0};
    if (pthread_create(&threads[c], nullptr, consumer, &args[c]) != 0) std::abort();
  }
  *rss_tenth = -1;
  for (unsigned long i = 0; i < count; i++) {
    unsigned c = static_cast<unsigned>(i % consumers);
    ring &r = rings[c];
    wait_for([&] { return tails[c] - r.head.load(std::memory_order_seq_cst) != kRing; }, r.producer_asleep,
             r.producer_wake);
    int k = kind == MIXED ? static_cast<int>(i % 3) : kind;
    messages<A>::make(r.slots[tails[c] % kRing], k, i);
    r.tail.store(++tails[c], std::memory_order_seq_cst);
    // A sleeping consumer is woken for a batch, not for every message.
    if (tails[c] - r.head.load(std::memory_order_relaxed) >= kBatch) wake_up(r.consumer_asleep, r.consumer_wake);
    if (i == count / 10) *rss_tenth = rss_kib("VmRSS:");
  }
  g_done.store(true, std::memory_order_seq_cst);
  for (ring &r : rings) wake_up(r.consumer_asleep, r.consumer_wake);
  long sink = 0;
  for (unsigned c = 0; c < consumers; c++) {
    pthread_join(threads[c], nullptr);
    sink += args[c].sink;
  }
  auto t1 = std::chrono::steady_clock::now();
  *cpu = cpu_seconds() - cpu0;
  if (sink == 42) std::puts("");  // keeps the consumers' reads
  return std::chrono::duration<double>(t1 - t0).count();
}

}  // namespace

int main(int argc, char **argv) {
  static const char *const kinds[] = {"node", "string", "event", "mixed"};
  int kind = -1;
  bool args = argc == 5 || argc == 6;
  for (int k = 0; args && k < 4; k++)
    if (std::strcmp(argv[2], kinds[k]) == 0) kind = k;
  bool hl = args && std::strcmp(argv[1], "hl") == 0;
  long consumers = args ? std::strtol(argv[3], nullptr, 10) : 0;
  double count = args ? std::strtod(argv[4], nullptr) : 0;
  long spins = argc == 6 ? std::strtol(argv[5], nullptr, 10) : 0;
  if (kind < 0 || (!hl && std::strcmp(argv[1], "std") != 0) || consumers < 1 || consumers > 64 || count < 1 ||
      spins < 0 || spins > 1000000) {
    std::fprintf(stderr, "usage: hl_bench_remote std|hl node|string|event|mixed CONSUMERS MESSAGES [SPINS]\n");
    return 2;
  }
  g_spins = static_cast<int>(spins);
  unsigned long n = static_cast<unsigned long>(count);
  long tenth;
  double cpu;
  double s = hl ? run<hl::pool_allocator>(kind, static_cast<unsigned>(consumers), n, &tenth, &cpu)
                : run<std::allocator>(kind, static_cast<unsigned>(consumers), n, &tenth, &cpu);
  std::printf("%s\t%s\t%ld\t%lu\t%.3f\t%.2f\t%.1f\t%ld\t%ld\t%ld\n", hl ? "hl" : "std", kinds[kind], consumers, n, s,
              n / s / 1e6, cpu / n * 1e9, rss_kib("VmHWM:"), tenth, rss_kib("VmRSS:"));
  return 0;
}
