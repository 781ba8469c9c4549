// broker-memory — the subscription table: subscribe, unsubscribe, and who gets a message.
#include <algorithm>
#include <platform/sdk/error.hpp>

#include "broker.hpp"

namespace broker_memory {

namespace {

// The subscription whose callback this thread is running, if any (see unsubscribe).
thread_local const Subscription* tl_running = nullptr;

void erase_from(std::vector<SubscriptionPtr>& v, const Subscription* s) {
    v.erase(
        std::remove_if(v.begin(), v.end(), [&](const SubscriptionPtr& p) { return p.get() == s; }),
        v.end());
}

}  // namespace

uint64_t MemoryBroker::subscribe(std::string_view topic, std::string_view queue,
                                 platform_message_fn fn, void* user) {
    if (topic.empty()) throw platform::invalid_argument("topic: must not be empty");
    if (!fn) throw platform::invalid_argument("fn: must not be NULL");
    auto s = std::make_shared<Subscription>();
    s->id = next_id_.fetch_add(1);
    s->topic = topic;
    s->queue = queue;
    s->fn = fn;
    s->user = user;
    std::lock_guard<std::mutex> lock(mutex_);
    Topic& t = topics_[s->topic];
    if (s->queue.empty())
        t.plain.push_back(s);
    else
        t.groups[s->queue].members.push_back(s);
    subs_.emplace(s->id, s);
    return s->id;
}

bool MemoryBroker::unsubscribe(uint64_t id) {
    SubscriptionPtr s;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = subs_.find(id);
        if (it == subs_.end()) return false;
        s = std::move(it->second);
        subs_.erase(it);
        auto t = topics_.find(s->topic);
        if (t != topics_.end()) {
            if (s->queue.empty()) {
                erase_from(t->second.plain, s.get());
            } else if (auto g = t->second.groups.find(s->queue); g != t->second.groups.end()) {
                erase_from(g->second.members, s.get());
                if (g->second.members.empty()) t->second.groups.erase(g);
            }
            if (t->second.plain.empty() && t->second.groups.empty()) topics_.erase(t);
        }
    }
    if (tl_running == s.get()) {
        s->active = false;  // called from its own callback: this thread already holds `running`
    } else {
        std::lock_guard<std::mutex> wait_for_callback(s->running);
        s->active = false;
    }
    return true;
}

bool MemoryBroker::has_subscribers(const std::string& topic) {
    std::lock_guard<std::mutex> lock(mutex_);
    return topics_.count(topic) != 0;
}

std::vector<SubscriptionPtr> MemoryBroker::plain_of(const std::string& topic,
                                                    std::vector<std::string>& groups) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto t = topics_.find(topic);
    if (t == topics_.end()) return {};
    for (const auto& g : t->second.groups) groups.push_back(g.first);
    return t->second.plain;
}

SubscriptionPtr MemoryBroker::pick(const std::string& topic, const std::string& group) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto t = topics_.find(topic);
    if (t == topics_.end()) return nullptr;
    auto g = t->second.groups.find(group);
    if (g == t->second.groups.end() || g->second.members.empty()) return nullptr;
    Group& grp = g->second;
    return grp.members[grp.next++ % grp.members.size()];
}

bool MemoryBroker::invoke(Subscription& s, const Message& m) {
    std::lock_guard<std::mutex> lock(s.running);
    if (!s.active) return false;
    tl_running = &s;
    try {
        s.fn(s.user, platform::view(m.topic), platform::view(m.body), platform::view(m.headers));
    } catch (...) {
        host_.error("broker-memory: a subscriber callback threw on topic '" + m.topic + "'");
    }
    tl_running = nullptr;
    return true;
}

}  // namespace broker_memory
