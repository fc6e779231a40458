#include "pulse/event_loop.hpp"

#include <utility>

namespace pulse {

void EventLoop::post(Task task) { ready_.push_back(std::move(task)); }

TimerId EventLoop::call_after(Millis delay, Task task) { return timers_.schedule(now_ + delay, std::move(task)); }

void EventLoop::cancel(TimerId id) { timers_.cancel(id); }

void EventLoop::at_exit(Task hook) { exit_hooks_.push_back(std::move(hook)); }

void EventLoop::run() {
  stopping_ = false;
  std::vector<Task> batch;
  while (!stopping_) {
    if (ready_.empty()) {
      Millis next;
      if (!timers_.next_deadline(&next)) break;
      if (next > now_) now_ = next;
      const std::size_t before = ready_.size();
      timers_.expire(now_, ready_);
      stats_.timers += ready_.size() - before;
    }
    // Tasks posted while this batch runs wait for the next turn.
    batch.clear();
    batch.swap(ready_);
    for (Task& task : batch) {
      if (stopping_) break;
      task();
      ++stats_.tasks;
    }
  }
  ready_.clear();
  std::vector<Task> hooks;
  hooks.swap(exit_hooks_);
  for (Task& hook : hooks) hook();
}

}  // namespace pulse
