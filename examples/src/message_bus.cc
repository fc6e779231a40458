#include "pulse/message_bus.hpp"

#include <algorithm>
#include <utility>

namespace pulse {

SubscriptionId MessageBus::subscribe(const std::string& topic, Handler handler) {
  SubscriptionId id = next_id_++;
  topics_[topic].push_back(Subscription{id, std::move(handler)});
  return id;
}

void MessageBus::unsubscribe(SubscriptionId id) {
  // Only marked here: the handler may be the one running right now. The
  // next dispatch on its topic erases it.
  for (auto& entry : topics_)
    for (Subscription& s : entry.second)
      if (s.id == id) {
        s.id = 0;
        return;
      }
}

void MessageBus::publish(std::string topic, std::any payload) {
  Message message{std::move(topic), loop_.now(), std::move(payload)};
  loop_.post([this, message = std::move(message)] { dispatch(message); });
}

void MessageBus::dispatch(const Message& message) {
  auto it = topics_.find(message.topic);
  if (it == topics_.end()) return;
  std::vector<Subscription>& subs = it->second;
  subs.erase(std::remove_if(subs.begin(), subs.end(), [](const Subscription& s) { return s.id == 0; }), subs.end());
  // Handlers may unsubscribe (which only marks) but must not subscribe to
  // the topic being dispatched: the vector could move the running handler.
  for (std::size_t i = 0, n = subs.size(); i < n; ++i) {
    if (subs[i].id == 0) continue;
    subs[i].handler(message);
    ++delivered_;
  }
}

}  // namespace pulse
