// Loads a BUILT events provider (.so) the way the host does — dlopen(RTLD_NOW | RTLD_LOCAL),
// platform_plugin_entry, on_create with a FakeHost's table — and calls its
// platform_events_provider_t from C++. (The pieces of tests/unit/providers/plugin_loader.hpp this
// folder needs, kept here so the two suites evolve separately.)
#pragma once

#include <dlfcn.h>
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

#include "build_tree.hpp"

namespace events_test {

inline std::string plugin_path(const std::string& name) {
    return platform::test::plugin_dir() + "/" + name + ".so";
}

// The descriptor of a built plugin. Libraries stay mapped, as in the host (never unloaded).
inline const platform_plugin_desc_t* describe(const std::string& name) {
    std::string path = plugin_path(name);
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw std::runtime_error("dlopen " + path + ": " + dlerror());
    auto entry = reinterpret_cast<platform_plugin_entry_fn>(dlsym(lib, PLATFORM_ENTRY_SYMBOL));
    if (!entry) throw std::runtime_error(path + ": no " PLATFORM_ENTRY_SYMBOL);
    char err[512] = {0};
    platform_entry_args_t args{};
    args.struct_size = sizeof args;
    args.host_abi_version = PLATFORM_ABI_VERSION;
    args.error = err;
    args.error_size = sizeof err;
    const platform_plugin_desc_t* desc = entry(&args);
    if (!desc) throw std::runtime_error(path + ": entry refused: " + err);
    return desc;
}

// Tries on_create and returns its error message ("" when it succeeded; the instance is destroyed).
inline std::string create_error(platform::testing::FakeHost& host, const std::string& name,
                                const nlohmann::json& config) {
    const platform_plugin_desc_t* desc = describe(name);
    std::string cfg = config.dump();
    char err[512] = {0};
    void* inst = desc->on_create(host.api(), host.ctx(), platform::view(cfg), err, sizeof err);
    if (!inst) return err[0] ? err : "(no message)";
    if (desc->on_destroy) desc->on_destroy(inst);
    return "";
}

// A fresh directory removed with the object.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "events-test-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

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
        : desc_(describe(name)) {
        std::string cfg = config.dump();
        char err[512] = {0};
        inst_ = desc_->on_create(host.api(), host.ctx(), platform::view(cfg), err, sizeof err);
        if (!inst_) throw std::runtime_error(name + ": on_create failed: " + err);
        t_ = static_cast<const platform_events_provider_t*>(desc_->provider);
    }
    EventsClient(const EventsClient&) = delete;
    EventsClient& operator=(const EventsClient&) = delete;
    ~EventsClient() {
        if (desc_->on_stop) desc_->on_stop(inst_);
        if (desc_->on_destroy) desc_->on_destroy(inst_);
    }

    const platform_plugin_desc_t* desc() const { return desc_; }
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
            throw std::runtime_error("append failed: " + std::to_string(st));
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
        if (desc_->on_stop) desc_->on_stop(inst_);
    }

    nlohmann::json topics() const {
        std::string out;
        auto st = t_->topics(inst_, platform::append_sink, &out);
        if (st != PLATFORM_OK) throw std::runtime_error("topics failed: " + std::to_string(st));
        return nlohmann::json::parse(out);
    }

private:
    const platform_plugin_desc_t* desc_;
    void* inst_ = nullptr;
    const platform_events_provider_t* t_ = nullptr;
    mutable std::atomic<uint64_t> ids_{0};
};

}  // namespace events_test
