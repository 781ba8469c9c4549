// built_plugin.hpp — a BUILT plugin (.so) loaded the way the host loads it: dlopen(RTLD_NOW |
// RTLD_LOCAL), platform_plugin_entry resolved and called, on_create with a FakeHost's table; for
// the tests of providers, which run behind tables rather than endpoints.
//
//   platform::testing::FakeHost host;
//   plugin_test::Instance store(host, "store-sqlite", {{"path", db}});
//   auto* table = store.table<platform_store_provider_t>();
//
// Header-only. Libraries stay mapped, as in the host (never unloaded); an instance is stopped and
// destroyed with its object.
#pragma once

#include <dlfcn.h>
#include <platform/abi.h>

#include <nlohmann/json.hpp>
#include <platform/sdk/str.hpp>
#include <platform/testing/fake_host.hpp>
#include <stdexcept>
#include <string>

#include "build_tree.hpp"
#include "entry_args.hpp"

namespace plugin_test {

using platform::testing::FakeHost;

// `dir` "" = <build>/plugins; test-only providers live elsewhere.
inline std::string plugin_path(const std::string& name, const std::string& dir = "") {
    return (dir.empty() ? platform::test::plugin_dir() : dir) + "/" + name + ".so";
}

// The descriptor of a built plugin; throws with the reason when it cannot be had.
inline const platform_plugin_desc_t* describe(const std::string& name,
                                              const std::string& dir = "") {
    std::string path = plugin_path(name, dir);
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw std::runtime_error("dlopen " + path + ": " + dlerror());
    auto entry = reinterpret_cast<platform_plugin_entry_fn>(dlsym(lib, PLATFORM_ENTRY_SYMBOL));
    if (!entry) throw std::runtime_error(path + ": no " PLATFORM_ENTRY_SYMBOL);
    char err[512] = {0};
    platform_entry_args_t args = entry_args(nullptr, err);
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

// One instance of a built plugin; on_stop and on_destroy with the object.
class Instance {
public:
    Instance(platform::testing::FakeHost& host, const std::string& name,
             const nlohmann::json& config = nlohmann::json::object(), const std::string& dir = "")
        : desc_(describe(name, dir)) {
        std::string cfg = config.dump();
        char err[512] = {0};
        inst_ = desc_->on_create(host.api(), host.ctx(), platform::view(cfg), err, sizeof err);
        if (!inst_) throw std::runtime_error(name + ": on_create failed: " + err);
    }
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;
    ~Instance() {
        if (desc_->on_stop) desc_->on_stop(inst_);
        if (desc_->on_destroy) desc_->on_destroy(inst_);
    }

    const platform_plugin_desc_t* desc() const { return desc_; }
    void* inst() const { return inst_; }
    template <class Table>
    const Table* table() const {
        return static_cast<const Table*>(desc_->provider);
    }

private:
    const platform_plugin_desc_t* desc_;
    void* inst_ = nullptr;
};

}  // namespace plugin_test
