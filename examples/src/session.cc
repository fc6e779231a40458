#include "pulse/session.hpp"

#include <any>
#include <utility>

#include "pulse/heartbeat.hpp"

namespace pulse {

std::shared_ptr<Session> Session::open(EventLoop& loop, MessageBus& bus, SessionId id, Options options) {
  std::shared_ptr<Session> session(new Session(loop, bus, id, std::move(options)));
  session->start();
  return session;
}

Session::Session(EventLoop& loop, MessageBus& bus, SessionId id, Options options)
    : loop_(loop), bus_(bus), id_(id), options_(std::move(options)) {}

void Session::start() {
  // The bus keeps the session alive until it is told to shut down.
  subscriptions_.push_back(bus_.subscribe("shutdown", [self = shared_from_this()](const Message& m) {
    self->close(std::any_cast<const char*>(m.payload));
  }));
  subscriptions_.push_back(bus_.subscribe("ping", [this](const Message& m) {
    if (std::any_cast<SessionId>(m.payload) == id_) touch();
  }));
  for (const std::string& topic : options_.topics)
    subscriptions_.push_back(bus_.subscribe(topic, [this, topic](const Message& m) { on_message(topic, m); }));

  close_hooks_.emplace_back([this, opened = loop_.now(), topics = options_.topics.size()](const char* reason) {
    bus_.publish("session.closed", SessionSummary{id_, opened, loop_.now(), messages_, topics, reason});
  });

  start_heartbeat(loop_, bus_, "session.keepalive", options_.keepalive_period, options_.keepalives);
  arm_idle_timer();
}

void Session::arm_idle_timer() {
  const Millis deadline = loop_.now() + options_.idle_timeout;
  loop_.call_after(options_.idle_timeout, [this, generation = generation_, deadline] { expire(generation, deadline); });
}

void Session::touch() {
  if (closed_) return;
  ++generation_;
  arm_idle_timer();
}

void Session::expire(std::uint64_t generation, Millis deadline) {
  // A touch since this timer was armed has armed a later one.
  if (closed_ || generation != generation_ || loop_.now() < deadline) return;
  close("idle timeout");
}

void Session::on_message(const std::string& topic, const Message& message) {
  if (message.topic != topic) return;
  ++messages_;
  touch();
}

void Session::close(const char* reason) {
  if (closed_) return;
  closed_ = true;
  for (SubscriptionId s : subscriptions_) bus_.unsubscribe(s);
  subscriptions_.clear();
  std::vector<std::function<void(const char*)>> hooks = std::move(close_hooks_);
  for (auto& hook : hooks) hook(reason);
}

}  // namespace pulse
