#include "common/accounts/accounts.hpp"

using platform::json;

namespace common::accounts {

std::optional<json> listed(const platform::Host& host) {
    try {
        auto res = host.call("auth", "listAccounts", json::object());
        if (res.ok()) return res.result().value("accounts", json::array());
        if (res.code != platform::Code::not_found)
            host.warn("auth listAccounts failed: " + res.body);
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::not_found) host.warn(e.what());
    }
    return std::nullopt;
}

std::optional<bool> known(const platform::Host& host, const std::string& id) {
    const auto all = listed(host);
    if (!all) return std::nullopt;
    for (const auto& a : *all)
        if (a.is_object() && a.value("id", "") == id) return true;
    return false;
}

}  // namespace common::accounts
