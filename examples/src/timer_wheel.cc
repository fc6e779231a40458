#include "pulse/timer_wheel.hpp"

#include <algorithm>
#include <utility>

namespace pulse {

TimerWheel::TimerWheel(Millis tick, std::size_t slots) : tick_(tick), slots_(slots) {}

std::size_t TimerWheel::slot_of(std::int64_t tick) const { return static_cast<std::size_t>(tick) % slots_.size(); }

TimerId TimerWheel::schedule(Millis deadline, Task task) {
  TimerId id = next_id_++;
  slots_[slot_of(deadline / tick_)].push_back(Timer{id, deadline, std::move(task)});
  ++size_;
  return id;
}

bool TimerWheel::cancel(TimerId id) {
  for (std::vector<Timer>& slot : slots_) {
    auto it = std::find_if(slot.begin(), slot.end(), [id](const Timer& t) { return t.id == id; });
    if (it != slot.end()) {
      slot.erase(it);
      --size_;
      return true;
    }
  }
  return false;
}

bool TimerWheel::next_deadline(Millis* out) const {
  bool any = false;
  for (const std::vector<Timer>& slot : slots_)
    for (const Timer& t : slot)
      if (!any || t.deadline < *out) {
        *out = t.deadline;
        any = true;
      }
  return any;
}

void TimerWheel::expire(Millis now, std::vector<Task>& out) {
  const std::int64_t now_tick = now / tick_;
  // Deadlines are never before the last expiry, so the slots from its tick on
  // hold every due timer; a jump of a full turn or more visits each slot once.
  const std::int64_t turn = static_cast<std::int64_t>(slots_.size());
  const std::int64_t first = std::max(last_tick_, now_tick - turn + 1);
  std::vector<Timer> due;
  for (std::int64_t tick = first; tick <= now_tick; ++tick) {
    std::vector<Timer>& slot = slots_[slot_of(tick)];
    std::size_t kept = 0;
    for (std::size_t i = 0; i < slot.size(); ++i) {
      if (slot[i].deadline <= now)
        due.push_back(std::move(slot[i]));
      else if (kept++ != i)
        slot[kept - 1] = std::move(slot[i]);
    }
    slot.erase(slot.begin() + static_cast<std::ptrdiff_t>(kept), slot.end());
  }
  last_tick_ = now_tick;
  std::sort(due.begin(), due.end(), [](const Timer& a, const Timer& b) {
    return a.deadline != b.deadline ? a.deadline < b.deadline : a.id < b.id;
  });
  size_ -= due.size();
  for (Timer& t : due) out.push_back(std::move(t.task));
}

}  // namespace pulse
