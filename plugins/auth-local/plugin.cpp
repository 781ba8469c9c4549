// auth-local — the exported descriptor: one instance is both the `auth` provider (the table from
// platform/sdk/auth_provider.hpp) and the `auth` service (endpoints from service.cpp). The host
// registers a provider whose descriptor names a service as that service too (docs/identity.md).
//
// The SDK's PLATFORM_SERVICE and PLATFORM_PROVIDER each build one half; this builds the
// descriptor from ServiceSpec (endpoints, on_call) and sets kind AUTH and the provider table,
// with on_create taking the profile config as providers do. Nothing throws across the ABI.
#include <memory>
#include <platform/sdk/auth_provider.hpp>

#include "auth_local.hpp"

namespace auth_local {

namespace {

platform::ServiceSpec<AuthLocal>& spec() {
    static platform::ServiceSpec<AuthLocal> s = [] {
        platform::ServiceSpec<AuthLocal> built;
        AuthLocal::describe(built);
        return built;
    }();
    return s;
}

void* on_create(const platform_host_api_t* api, platform_host_ctx_t* ctx, platform_str_t config,
                char* err, size_t err_size) noexcept {
    return platform::guarded_create(err, err_size, [&]() -> void* {
        json cfg = config.len ? json::parse(platform::view(config)) : json::object();
        return new AuthLocal(platform::Host(api, ctx), cfg);
    });
}

// A failed start says why in the log: the host only reports that on_start failed.
platform_status_t on_start(void* p) noexcept {
    auto* self = static_cast<AuthLocal*>(p);
    try {
        self->start();
        return PLATFORM_OK;
    } catch (const platform::Error& e) {
        self->host().error(std::string("auth-local: cannot start: ") + e.what());
        return static_cast<platform_status_t>(e.code());
    } catch (const std::exception& e) {
        self->host().error(std::string("auth-local: cannot start: ") + e.what());
        return PLATFORM_INTERNAL;
    }
}

void on_stop(void* p) noexcept {
    static_cast<AuthLocal*>(p)->stop();
}

void on_destroy(void* p) noexcept {
    delete static_cast<AuthLocal*>(p);
}

void on_call(void* p, platform_call_t* call, uint32_t index, platform_str_t request) noexcept {
    auto* self = static_cast<AuthLocal*>(p);
    platform::Responder out(self->host().api(), call);
    try {
        auto& ep = spec().endpoints().at(index);
        json args = request.len ? json::parse(platform::view(request)) : json::object();
        if (!args.is_object())
            throw platform::invalid_argument("the request must be a JSON object");
        platform::Request req(self->host(), call, std::move(args));
        self->await_admin();  // start() creates it on its own thread
        if (ep.sync_handler())
            out.ok(ep.sync_handler()(*self, req));
        else
            out.fail(platform::Code::unsupported, "endpoint has no handler");
    } catch (const platform::Error& e) {
        out.fail(e);
    } catch (const std::exception& e) {
        out.fail(platform::Code::internal, e.what());
    } catch (...) {
        out.fail(platform::Code::internal, "unknown exception in handler");
    }
}

const platform_plugin_desc_t* descriptor() {
    static const platform_plugin_desc_t d = [] {
        platform_plugin_desc_t hooks{};
        hooks.on_create = &on_create;
        hooks.on_start = &on_start;
        hooks.on_stop = &on_stop;
        hooks.on_destroy = &on_destroy;
        hooks.on_call = &on_call;
        platform_plugin_desc_t x = *spec().finish(hooks);
        x.kind = PLATFORM_KIND_AUTH;
        x.provider = &platform::AuthProviderTable<AuthLocal>::table;
        static const std::string config =
            platform::schema::object()
                .open()
                .str("namespace")
                .doc(
                    "Namespace the admin account is created in at start (default: the "
                    "server's, PLATFORM_NAMESPACE, else go.core.api)")
                .str("admin_secret")
                .doc(
                    "Initial secret of admin (default PLATFORM_ADMIN_SECRET, else generated and "
                    "logged once)")
                .boolean("disable_admin")
                .doc("Remove and refuse the admin account")
                .str("private_key")
                .doc(
                    "EC P-256 private key (PEM) signing access tokens (default "
                    "PLATFORM_AUTH_PRIVATE_KEY, else generated and kept sealed in the store)")
                .integer("argon2_ops")
                .doc("argon2id opslimit (default 2, interactive)")
                .integer("argon2_mem_kib")
                .doc("argon2id memlimit in KiB (default 65536, interactive)")
                .integer("token_expiry")
                .doc("Default access token lifetime in seconds (900)")
                .integer("refresh_days")
                .doc("Refresh token lifetime in days (30)")
                .integer("session_days")
                .doc("Default session lifetime in days (7)")
                .dump();
        x.config_schema = platform::view(config);
        return x;
    }();
    return &d;
}

}  // namespace

}  // namespace auth_local

PLATFORM_DEFINE_ENTRY(::auth_local::descriptor())
