// One client session of the demo server: it follows some topics, answers
// pings, sends keepalives, and closes itself when it has been idle too long
// or when the server shuts down.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pulse/event_loop.hpp"
#include "pulse/message_bus.hpp"

namespace pulse {

using SessionId = std::uint32_t;

// What a session publishes on "session.closed".
struct SessionSummary {
  SessionId id;
  Millis opened;
  Millis closed;
  std::uint64_t messages;
  std::size_t topics;
  const char* reason;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  struct Options {
    Millis idle_timeout{30000};
    Millis keepalive_period{10000};
    int keepalives = 3;
    std::vector<std::string> topics;
  };

  static std::shared_ptr<Session> open(EventLoop& loop, MessageBus& bus, SessionId id, Options options);

  SessionId id() const { return id_; }
  bool closed() const { return closed_; }
  std::uint64_t messages() const { return messages_; }

  // Activity on the session: the idle timeout starts again.
  void touch();
  void close(const char* reason);

 private:
  Session(EventLoop& loop, MessageBus& bus, SessionId id, Options options);

  void start();
  void arm_idle_timer();
  void expire(std::uint64_t generation, Millis deadline);
  void on_message(const std::string& topic, const Message& message);

  EventLoop& loop_;
  MessageBus& bus_;
  SessionId id_;
  Options options_;
  bool closed_ = false;
  std::uint64_t messages_ = 0;
  // Bumped by every touch(): an idle timer armed before it is stale.
  std::uint64_t generation_ = 0;
  std::vector<SubscriptionId> subscriptions_;
  std::vector<std::function<void(const char* reason)>> close_hooks_;
};

}  // namespace pulse
