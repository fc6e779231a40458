// Periodic liveness messages: the server announces itself, and each session
// sends keepalives, with the same helper.
#pragma once

#include "pulse/event_loop.hpp"
#include "pulse/message_bus.hpp"

namespace pulse {

// Publishes topic every period, count times; the payload counts down to 1.
inline void start_heartbeat(EventLoop& loop, MessageBus& bus, const char* topic, Millis period, int count) {
  if (count <= 0) return;
  loop.call_after(period, [&loop, &bus, topic, period, count] {
    bus.publish(topic, count);
    start_heartbeat(loop, bus, topic, period, count - 1);
  });
}

}  // namespace pulse
