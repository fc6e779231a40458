// Topic-based publish/subscribe on top of the event loop. publish() only
// queues the message; its handlers run on a later turn of the loop, in the
// order they subscribed, so a publisher never re-enters its subscribers.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "pulse/event_loop.hpp"

namespace pulse {

struct Message {
  std::string topic;
  Millis sent;
  std::any payload;
};

using Handler = std::function<void(const Message&)>;
using SubscriptionId = std::uint32_t;

class MessageBus {
 public:
  explicit MessageBus(EventLoop& loop) : loop_(loop) {}

  SubscriptionId subscribe(const std::string& topic, Handler handler);
  // Safe to call from a handler: the subscription is skipped from then on.
  void unsubscribe(SubscriptionId id);
  void publish(std::string topic, std::any payload = {});

  std::uint64_t delivered() const { return delivered_; }

 private:
  struct Subscription {
    SubscriptionId id;
    Handler handler;
  };

  void dispatch(const Message& message);

  EventLoop& loop_;
  std::unordered_map<std::string, std::vector<Subscription>> topics_;
  SubscriptionId next_id_ = 1;
  std::uint64_t delivered_ = 0;
};

}  // namespace pulse
