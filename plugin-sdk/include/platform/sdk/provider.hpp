// platform/sdk/provider.hpp — a provider plugin (store, broker, auth...) from a C++ class.
//
//   class MemoryStore {
//   public:
//       MemoryStore(const platform::Host& host, const platform::json& config);
//       static const platform_store_provider_t table;   // static functions casting `inst`
//       // optional: void start(); void stop();  (stop joins the provider's threads)
//   };
//   PLATFORM_PROVIDER(MemoryStore, PLATFORM_KIND_STORE, "store-memory", "1.0.0",
//                     "In-memory key-value store", &MemoryStore::table)
//
// The instance handed to the table functions is the T* created here. Wrap each table function's
// body in platform::guard so no exception escapes.
#pragma once

#include <platform/abi.h>

#include <nlohmann/json.hpp>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/host.hpp>

namespace platform::detail {

template <class T>
struct ProviderRuntime {
    static void* on_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                           platform_str_t config, char* err, size_t err_size) noexcept {
        return guarded_create(err, err_size, [&]() -> void* {
            auto cfg = config.len ? json::parse(view(config)) : json::object();
            return new T(Host(api, ctx), cfg);
        });
    }
    static void on_destroy(void* p) noexcept { delete static_cast<T*>(p); }
    static platform_status_t on_start(void* p) noexcept {
        if constexpr (has_start<T>::value) return guard([&] { static_cast<T*>(p)->start(); });
        return PLATFORM_OK;
    }
    static void on_stop(void* p) noexcept {
        if constexpr (has_stop<T>::value) guard([&] { static_cast<T*>(p)->stop(); });
    }

    static const platform_plugin_desc_t* describe(platform_kind_t kind, const char* id,
                                                  const char* version, const char* summary,
                                                  const void* table) {
        static platform_plugin_desc_t d = [&] {
            platform_plugin_desc_t x{};
            x.struct_size = sizeof x;
            x.abi_version = PLATFORM_ABI_VERSION;
            x.id = view(id);
            x.version = view(version);
            x.kind = kind;
            x.summary = view(summary);
            x.on_create = &on_create;
            x.on_destroy = &on_destroy;
            x.on_start = &on_start;
            x.on_stop = &on_stop;
            x.provider = table;
            return x;
        }();
        return &d;
    }
};

}  // namespace platform::detail

#define PLATFORM_PROVIDER(T, kind, id, version, summary, table) \
    PLATFORM_DEFINE_ENTRY(                                      \
        ::platform::detail::ProviderRuntime<T>::describe(kind, id, version, summary, table))
