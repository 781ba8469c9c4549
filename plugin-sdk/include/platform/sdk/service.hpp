// platform/sdk/service.hpp — a service plugin from a C++ class, and its exported entry.
//
//   class Notes {
//   public:
//       static void describe(platform::ServiceSpec<Notes>& s);   // id, version, endpoints
//       explicit Notes(const platform::Host& host);              // or a default constructor
//       platform::json add(platform::Request& r);                // handlers
//       // optional: void start(); void stop();
//   };
//   PLATFORM_SERVICE(Notes)
//
// PLATFORM_SERVICE emits `platform_plugin_entry` and noexcept trampolines: every exception a
// handler throws becomes an error code (platform::Error keeps its code, anything else INTERNAL).
#pragma once

#include <platform/abi.h>

#include <deque>
#include <memory>
#include <platform/sdk/endpoint.hpp>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/host.hpp>
#include <platform/sdk/request.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace platform {

template <class T>
class ServiceSpec {
public:
    ServiceSpec& id(std::string v) {
        id_ = std::move(v);
        return *this;
    }
    ServiceSpec& version(std::string v) {
        version_ = std::move(v);
        return *this;
    }
    ServiceSpec& summary(std::string v) {
        summary_ = std::move(v);
        return *this;
    }
    // Name under the namespace: "v1.notes" (catalogue) or "registry" (platform built-in).
    ServiceSpec& service(std::string v) {
        service_ = std::move(v);
        return *this;
    }
    // The JSON Schema of the plugin's config (documentation; the plugin checks its config itself).
    ServiceSpec& config_schema(const ::platform::schema::Object& v) {
        config_ = v.dump();
        return *this;
    }

    EndpointSpec<T>& get(std::string name) {
        return endpoints_.emplace_back(std::move(name), PLATFORM_VERB_GET);
    }
    EndpointSpec<T>& post(std::string name) {
        return endpoints_.emplace_back(std::move(name), PLATFORM_VERB_POST);
    }

    const std::deque<EndpointSpec<T>>& endpoints() const { return endpoints_; }

    // Builds the C descriptor; call once, after every endpoint is declared.
    const platform_plugin_desc_t* finish(const platform_plugin_desc_t& hooks) {
        for (auto& e : endpoints_) c_endpoints_.push_back(e.c_view());
        desc_ = hooks;
        desc_.struct_size = sizeof desc_;
        desc_.abi_version = PLATFORM_ABI_VERSION;
        desc_.id = view(id_);
        desc_.version = view(version_);
        desc_.kind = PLATFORM_KIND_SERVICE;
        desc_.summary = view(summary_);
        desc_.config_schema = view(config_);
        desc_.service = view(service_.empty() ? id_ : service_);
        desc_.endpoints = c_endpoints_.data();
        desc_.endpoint_count = static_cast<uint32_t>(c_endpoints_.size());
        desc_.endpoint_stride = sizeof(platform_endpoint_t);
        return &desc_;
    }

private:
    std::string id_, version_ = "1.0.0", summary_, service_, config_;
    std::deque<EndpointSpec<T>> endpoints_;
    std::vector<platform_endpoint_t> c_endpoints_;
    platform_plugin_desc_t desc_{};
};

namespace detail {

template <class T>
struct ServiceRuntime {
    struct Instance {
        Host host;
        std::unique_ptr<T> object;
    };

    static ServiceSpec<T>& spec() {
        static ServiceSpec<T> s = [] {
            ServiceSpec<T> built;
            T::describe(built);
            return built;
        }();
        return s;
    }

    static const platform_plugin_desc_t* descriptor() {
        static const platform_plugin_desc_t* d = [] {
            platform_plugin_desc_t hooks{};
            hooks.on_create = &on_create;
            hooks.on_start = &on_start;
            hooks.on_stop = &on_stop;
            hooks.on_destroy = &on_destroy;
            hooks.on_call = &on_call;
            return spec().finish(hooks);
        }();
        return d;
    }

    static void* on_create(const platform_host_api_t* api, platform_host_ctx_t* ctx, platform_str_t,
                           char* err, size_t err_size) noexcept {
        return guarded_create(err, err_size, [&] {
            auto inst = std::make_unique<Instance>();
            inst->host = Host(api, ctx);
            if constexpr (std::is_constructible_v<T, const Host&>)
                inst->object = std::make_unique<T>(inst->host);
            else
                inst->object = std::make_unique<T>();
            return inst.release();
        });
    }

    static platform_status_t on_start(void* p) noexcept {
        if constexpr (has_start<T>::value)
            return guard([&] { static_cast<Instance*>(p)->object->start(); });
        return PLATFORM_OK;
    }

    static void on_stop(void* p) noexcept {
        if constexpr (has_stop<T>::value) guard([&] { static_cast<Instance*>(p)->object->stop(); });
    }

    static void on_destroy(void* p) noexcept { delete static_cast<Instance*>(p); }

    static void on_call(void* p, platform_call_t* call, uint32_t index,
                        platform_str_t request) noexcept {
        auto* inst = static_cast<Instance*>(p);
        Responder out(inst->host.api(), call);
        try {
            auto& ep = spec().endpoints().at(index);
            json args = request.len ? json::parse(view(request)) : json::object();
            Request req(inst->host, call, std::move(args));
            if (ep.async_handler())
                ep.async_handler()(*inst->object, req, out);
            else if (ep.sync_handler())
                out.ok(ep.sync_handler()(*inst->object, req));
            else
                out.fail(Code::unsupported, "endpoint has no handler");
        } catch (const Error& e) {
            out.fail(e);
        } catch (const std::exception& e) {
            out.fail(Code::internal, e.what());
        } catch (...) {
            out.fail(Code::internal, "unknown exception in handler");
        }
    }
};

}  // namespace detail
}  // namespace platform

// Emits the plugin's only exported symbol for service class T.
#define PLATFORM_SERVICE(T) \
    PLATFORM_DEFINE_ENTRY(::platform::detail::ServiceRuntime<T>::descriptor())
