#include "schedule.hpp"

#include "common/upstream/upstream.hpp"

namespace flights {

using common::upstream::Malformed;
using nlohmann::json;

namespace {

json field(const json& o, const char* name) {
    if (!o.is_object()) return nullptr;
    auto it = o.find(name);
    return it != o.end() && (it->is_string() || it->is_number()) ? *it : json(nullptr);
}

json end(const json& e) {
    return {{"airport", field(e, "airport")},     {"iata", field(e, "iata")},
            {"scheduled", field(e, "scheduled")}, {"estimated", field(e, "estimated")},
            {"actual", field(e, "actual")},       {"terminal", field(e, "terminal")},
            {"gate", field(e, "gate")},           {"delay_min", field(e, "delay")}};
}

}  // namespace

json parse_schedule(const json& body) {
    if (!body.is_object()) throw Malformed("the answer is not a JSON object");
    auto data = body.find("data");
    if (data == body.end() || !data->is_array()) {
        if (auto err = body.find("error"); err != body.end() && err->is_object())
            throw Malformed("an error instead of flights: " + err->value("message", err->dump()));
        throw Malformed("no \"data\" list");
    }
    json out = json::array();
    for (const json& f : *data) {
        if (!f.is_object()) throw Malformed("a \"data\" entry is not an object");
        out.push_back({{"flight", field(f.value("flight", json::object()), "iata")},
                       {"airline", field(f.value("airline", json::object()), "name")},
                       {"date", field(f, "flight_date")},
                       {"status", field(f, "flight_status")},
                       {"departure", end(f.value("departure", json::object()))},
                       {"arrival", end(f.value("arrival", json::object()))}});
    }
    return out;
}

}  // namespace flights
