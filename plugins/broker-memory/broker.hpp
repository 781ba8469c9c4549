// broker-memory — the platform_broker_provider_t in process memory.
//
// Topics are matched exactly (no wildcards). publish copies the message into a bounded queue and
// returns; one dispatcher thread delivers queued messages in publish order, to every plain
// subscriber of the topic and to one member of each queue group (round-robin). Subscribers are
// resolved when a message is dispatched. Fire-and-forget: nothing is persisted, and messages still
// queued when the broker is destroyed are dropped.
//
// Unsubscribe: each subscription has a mutex held while its callback runs and an `active` flag
// checked under it, so when unsubscribe returns the callback is not running and never runs again.
// A callback may unsubscribe itself (or another subscription) without deadlock.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <platform/sdk/host.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace broker_memory {

struct Subscription {
    uint64_t id = 0;
    std::string topic, queue;
    platform_message_fn fn = nullptr;
    void* user = nullptr;
    std::mutex running;  // held while fn runs
    bool active = true;  // guarded by `running`
};
using SubscriptionPtr = std::shared_ptr<Subscription>;

struct Message {
    std::string topic, body, headers;
};

class MemoryBroker {
public:
    // config: {"max_pending": <messages queued for delivery before publish fails, default 65536>}
    MemoryBroker(const platform::Host& host, const platform::json& config);
    ~MemoryBroker();  // stops and joins the dispatcher
    MemoryBroker(const MemoryBroker&) = delete;
    MemoryBroker& operator=(const MemoryBroker&) = delete;

    void publish(std::string_view topic, std::string_view body, std::string_view headers);
    uint64_t subscribe(std::string_view topic, std::string_view queue, platform_message_fn fn,
                       void* user);
    bool unsubscribe(uint64_t id);  // false when there is no such subscription

private:
    struct Group {
        std::vector<SubscriptionPtr> members;
        size_t next = 0;
    };
    struct Topic {
        std::vector<SubscriptionPtr> plain;
        std::map<std::string, Group> groups;
    };

    // routing.cpp
    bool has_subscribers(const std::string& topic);
    std::vector<SubscriptionPtr> plain_of(const std::string& topic,
                                          std::vector<std::string>& groups);
    SubscriptionPtr pick(const std::string& topic, const std::string& group);
    // dispatch.cpp
    void run();
    void deliver(const Message& m);
    bool invoke(Subscription& s, const Message& m);

    platform::Host host_;
    size_t max_pending_;

    std::mutex mutex_;  // guards topics_ and subs_
    std::unordered_map<std::string, Topic> topics_;
    std::unordered_map<uint64_t, SubscriptionPtr> subs_;
    std::atomic<uint64_t> next_id_{1};

    std::mutex queue_mutex_;  // guards queue_ and stopping_
    std::condition_variable queue_cv_;
    std::deque<Message> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace broker_memory
