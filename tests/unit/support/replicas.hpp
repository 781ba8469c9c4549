// replicas.hpp — several instances of one plugin on one FakeHost, as replicas sharing a store:
// they see the same store tables, grants and clock, each may get its own node id
// (config platform.node) and plugin config, and a broker joins them.
//
//   plugin_test::Replicas replicas(host);
//   FakePlugin& a = replicas.load(platform_plugin_entry, config, "node-a");
//   FakePlugin& b = replicas.load(platform_plugin_entry, config, "node-b");
//   // a publishing on the broker reaches b's subscriptions (and a's own)
//
// The host table the instances get is the FakeHost's with three changes: broker_publish delivers
// to every subscription of the topic before it returns (on the publisher's thread, as a host
// thread would), broker_subscribe/unsubscribe keep those subscriptions (no message is delivered
// after unsubscribe returns), and log lines go to a list guarded by a mutex, so instances may
// start from two threads at once. `broker_up = false` makes publish and subscribe answer
// UNAVAILABLE (a profile without a broker). Header-only; one Replicas per test at a time.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "entry_args.hpp"
#include "plugin_under_test.hpp"

namespace plugin_test {

class Replicas {
public:
    explicit Replicas(FakeHost& host) : host_(host), api_(*host.api()) {
        current() = this;
        api_.log = [](platform_host_ctx_t*, platform_log_level_t, platform_str_t m) {
            std::lock_guard<std::mutex> g(current()->log_m_);
            current()->logs_.push_back(platform::copy(m));
        };
        api_.broker_publish = [](platform_host_ctx_t*, platform_str_t topic, platform_str_t body,
                                 platform_str_t headers) -> platform_status_t {
            Replicas* self = current();
            if (!self->broker_up) return PLATFORM_UNAVAILABLE;
            ++self->published;
            std::shared_lock<std::shared_mutex> g(self->subs_m_);  // unsubscribe waits for it
            for (auto& [id, s] : self->subs_)
                if (s.topic == platform::view(topic)) s.fn(s.user, topic, body, headers);
            return PLATFORM_OK;
        };
        api_.broker_subscribe = [](platform_host_ctx_t*, platform_str_t topic, platform_str_t,
                                   platform_message_fn fn, void* user,
                                   uint64_t* out) -> platform_status_t {
            Replicas* self = current();
            if (!self->broker_up) return PLATFORM_UNAVAILABLE;
            std::unique_lock<std::shared_mutex> g(self->subs_m_);
            *out = ++self->next_sub_;
            self->subs_[*out] = {platform::copy(topic), fn, user};
            return PLATFORM_OK;
        };
        api_.broker_unsubscribe = [](platform_host_ctx_t*, uint64_t id) -> platform_status_t {
            Replicas* self = current();
            std::unique_lock<std::shared_mutex> g(self->subs_m_);
            return self->subs_.erase(id) ? PLATFORM_OK : PLATFORM_NOT_FOUND;
        };
    }
    ~Replicas() {
        stop_all();
        current() = nullptr;
    }
    Replicas(const Replicas&) = delete;
    Replicas& operator=(const Replicas&) = delete;

    // Creates and starts an instance with `config` and node id `node` (none when empty); throws
    // std::runtime_error when on_create or on_start fails. The instance lives until stop() or
    // the end of the Replicas. create() and adopt() may run on several threads at once.
    FakePlugin& load(platform_plugin_entry_fn entry, const json& config, const std::string& node) {
        void* inst = create(entry, config, node);
        if (desc_->on_start && desc_->on_start(inst) != PLATFORM_OK) {
            if (desc_->on_destroy) desc_->on_destroy(inst);
            throw std::runtime_error("on_start failed");
        }
        return adopt(inst);
    }
    // on_create only (the node id is read there); start() and adopt() follow.
    void* create(platform_plugin_entry_fn entry, const json& config, const std::string& node) {
        char err[512] = {0};
        platform_entry_args_t args = entry_args(&api_, err);
        std::lock_guard<std::mutex> g(create_m_);
        desc_ = entry(&args);
        if (!desc_) throw std::runtime_error(std::string("entry refused: ") + err);
        if (node.empty())
            host_.platform_facts.erase("node");
        else
            host_.platform_facts["node"] = node;
        host_.config = config;
        const std::string cfg = config.dump();
        void* inst = desc_->on_create(&api_, host_.ctx(), platform::view(cfg), err, sizeof err);
        if (!inst) throw std::runtime_error(std::string("on_create failed: ") + err);
        return inst;
    }
    FakePlugin& adopt(void* inst) {
        std::lock_guard<std::mutex> g(create_m_);
        instances_.push_back(std::make_unique<FakePlugin>(&host_, desc_, inst));
        return *instances_.back();
    }
    // Stops and destroys one instance (as a clean shutdown does).
    void stop(FakePlugin& p) {
        for (auto it = instances_.begin(); it != instances_.end(); ++it)
            if (it->get() == &p) {
                instances_.erase(it);
                return;
            }
    }
    void stop_all() {
        while (!instances_.empty()) instances_.pop_back();
    }

    const platform_host_api_t* api() const { return &api_; }
    const platform_plugin_desc_t* descriptor() const { return desc_; }
    std::vector<std::string> logs() {
        std::lock_guard<std::mutex> g(log_m_);
        return logs_;
    }

    std::atomic<bool> broker_up{true};
    std::atomic<int> published{0};

private:
    struct Subscription {
        std::string topic;
        platform_message_fn fn;
        void* user;
    };
    static Replicas*& current() {
        static Replicas* r = nullptr;
        return r;
    }

    FakeHost& host_;
    platform_host_api_t api_;
    const platform_plugin_desc_t* desc_ = nullptr;
    std::mutex create_m_;
    std::vector<std::unique_ptr<FakePlugin>> instances_;
    std::mutex log_m_;
    std::vector<std::string> logs_;
    std::shared_mutex subs_m_;
    std::map<uint64_t, Subscription> subs_;
    uint64_t next_sub_ = 0;
};

}  // namespace plugin_test
