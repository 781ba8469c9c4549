#include "rail.hpp"

#include <regex>

#include "common/upstream/upstream.hpp"

namespace transit {

using common::upstream::Malformed;
using common::upstream::string_or_null;
using nlohmann::json;

namespace {

// "London Paddington" from [{locationName: "London Paddington", crs: "PAD"}], joined with " & ".
json places(const json& s, const char* name) {
    auto it = s.find(name);
    if (it == s.end() || !it->is_array() || it->empty()) return nullptr;
    std::string out;
    for (const json& p : *it)
        if (p.is_object() && p.contains("locationName") && p["locationName"].is_string())
            out += (out.empty() ? "" : " & ") + p["locationName"].get<std::string>();
    return out.empty() ? json(nullptr) : json(out);
}

// NRCC messages come as {"Value": "<p>HTML</p>"}: the text without its tags.
std::string message_text(const json& m) {
    std::string v;
    if (m.is_string())
        v = m.get<std::string>();
    else if (m.is_object())
        v = m.contains("Value") && m["Value"].is_string()   ? m["Value"].get<std::string>()
            : m.contains("value") && m["value"].is_string() ? m["value"].get<std::string>()
                                                            : "";
    static const std::regex tags("<[^>]*>");
    return std::regex_replace(v, tags, "");
}

}  // namespace

json parse_board(const json& body, bool arrivals) {
    if (!body.is_object()) throw Malformed("the board is not a JSON object");
    if (!body.contains("crs") || !body["crs"].is_string()) throw Malformed("a board without crs");
    json services = json::array();
    for (const char* list : {"trainServices", "busServices"}) {
        auto it = body.find(list);
        if (it == body.end() || it->is_null()) continue;
        if (!it->is_array()) throw Malformed(std::string("\"") + list + "\" is not a list");
        for (const json& s : *it) {
            if (!s.is_object()) throw Malformed("a service is not an object");
            services.push_back({{"scheduled", string_or_null(s, arrivals ? "sta" : "std")},
                                {"expected", string_or_null(s, arrivals ? "eta" : "etd")},
                                {"platform", string_or_null(s, "platform")},
                                {"operator", string_or_null(s, "operator")},
                                {"origin", places(s, "origin")},
                                {"destination", places(s, "destination")},
                                {"cancelled", s.value("isCancelled", false)},
                                {"cancel_reason", string_or_null(s, "cancelReason")},
                                {"delay_reason", string_or_null(s, "delayReason")},
                                {"id", string_or_null(s, "serviceID")},
                                {"bus", std::string(list) == "busServices"}});
        }
    }
    json messages = json::array();
    if (auto m = body.find("nrccMessages"); m != body.end() && m->is_array())
        for (const json& one : *m)
            if (std::string t = message_text(one); !t.empty()) messages.push_back(t);
    return {{"station", {{"name", string_or_null(body, "locationName")}, {"crs", body["crs"]}}},
            {"generated_at", string_or_null(body, "generatedAt")},
            {"board", arrivals ? "arrivals" : "departures"},
            {"services", services},
            {"messages", messages}};
}

}  // namespace transit
