// Frees from another thread, the event-loop pattern: one producer thread
// allocates messages (a struct holding a string beyond the small-string
// buffer, a list of nodes and an hl::inplace_function, all from
// hl::pool_allocator) and hands them through bounded queues to one or three
// consumer threads, which check and free them: every block is freed by a
// thread that did not allocate it. Checks that every message arrives intact,
// that the statistics balance, and that memory stays bounded: with at most
// kQueue messages in flight per consumer, the blocks the allocator holds
// after a quarter of the run are all it needs for the rest (a remote-free
// list that the owner never took back would grow with every message).
// With consumers that allocate too (a node of their own per message), a
// consumer's node stack takes the producer's list nodes it frees, and gives
// them back to the producer's heap when it exits. Built once more under
// ThreadSanitizer (runtime.remote.tsan), which checks the hand-over of the
// blocks between the threads.
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "check.hpp"
#include "heaplint/containers.hpp"
#include "heaplint/inplace_function.hpp"

namespace {

constexpr std::size_t kQueue = 256;

struct message {
  long id;
  hl::string text;
  hl::list<long> items;
  hl::inplace_function<long(long), 32> fn;
};

std::size_t text_length(long id) { return 17 + static_cast<std::size_t>(id * 2654435761u >> 9) % 100; }
long expected(long id, long k) { return k * 3 + id; }

message *make(long id) {
  hl::pool_allocator<message> a;
  message *m = a.allocate(1);
  long three = 3;
  new (m) message{id, hl::string(text_length(id), static_cast<char>('a' + id % 26)), hl::list<long>(),
                  [id, three](long k) { return k * three + id; }};
  for (long i = 0; i < 1 + id % 3; i++) m->items.push_back(id + i);
  return m;
}

// A consumer's queue: bounded, so that at most kQueue messages are in flight.
struct queue {
  std::mutex lock;
  std::condition_variable changed;
  std::deque<message *> items;  // std::allocator's: not the allocator under test
  bool closed = false;
};

bool intact(const message &m) {
  bool ok = m.text.size() == text_length(m.id) && m.fn(5) == expected(m.id, 5);
  for (char c : m.text) ok = ok && c == static_cast<char>('a' + m.id % 26);
  long want = m.id;
  for (long v : m.items) ok = ok && v == want++;
  return ok && m.items.size() == static_cast<std::size_t>(1 + m.id % 3);
}

void consume(queue &q, long *received, long *broken, bool allocates) {
  std::unique_lock<std::mutex> hold(q.lock);
  for (;;) {
    q.changed.wait(hold, [&] { return q.closed || !q.items.empty(); });
    if (q.items.empty()) return;
    message *m = q.items.front();
    q.items.pop_front();
    q.changed.notify_all();
    hold.unlock();
    if (!intact(*m)) ++*broken;
    if (allocates) {
      // A node of the consumer's own, of the class of the message's list
      // nodes: the consumer allocates from its bin, so its stack of that
      // class takes frees, the producer's nodes below among them.
      hl::list<long> own;
      own.push_back(m->id);
      if (own.front() != m->id) ++*broken;
    }
    m->~message();
    hl::pool_allocator<message>().deallocate(m, 1);
    ++*received;
    hold.lock();
  }
}

std::size_t blocks_held() {
  hl_pool_stats st;
  hl_totals(&st);
  return st.capacity;
}

// One producer, n consumers, count messages; returns the blocks held after a
// quarter of them, and after all, through quarter and end.
void run(unsigned n, long count, bool allocates, std::size_t *quarter, std::size_t *end) {
  std::vector<queue> queues(n);
  std::vector<long> received(n, 0), broken(n, 0);
  std::vector<std::thread> consumers;
  for (unsigned c = 0; c < n; c++) consumers.emplace_back(consume, std::ref(queues[c]), &received[c], &broken[c], allocates);
  std::thread producer([&] {
    for (long id = 0; id < count; id++) {
      message *m = make(id);
      queue &q = queues[static_cast<std::size_t>(id) % n];
      std::unique_lock<std::mutex> hold(q.lock);
      q.changed.wait(hold, [&] { return q.items.size() < kQueue; });
      q.items.push_back(m);
      q.changed.notify_all();
      hold.unlock();
      if (id == count / 4) *quarter = blocks_held();
    }
    for (queue &q : queues) {
      std::lock_guard<std::mutex> hold(q.lock);
      q.closed = true;
      q.changed.notify_all();
    }
  });
  producer.join();
  for (std::thread &t : consumers) t.join();
  *end = blocks_held();
  long total = 0;
  for (unsigned c = 0; c < n; c++) {
    total += received[c];
    CHECK(broken[c] == 0);
  }
  CHECK(total == count);
}

void check_bounded(unsigned n, long count, bool allocates = false) {
  hl_pool_stats before, after;
  hl_totals(&before);
  std::size_t quarter = 0, end = 0;
  run(n, count, allocates, &quarter, &end);
  hl_totals(&after);
  std::printf("1:%u, %ld messages%s: %zu blocks held after a quarter, %zu at the end\n", n, count,
              allocates ? " (consumers allocate)" : "", quarter, end);
  // The queues' worth, and one chunk per class for the producer's bins and
  // the chunks each class carves from: far below what 3/4 of the messages
  // took (about 6 blocks each).
  CHECK(end <= 2 * quarter);
  CHECK(static_cast<long>(end) < count * 6 / 4);
  CHECK(after.in_use == before.in_use);
  CHECK(after.frees - before.frees == after.allocations - before.allocations);
  CHECK(after.failures == before.failures);
}

}  // namespace

// The lean node path (HEAPLINT_RUNTIME_NODE_LEAN) lets each thread's bins
// keep up to HL_TCACHE_LEAN_BYTES per class of what it freed, the
// consumers' included, which in 60,000 messages is more than the messages'
// own blocks: four times as many make the checks about growth again.
constexpr long kMessages = HL_TCACHE_LEAN ? 240000 : 60000;

int main() {
  check_bounded(1, kMessages);
  check_bounded(3, kMessages);
  check_bounded(3, kMessages, true);
  return hl_test::failures();
}
