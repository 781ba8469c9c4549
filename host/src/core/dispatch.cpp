// The call path: authenticate -> access -> validate -> worker pool, under a deadline.
#include <spdlog/spdlog.h>

#include <platform/host/core/metrics.hpp>
#include <platform/host/core/runtime.hpp>

namespace platform::host {

using nlohmann::json;

namespace {
void sink_string(void* user, platform_str_t b) {
    static_cast<std::string*>(user)->append(b.ptr ? b.ptr : "", b.len);
}
}  // namespace

platform_status_t Runtime::authenticate(const std::string& credential, Identity& out,
                                        std::string& error) {
    if (console_.is_operator(credential)) {  // keys/operator.json: an admin on this machine
        out = Identity{};
        out.id = out.name = "operator";
        out.type = "service";
        out.issuer = settings_.ns;
        out.scopes = {"admin"};
        return PLATFORM_OK;
    }
    Plugin* auth = provider("auth");
    if (!auth) {
        error = "no auth provider configured";
        return PLATFORM_UNAVAILABLE;
    }
    auto* table = static_cast<const platform_auth_provider_t*>(auth->desc->provider);
    std::string account;
    platform_status_t st = table->authenticate(
        auth->instance, {credential.data(), credential.size()}, sink_string, &account);
    if (st != PLATFORM_OK) {
        error = st == PLATFORM_UNAUTHENTICATED ? "invalid, expired or revoked credential"
                                               : "authentication failed";
        return st;
    }
    // The provider lends the same text for the same caller: each thread keeps the identity it
    // parsed last, so a client's run of requests parses it once.
    thread_local std::string last_text;
    thread_local Identity last;
    if (account.empty() || account != last_text) {
        auto who = Identity::from_json(json::parse(account, nullptr, false));
        if (!who) {
            error = "auth provider answered nonsense";
            return PLATFORM_INTERNAL;
        }
        last = std::move(*who);
        last_text = std::move(account);
    }
    out = last;
    if (!out.anonymous())
        activity_.seen(out.id, out.name.empty() ? out.id : out.name, out.type, clock_.now_ms());
    return PLATFORM_OK;
}

// Answers a call the host gave up on and calls the plugin's on_cancel (on a worker, no host
// lock held). The call stays known until on_cancel returned.
void Runtime::give_up(const std::shared_ptr<Call>& c, Outcome outcome) {
    const bool cancel = c->plugin->desc->on_cancel != nullptr;
    {
        std::lock_guard<std::mutex> g(c->m);
        if (c->answered) return;
        c->cancelling = cancel;
    }
    bool expired = calls().answer(c, std::move(outcome));
    if (cancel && !expired) calls().cancel_finished(c);
    if (cancel && expired)
        pool_.submit([this, c] {
            c->plugin->desc->on_cancel(c->plugin->instance, CallTable::handle(*c));
            calls().cancel_finished(c);
        });
}

void Runtime::abandon(const std::shared_ptr<Call>& c, const std::string& why) {
    give_up(c, Outcome{PLATFORM_UNAVAILABLE, why, "", false, true});
}

void Runtime::dispatch(Invocation inv, std::function<void(Outcome)> done) {
    Identity who;
    std::string why;
    if (platform_status_t st = authenticate(inv.credential, who, why); st != PLATFORM_OK)
        return done(Outcome{st, why, "", false});
    dispatch_as(who, std::move(inv), std::move(done));
}

void Runtime::dispatch_as(const Identity& who, Invocation inv, std::function<void(Outcome)> done) {
    done = track_call(inv.service->name, inv.endpoint->method, std::move(done), metrics_);
    const Endpoint& ep = *inv.endpoint;
    const ServiceEntry& svc = *inv.service;
    auto fail = [&](platform_status_t code, std::string message) {
        done(Outcome{code, std::move(message), "", false});
    };

    // Internal endpoints are for other plugins: from outside they do not exist.
    if (ep.internal() && !inv.from_plugin)
        return fail(PLATFORM_NOT_FOUND, "no such method: " + svc.name + " " + ep.name);
    // Rules, token restrictions, CSRF, per-account rate limit (admission.hpp).
    if (!inv.admitted)
        if (auto refusal = admission_->check(who, inv, svc, ep)) return done(std::move(*refusal));
    // Payment (payment.hpp): may answer itself (402/403) or run the call and settle afterwards.
    if (!inv.admitted && payments_->applies(who, inv, ep)) {
        inv.admitted = true;
        return payments_->admit(
            who, std::move(inv), svc, ep, std::move(done),
            [this](const Identity& as, Invocation next, std::function<void(Outcome)> d) {
                dispatch_as(as, std::move(next), std::move(d));
            });
    }
    if (ep.access != PLATFORM_ACCESS_PUBLIC && who.anonymous())
        return fail(PLATFORM_UNAUTHENTICATED,
                    "Unauthorized call made to " + svc.name + ":" + ep.method);
    // Service accounts (the host's own identities for plugins calling as themselves) may use the
    // platform's built-ins, like micro's service accounts; catalogue admin methods stay admin-only.
    const bool builtin = svc.relative.rfind("v1.", 0) != 0;
    if (ep.access == PLATFORM_ACCESS_ADMIN && !who.has_scope("admin") &&
        !(builtin && who.type == "service" && who.has_scope("service")))
        return fail(PLATFORM_PERMISSION_DENIED, "Forbidden call made to " + svc.name + ":" +
                                                    ep.method + " (needs the admin scope)");
    if (auto problem = ep.input.validate(inv.args))
        return fail(PLATFORM_INVALID_ARGUMENT, *problem);

    Plugin* plugin = svc.plugin;
    auto call = calls().create();
    call->service = svc.name;
    call->endpoint = ep.method;
    call->account = who.id;
    call->scopes = who.scopes_csv();
    call->caller = who;
    call->request_id = inv.request_id;
    call->headers = std::move(inv.headers);
    call->plugin = plugin;
    call->done = std::move(done);
    call->chunk_sink = std::move(inv.chunk_sink);
    call->client = std::move(inv.client);
    if (call->client) call->client->attached(call);
    int64_t timeout = inv.timeout_ms > 0 ? std::min(inv.timeout_ms, profile_.max_call_timeout_ms)
                                         : profile_.call_timeout_ms;
    if (inv.deadline_ms > 0)
        timeout = std::max<int64_t>(1, std::min(timeout, inv.deadline_ms - Clock::monotonic_ms()));
    call->deadline_ms = Clock::monotonic_ms() + timeout;

    std::weak_ptr<Call> weak = call;
    auto deadline = timers_.at(call->deadline_ms, [this, weak, timeout] {
        auto c = weak.lock();
        if (!c) return;
        {
            std::lock_guard<std::mutex> g(c->m);
            if (c->answered) return;
        }
        if (!c->chunked)
            spdlog::warn("call {} {} exceeded its {} ms deadline", c->service, c->endpoint,
                         timeout);
        give_up(c, Outcome{PLATFORM_DEADLINE_EXCEEDED,
                           c->service + ":" + c->endpoint + " did not answer within " +
                               std::to_string(timeout) + " ms",
                           "", false, c->chunked});
    });
    {
        // Answering cancels the timer (CallTable::answer); an answer that came first (an MCP
        // client's cancel) leaves it to us.
        std::unique_lock<std::mutex> lock(call->m);
        if (call->answered) {
            lock.unlock();
            timers_.cancel(deadline);
        } else {
            call->timers = &timers_;
            call->deadline_timer = deadline;
        }
    }

    std::string args = inv.args.dump(-1, ' ', false, json::error_handler_t::replace);
    const uint32_t index = ep.index;
    pool_.submit([this, call, plugin, index, args = std::move(args)] {
        plugin->desc->on_call(plugin->instance, CallTable::handle(*call), index,
                              {args.data(), args.size()});
        calls().handler_returned(call);
    });
}

}  // namespace platform::host
