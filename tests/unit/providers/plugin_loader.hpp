// Loads a BUILT provider plugin (.so) the way the host does — dlopen(RTLD_NOW | RTLD_LOCAL), resolve
// platform_plugin_entry, on_create with the FakeHost's table — and hands out its provider table.
#pragma once

#include <dlfcn.h>
#include <platform/abi.h>

#include <nlohmann/json.hpp>
#include <platform/sdk/str.hpp>
#include <platform/testing/fake_host.hpp>
#include <stdexcept>
#include <string>

#include "build_tree.hpp"

namespace providers_test {

// `dir` "" = <build>/plugins; test-only providers live elsewhere.
inline std::string plugin_path(const std::string& name, const std::string& dir = "") {
    return (dir.empty() ? platform::test::plugin_dir() : dir) + "/" + name + ".so";
}

// The descriptor of a built plugin. Libraries stay mapped, as in the host (never unloaded).
inline const platform_plugin_desc_t* describe(const std::string& name,
                                              const std::string& dir = "") {
    std::string path = plugin_path(name, dir);
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

// One provider instance; destroyed (on_stop, on_destroy) with the object.
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

    // Tries on_create and returns the error message ("" when it succeeded, then destroys it).
    static std::string create_error(platform::testing::FakeHost& host, const std::string& name,
                                    const nlohmann::json& config) {
        const platform_plugin_desc_t* desc = describe(name);
        std::string cfg = config.dump();
        char err[512] = {0};
        void* inst = desc->on_create(host.api(), host.ctx(), platform::view(cfg), err, sizeof err);
        if (!inst) return err[0] ? err : "(no message)";
        if (desc->on_destroy) desc->on_destroy(inst);
        return "";
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

}  // namespace providers_test
