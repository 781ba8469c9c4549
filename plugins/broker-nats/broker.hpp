// broker-nats — the platform_broker_provider_t over core NATS subjects (cnats).
//
// A topic is one NATS subject: `<subject_prefix>.t.<topic>` when the topic is dot-separated
// tokens of [A-Za-z0-9_-] (readable by other NATS clients), else `<subject_prefix>.x.<hex(topic)>`,
// so no topic is a wildcard or matches another. A queue group is a NATS queue group: the server
// gives each message to one member across every process subscribed with that group. Headers travel
// as the NATS header `Platform-Headers`. Fire-and-forget: core NATS stores nothing.
//
// Delivery: the connection uses cnats' global delivery thread (one), so messages reach this
// process's callbacks in the order the server sent them, one at a time. Each subscription has a
// mutex held while its callback runs and an `active` flag checked under it, so when unsubscribe
// returns the callback is not running and never runs again; a callback may unsubscribe itself.
// The cnats closure owns a reference to the subscription and is released by cnats' on-complete
// callback, after which cnats never touches it; the destructor waits for every one of them.
#pragma once

#include <nats/nats.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <platform/sdk/host.hpp>
#include <string>
#include <string_view>
#include <unordered_map>

namespace broker_nats {

struct Subscription {
    uint64_t id = 0;
    std::string topic, queue;
    platform_message_fn fn = nullptr;
    void* user = nullptr;
    natsSubscription* sub = nullptr;
    std::mutex running;  // held while fn runs
    bool active = true;  // guarded by `running`
};
using SubscriptionPtr = std::shared_ptr<Subscription>;

class NatsBroker {
public:
    // config: {"url": "nats://host:port" (else $PLATFORM_NATS_URL, else nats://127.0.0.1:4222),
    //          "subject_prefix": "platform.broker", "timeout_ms": 5000}. Throws naming the URL
    // when it cannot connect.
    NatsBroker(const platform::Host& host, const platform::json& config);
    ~NatsBroker();  // unsubscribes everything, closes the connection
    NatsBroker(const NatsBroker&) = delete;
    NatsBroker& operator=(const NatsBroker&) = delete;

    void publish(std::string_view topic, std::string_view body, std::string_view headers);
    uint64_t subscribe(std::string_view topic, std::string_view queue, platform_message_fn fn,
                       void* user);
    bool unsubscribe(uint64_t id);  // false when there is no such subscription

    std::string subject_of(std::string_view topic) const;

private:
    static void on_message(natsConnection*, natsSubscription*, natsMsg* msg, void* closure);
    static void on_complete(void* closure);
    void close_subscription(const SubscriptionPtr& s);

    platform::Host host_;
    std::string url_, subject_prefix_;
    int64_t timeout_ms_ = 5000;
    natsConnection* nc_ = nullptr;

    std::mutex mutex_;  // guards subs_ and closures_
    std::condition_variable released_;
    std::unordered_map<uint64_t, SubscriptionPtr> subs_;
    size_t closures_ = 0;  // cnats closures not yet released by on_complete
    std::atomic<uint64_t> next_id_{1};
};

}  // namespace broker_nats
