// A BUILT events provider (.so), loaded the way the host does (../support/built_plugin.hpp), called
// over its platform_events_provider_t from C++.
#pragma once

#include <platform/abi.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <platform/sdk/str.hpp>
#include <platform/testing/fake_host.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/built_plugin.hpp"
#include "../support/scratch_dir.hpp"

namespace events_test {

using namespace plugin_test;

// One event as the tests see it.
struct Ev {
    std::string id, topic;
    uint64_t offset = 0;
    int64_t timestamp_ms = 0;
    std::string metadata, payload;
};

inline platform_str_t bytes(const std::string& s) {
    return platform_str_t{s.data(), s.size()};
}

// One provider instance (on_stop + on_destroy with the object) and C++ calls over its table.
class EventsClient {
public:
    EventsClient(platform::testing::FakeHost& host, const std::string& name,
                 const nlohmann::json& config = nlohmann::json::object())
        : host_(host),
          plugin_(host, name, config),
          inst_(plugin_.inst()),
          t_(plugin_.table<platform_events_provider_t>()) {}

    const platform_plugin_desc_t* desc() const { return plugin_.desc(); }
    const platform_events_provider_t* table() const { return t_; }

    // Appends; returns the offset (0 on failure, with *status set).
    uint64_t append(const std::string& topic, const std::string& payload,
                    const std::string& metadata = "{}", const std::string& id = "",
                    int64_t ts = 1767225600000, platform_status_t* status = nullptr) const {
        std::string the_id = id.empty() ? "id-" + std::to_string(++ids_) : id;
        platform_event_t e{};
        e.struct_size = sizeof e;
        e.id = bytes(the_id);
        e.topic = bytes(topic);
        e.timestamp_ms = ts;
        e.metadata_json = bytes(metadata);
        e.payload = bytes(payload);
        uint64_t offset = 0;
        platform_status_t st = t_->append(inst_, &e, &offset);
        if (status)
            *status = st;
        else if (st != PLATFORM_OK)
            throw std::runtime_error("append failed: " + std::to_string(st) +
                                     (host_.logs.empty() ? "" : " (" + host_.logs.back() + ")"));
        return offset;
    }

    std::vector<Ev> read(const std::string& topic, uint64_t from = 1, uint32_t limit = 0) const {
        std::vector<Ev> out;
        auto sink = [](void* user, const platform_event_t* e) -> bool {
            static_cast<std::vector<Ev>*>(user)->push_back(
                {platform::copy(e->id), platform::copy(e->topic), e->offset, e->timestamp_ms,
                 platform::copy(e->metadata_json), platform::copy(e->payload)});
            return true;
        };
        auto st = t_->read(inst_, bytes(topic), from, limit, sink, &out);
        if (st != PLATFORM_OK) throw std::runtime_error("read failed: " + std::to_string(st));
        return out;
    }

    platform_status_t read_raw(const std::string& topic, uint64_t from, uint32_t limit,
                               platform_event_sink_fn sink, void* user) const {
        return t_->read(inst_, bytes(topic), from, limit, sink, user);
    }

    std::vector<uint64_t> offsets(const std::string& topic, uint64_t from = 1,
                                  uint32_t limit = 0) const {
        std::vector<uint64_t> out;
        for (const auto& e : read(topic, from, limit)) out.push_back(e.offset);
        return out;
    }

    platform_status_t wait(const std::string& topic, uint64_t after, int32_t timeout_ms) const {
        return t_->wait(inst_, bytes(topic), after, timeout_ms);
    }

    void stop() const {
        if (plugin_.desc()->on_stop) plugin_.desc()->on_stop(inst_);
    }

    nlohmann::json topics() const {
        std::string out;
        auto st = t_->topics(inst_, platform::append_sink, &out);
        if (st != PLATFORM_OK) throw std::runtime_error("topics failed: " + std::to_string(st));
        return nlohmann::json::parse(out);
    }

private:
    platform::testing::FakeHost& host_;  // its logs name why a call failed
    Instance plugin_;
    void* inst_;
    const platform_events_provider_t* t_;
    mutable std::atomic<uint64_t> ids_{0};
};

}  // namespace events_test
