// A single-threaded event loop: tasks for the next turn, timers, and hooks
// that run when the loop stops. Its clock is virtual: when there is nothing
// to run it jumps to the next timer's deadline, so a run that covers minutes
// of timeouts takes microseconds and always does the same thing.
#pragma once

#include <cstdint>
#include <vector>

#include "pulse/timer_wheel.hpp"

namespace pulse {

class EventLoop {
 public:
  EventLoop() = default;
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Runs task on the loop's next turn.
  void post(Task task);
  // Runs task once the clock has reached now() + delay.
  TimerId call_after(Millis delay, Task task);
  void cancel(TimerId id);
  // Runs hook when run() returns; hooks run in the order they were added.
  void at_exit(Task hook);

  Millis now() const { return now_; }

  // Runs until there is nothing left to do, or until stop() is called (then
  // what is still pending is dropped).
  void run();
  void stop() { stopping_ = true; }

  struct Stats {
    std::uint64_t tasks = 0;
    std::uint64_t timers = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  Millis now_{0};
  bool stopping_ = false;
  std::vector<Task> ready_;
  std::vector<Task> exit_hooks_;
  TimerWheel timers_;
  Stats stats_;
};

}  // namespace pulse
