#include "common/conversations/conversations.hpp"

using platform::json;

namespace common::conversations {

json agent(const platform::Request& r, const std::string& method, const json& args) {
    platform::Host::CallResult out;
    try {
        out = r.host().call("agent", method, args, r.call());
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::not_found) throw;
        throw platform::unavailable("the agent service (agent/" + method +
                                    ") is not available; it keeps the conversations");
    }
    if (!out.ok())
        throw platform::Error(out.code,
                              out.body.empty() ? "agent/" + method + " failed" : out.body);
    return out.result();
}

std::string required(const platform::Request& r, const std::string& name) {
    const std::string v = r.str(name.c_str());
    if (v.empty()) throw platform::invalid_argument(name + ": must not be empty");
    return v;
}

std::string channel(const platform::Request& r, const std::string& name) {
    const std::string c = r.str(name.c_str());
    if (!c.empty() && c != "web" && c != "mail" && c != "cli")
        throw platform::invalid_argument(name + ": one of web, mail, cli");
    return c;
}

json pick(const json& from, std::initializer_list<const char*> keys) {
    json out = json::object();
    if (!from.is_object()) return out;
    for (const char* k : keys) {
        const auto it = from.find(k);
        if (it != from.end() && !it->is_null()) out[k] = *it;
    }
    return out;
}

json message(const json& stored) {
    return pick(stored, {"seq", "role", "text", "at", "channel", "agent"});
}

}  // namespace common::conversations
