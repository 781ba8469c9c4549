// platform/sdk/entry.hpp — the exported entry point and the exception barrier.
#pragma once

#include <platform/abi.h>

#include <cstdio>
#include <exception>
#include <platform/sdk/error.hpp>
#include <type_traits>
#include <utility>

namespace platform {

// Runs fn, turning any exception into a status code. Use it in every provider table function.
template <class F>
platform_status_t guard(F&& fn) noexcept {
    try {
        fn();
        return PLATFORM_OK;
    } catch (const Error& e) {
        return static_cast<platform_status_t>(e.code());
    } catch (...) {
        return PLATFORM_INTERNAL;
    }
}

// Runs a factory for on_create; on exception writes the message to err and returns nullptr.
template <class F>
void* guarded_create(char* err, size_t err_size, F&& make) noexcept {
    try {
        return make();
    } catch (const std::exception& e) {
        if (err && err_size) std::snprintf(err, err_size, "%s", e.what());
    } catch (...) {
        if (err && err_size) std::snprintf(err, err_size, "unknown exception");
    }
    return nullptr;
}

namespace detail {
// Whether T has start() / stop(), which the SDK wires to on_start / on_stop.
template <class T, class = void>
struct has_start : std::false_type {};
template <class T>
struct has_start<T, std::void_t<decltype(std::declval<T&>().start())>> : std::true_type {};
template <class T, class = void>
struct has_stop : std::false_type {};
template <class T>
struct has_stop<T, std::void_t<decltype(std::declval<T&>().stop())>> : std::true_type {};

// Checks the host's ABI version against the one this plugin was built with.
inline bool host_compatible(const platform_entry_args_t* args) {
    if (!args) return false;
    if (PLATFORM_ABI_MAJOR_OF(args->host_abi_version) != PLATFORM_ABI_MAJOR ||
        PLATFORM_ABI_MINOR_OF(args->host_abi_version) < PLATFORM_ABI_MINOR) {
        if (args->error && args->error_size)
            std::snprintf(args->error, args->error_size,
                          "plugin needs ABI %u.%u, host speaks %u.%u", PLATFORM_ABI_MAJOR,
                          PLATFORM_ABI_MINOR, PLATFORM_ABI_MAJOR_OF(args->host_abi_version),
                          PLATFORM_ABI_MINOR_OF(args->host_abi_version));
        return false;
    }
    return true;
}
}  // namespace detail
}  // namespace platform

// Defines `platform_plugin_entry`, returning the descriptor expression `desc` (evaluated once,
// inside an exception barrier). Plugins link with a version script that exports only this.
#define PLATFORM_DEFINE_ENTRY(desc)                                                 \
    extern "C" __attribute__((visibility("default"))) const platform_plugin_desc_t* \
    platform_plugin_entry(const platform_entry_args_t* args) {                      \
        if (!::platform::detail::host_compatible(args)) return nullptr;             \
        try {                                                                       \
            return (desc);                                                          \
        } catch (const std::exception& e) {                                         \
            if (args->error && args->error_size)                                    \
                std::snprintf(args->error, args->error_size, "%s", e.what());       \
        } catch (...) {                                                             \
        }                                                                           \
        return nullptr;                                                             \
    }
