// MCP sessions in the store provider's `_mcp` table (no plugin owns a table starting with '_'),
// expiring after the idle time in business time; in memory when the profile has no store.
#include <platform/sdk/random.hpp>
#include <unordered_map>

#include "mcp_internal.hpp"

namespace platform::host::mcp {

namespace {
const std::string kTable = "_mcp";
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
void sink_string(void* user, platform_str_t b) {
    static_cast<std::string*>(user)->assign(b.ptr ? b.ptr : "", b.len);
}

json to_json(const Session& s) {
    return {{"v", s.version},      {"a", s.account},
            {"ci", s.client_info}, {"cc", s.client_capabilities},
            {"l", s.log_level},    {"s", s.subscriptions},
            {"t", s.touched_ms}};
}

std::optional<Session> from_json(const std::string& id, const std::string& text) {
    json j = json::parse(text, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    Session s;
    s.id = id;
    s.version = j.value("v", kLatestVersion);
    s.account = j.value("a", "");
    s.client_info = j.value("ci", json::object());
    s.client_capabilities = j.value("cc", json::object());
    s.log_level = j.value("l", "info");
    s.subscriptions = j.value("s", std::vector<std::string>{});
    s.touched_ms = j.value("t", int64_t{0});
    return s;
}
// from_json, remembered per thread: the sessions this thread read last, by id, with the stored
// text each was parsed from. A session whose stored text is unchanged (every call between two
// touches) is copied, not parsed again; thread-local, so no lock is shared between calls.
std::optional<Session> parsed(const std::string& id, const std::string& text) {
    thread_local std::unordered_map<std::string, std::pair<std::string, Session>> seen;
    auto it = seen.find(id);
    if (it != seen.end() && it->second.first == text) return it->second.second;
    auto s = from_json(id, text);
    if (!s) return s;
    if (seen.size() >= 64) seen.clear();
    seen.insert_or_assign(id, std::pair<std::string, Session>{text, *s});
    return s;
}
}  // namespace

SessionStore::SessionStore(Runtime& runtime, int64_t idle_ms)
    : runtime_(runtime), idle_ms_(idle_ms) {}

// 128 bits from the CSPRNG as 32 hex digits: a session id must not be guessable.
std::string SessionStore::new_id() const {
    return platform::random_hex(16);
}

std::optional<Session> SessionStore::get(const std::string& id) {
    if (id.empty() || id.size() > 128) return std::nullopt;
    const int64_t now = runtime_.clock().now_ms();
    std::string text;
    if (Plugin* p = runtime_.provider("store")) {
        auto* t = static_cast<const platform_store_provider_t*>(p->desc->provider);
        if (t->get(p->instance, view(kTable), view(id), now, sink_string, &text) != PLATFORM_OK)
            return std::nullopt;
    } else {
        std::lock_guard<std::mutex> g(m_);
        auto it = memory_.find(id);
        if (it == memory_.end()) return std::nullopt;
        json j = json::parse(it->second, nullptr, false);
        if (j.value("expires", int64_t{0}) <= now) {
            memory_.erase(it);
            return std::nullopt;
        }
        text = it->second;
    }
    auto s = parsed(id, text);
    if (s && now - s->touched_ms >= idle_ms_) {  // a store without expiry
        erase(id);
        return std::nullopt;
    }
    if (s && now - s->touched_ms > idle_ms_ / 4) put(*s);
    return s;
}

bool SessionStore::put(Session& s) {
    s.touched_ms = runtime_.clock().now_ms();
    const int64_t expires = s.touched_ms + idle_ms_;
    if (Plugin* p = runtime_.provider("store")) {
        auto* t = static_cast<const platform_store_provider_t*>(p->desc->provider);
        const std::string text = to_json(s).dump();
        return t->put(p->instance, view(kTable), view(s.id), view(text), expires) == PLATFORM_OK;
    }
    json j = to_json(s);
    j["expires"] = expires;
    std::lock_guard<std::mutex> g(m_);
    memory_[s.id] = j.dump();
    return true;
}

void SessionStore::erase(const std::string& id) {
    if (Plugin* p = runtime_.provider("store")) {
        auto* t = static_cast<const platform_store_provider_t*>(p->desc->provider);
        t->del(p->instance, view(kTable), view(id));
        return;
    }
    std::lock_guard<std::mutex> g(m_);
    memory_.erase(id);
}

}  // namespace platform::host::mcp
