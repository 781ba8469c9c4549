// Grants in the profile's store (grants.hpp).
#include "grants.hpp"

#include <cstdio>
#include <platform/host/core/runtime.hpp>
#include <platform/sdk/random.hpp>

namespace platform::host {

using nlohmann::json;

namespace {

struct StoreTable {
    const platform_store_provider_t* table = nullptr;
    void* inst = nullptr;
};
StoreTable store(Runtime& rt) {
    Plugin* p = rt.provider("store");
    if (!p) return {};
    return {static_cast<const platform_store_provider_t*>(p->desc->provider), p->instance};
}
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
std::string key_of(const Plugin& plugin, const std::string& id) {
    return plugin.id + "/" + id;
}
bool well_formed(const std::string& id) {
    if (id.size() != 34 || id.rfind("g-", 0) != 0) return false;
    for (size_t i = 2; i < id.size(); ++i)
        if (!std::isxdigit(static_cast<unsigned char>(id[i]))) return false;
    return true;
}
std::string random_grant_id() {
    return "g-" + platform::random_hex(16);  // 128 bits from the CSPRNG
}

}  // namespace

json grant_record(const Identity& who, const std::string& ns) {
    json credential = {
        {"kind", who.credential_kind}, {"id", who.credential_id}, {"services", who.services}};
    if (who.capabilities) credential["capabilities"] = *who.capabilities;
    return {{"id", who.id},
            {"type", who.type},
            {"issuer", who.issuer},
            {"name", who.name},
            {"scopes", who.scopes},
            {"metadata", who.metadata},
            {"credential", credential},
            {"namespace", ns}};
}

platform_status_t Grants::create(const Plugin& plugin, const Identity& who, const std::string& ns,
                                 std::string& id) const {
    if (who.anonymous()) return PLATFORM_UNAUTHENTICATED;
    auto s = store(runtime_);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    id = random_grant_id();
    const std::string key = key_of(plugin, id), value = grant_record(who, ns).dump();
    const std::string table = kTable;
    return s.table->put(s.inst, view(table), view(key), view(value), 0);
}

std::optional<Grant> Grants::find(const Plugin& plugin, const std::string& id) const {
    auto s = store(runtime_);
    if (!s.table || !well_formed(id)) return std::nullopt;
    const std::string key = key_of(plugin, id), table = kTable;
    std::string raw;
    auto sink = [](void* u, platform_str_t v) {
        static_cast<std::string*>(u)->assign(v.ptr ? v.ptr : "", v.len);
    };
    if (s.table->get(s.inst, view(table), view(key), runtime_.clock().now_ms(), sink, &raw) !=
        PLATFORM_OK)
        return std::nullopt;
    const json record = json::parse(raw, nullptr, false);
    auto who = Identity::from_json(record);
    if (!who || who->anonymous()) return std::nullopt;
    return Grant{std::move(*who), record.value("namespace", std::string())};
}

platform_status_t Grants::revoke(const Plugin& plugin, const std::string& id) const {
    auto s = store(runtime_);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!well_formed(id)) return PLATFORM_NOT_FOUND;
    const std::string key = key_of(plugin, id), table = kTable;
    return s.table->del(s.inst, view(table), view(key));
}

}  // namespace platform::host
