// pulse-demo: a server with three sessions, run on the loop's virtual clock.
// Session 1 is pinged and stays, session 2 goes idle and times out, session 3
// follows "news" and "alerts"; a maintenance shutdown closes what is left.
#include <any>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pulse/event_loop.hpp"
#include "pulse/heartbeat.hpp"
#include "pulse/message_bus.hpp"
#include "pulse/session.hpp"

namespace {

long long ms(pulse::Millis t) { return static_cast<long long>(t.count()); }

void log_closed(const pulse::Message& m) {
  const auto& s = std::any_cast<const pulse::SessionSummary&>(m.payload);
  std::printf("%6lld ms  session %u closed (%s): open %lld ms, %llu messages on %zu topics\n", ms(s.closed), s.id,
              s.reason, ms(s.closed - s.opened), static_cast<unsigned long long>(s.messages), s.topics);
}

// Counts the traffic by kind. Subscribed by reference, it stays one object
// however many topics it follows.
struct TrafficCounter {
  std::uint64_t heartbeats = 0;
  std::uint64_t keepalives = 0;
  std::uint64_t pings = 0;

  void operator()(const pulse::Message& m) {
    if (m.topic == "server.heartbeat")
      ++heartbeats;
    else if (m.topic == "session.keepalive")
      ++keepalives;
    else if (m.topic == "ping")
      ++pings;
  }
};

// How many distinct topics the sessions follow, for the closing report.
std::size_t distinct_topics(const std::vector<pulse::Session::Options>& options) {
  std::set<std::string> topics;
  for (const auto& o : options)
    for (const auto& topic : o.topics) topics.insert(topic);
  return topics.size();
}

class Server {
 public:
  Server(pulse::EventLoop& loop, pulse::MessageBus& bus) : loop_(loop), bus_(bus) {}

  void open(pulse::Session::Options options) {
    sessions_.push_back(pulse::Session::open(loop_, bus_, next_id_++, std::move(options)));
  }

  void shutdown(const char* why) {
    std::printf("%6lld ms  shutdown: %s\n", ms(loop_.now()), why);
    bus_.publish("shutdown", why);
    // One more second for the sessions to say goodbye.
    loop_.call_after(pulse::Millis(1000), [this] { loop_.stop(); });
  }

  std::size_t sessions() const { return sessions_.size(); }

 private:
  pulse::EventLoop& loop_;
  pulse::MessageBus& bus_;
  pulse::SessionId next_id_ = 1;
  std::vector<std::shared_ptr<pulse::Session>> sessions_;
};

}  // namespace

int main() {
  using pulse::Millis;
  pulse::EventLoop loop;
  pulse::MessageBus bus(loop);

  TrafficCounter traffic;
  for (const char* topic : {"server.heartbeat", "session.keepalive", "ping"}) bus.subscribe(topic, std::ref(traffic));
  bus.subscribe("session.closed", &log_closed);

  Server server(loop, bus);
  const std::vector<pulse::Session::Options> options = {{Millis(30000), Millis(10000), 3, {"alerts"}},
                                                        {Millis(15000), Millis(10000), 1, {}},
                                                        {Millis(30000), Millis(20000), 2, {"news", "alerts"}}};
  for (const auto& o : options) server.open(o);

  pulse::start_heartbeat(loop, bus, "server.heartbeat", Millis(25000), 3);

  // Client traffic: pings for sessions 1 and 3 in turn, some news and alerts.
  for (int i = 1; i <= 10; ++i)
    loop.call_after(Millis(8000 * i), [&bus, session = pulse::SessionId(i % 2 ? 1 : 3)] { bus.publish("ping", session); });
  loop.call_after(Millis(12000), [&bus] { bus.publish("news", "release 1.2 is out"); });
  loop.call_after(Millis(47000), [&bus] { bus.publish("alerts", "disk 91% full"); });

  loop.call_after(Millis(90000), std::bind(&Server::shutdown, &server, "maintenance window"));
  loop.run();

  const pulse::EventLoop::Stats& stats = loop.stats();
  std::printf("pulse-demo: %zu sessions; %llu tasks run, %llu of them timers; %llu messages delivered "
              "(%llu heartbeats, %llu keepalives, %llu pings)\n",
              server.sessions(), static_cast<unsigned long long>(stats.tasks),
              static_cast<unsigned long long>(stats.timers), static_cast<unsigned long long>(bus.delivered()),
              static_cast<unsigned long long>(traffic.heartbeats), static_cast<unsigned long long>(traffic.keepalives),
              static_cast<unsigned long long>(traffic.pings));

  // The closing report's last figures, one line each, stamped with the end
  // of the run.
  const char* const name = "pulse-demo";
  const long long end = ms(loop.now());
  std::function<void(const char*, std::size_t)> report = [name, end, &server](const char* what, std::size_t n) {
    std::printf("%6lld ms  %s: %zu %s (of %zu sessions)\n", end, name, n, what, server.sessions());
  };
  report("distinct topics followed", distinct_topics(options));
  return 0;
}
