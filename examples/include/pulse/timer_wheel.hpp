// A hashed timing wheel: each timer hashes into a slot by the tick of its
// deadline, so advancing the clock looks only at the slots the clock passed
// over instead of at every pending timer.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace pulse {

// Time on the loop's clock, counted from the moment the loop was made.
using Millis = std::chrono::milliseconds;
using Task = std::function<void()>;
using TimerId = std::uint32_t;

class TimerWheel {
 public:
  explicit TimerWheel(Millis tick = Millis(10), std::size_t slots = 64);

  TimerId schedule(Millis deadline, Task task);
  bool cancel(TimerId id);

  // The earliest deadline of a pending timer; false when there is none.
  bool next_deadline(Millis* out) const;

  // Appends the tasks of the timers due at or before now to out, earliest
  // deadline first (ties in the order they were scheduled).
  void expire(Millis now, std::vector<Task>& out);

  std::size_t size() const { return size_; }

 private:
  struct Timer {
    TimerId id;
    Millis deadline;
    Task task;
  };

  std::size_t slot_of(std::int64_t tick) const;

  Millis tick_;
  std::vector<std::vector<Timer>> slots_;
  std::int64_t last_tick_ = 0;
  std::size_t size_ = 0;
  TimerId next_id_ = 1;
};

}  // namespace pulse
