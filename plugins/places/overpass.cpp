#include "overpass.hpp"

#include <charconv>
#include <common/upstream/upstream.hpp>

namespace places {

using common::upstream::Malformed;
using nlohmann::json;

namespace {

std::string number(double v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string kinds_regex() {
    std::string out;
    for (const char* k : kKindTags) out += (out.empty() ? "" : "|") + std::string(k);
    return out;
}

// The string tag `name`, or "" when absent.
std::string tag(const json& tags, const char* name) {
    auto it = tags.find(name);
    return it != tags.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "12 High Street, London SW1A 1AA" from addr:* tags, or "".
std::string address_of(const json& tags) {
    std::string street = tag(tags, "addr:street");
    const std::string number = tag(tags, "addr:housenumber");
    if (!number.empty() && !street.empty()) street = number + " " + street;
    std::string place = tag(tags, "addr:city");
    const std::string postcode = tag(tags, "addr:postcode");
    if (!postcode.empty()) place += (place.empty() ? "" : " ") + postcode;
    if (street.empty()) return place;
    return place.empty() ? street : street + ", " + place;
}

}  // namespace

std::string overpass_literal(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (std::string_view(".[]{}()*+?^$|\\").find(c) != std::string_view::npos) {
            out += "\\\\";  // a backslash for the regex, escaped for the string
            out += c == '\\' ? std::string("\\\\") : std::string(1, c);
        } else if (c == '"') {
            out += "\\\"";
        } else if (c == '\n' || c == '\r' || c == '\t') {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

std::string nearby_ql(Point at, double radius_m, const std::string& query, int max) {
    const std::string around =
        "(around:" + number(radius_m) + "," + number(at.lat) + "," + number(at.lon) + ")";
    std::string filter;
    if (query.empty())
        filter = "[name][~\"^(" + kinds_regex() + ")$\"~\".\"]";
    else
        filter =
            "[~\"^(name|cuisine|" + kinds_regex() + ")$\"~\"" + overpass_literal(query) + "\",i]";
    return "[out:json][timeout:25];nwr" + around + filter + ";out center " + std::to_string(max) +
           ";";
}

std::vector<json> parse_elements(const json& body) {
    if (!body.is_object()) throw Malformed("an answer that is not an object");
    if (body.contains("remark") && body["remark"].is_string()) {
        const std::string remark = body["remark"].get<std::string>();
        if (remark.find("error") != std::string::npos) throw Malformed("remark: " + remark);
    }
    auto it = body.find("elements");
    if (it == body.end() || !it->is_array()) throw Malformed("an answer without 'elements'");
    std::vector<json> out;
    for (const auto& e : *it) {
        if (!e.is_object()) throw Malformed("an element that is not an object");
        const json* where = &e;
        if (!e.contains("lat") && e.contains("center")) where = &e["center"];
        if (!where->is_object() || !where->contains("lat") || !where->contains("lon")) continue;
        const json tags = e.value("tags", json::object());
        if (!tags.is_object()) throw Malformed("tags that are not an object");
        json p = json::object();
        const std::string name = tag(tags, "name");
        p["name"] = name.empty() ? json(nullptr) : json(name);
        for (const char* k : kKindTags) {
            const std::string v = tag(tags, k);
            if (!v.empty()) {
                p["category"] = k;
                p["type"] = v;
                break;
            }
        }
        p["lat"] = where->at("lat").get<double>();
        p["lon"] = where->at("lon").get<double>();
        p["osm"] =
            e.at("type").get<std::string>() + "/" + std::to_string(e.at("id").get<int64_t>());
        for (const char* k : {"opening_hours", "cuisine", "website"}) {
            const std::string v = tag(tags, k);
            if (!v.empty()) p[k] = v;
        }
        std::string phone = tag(tags, "phone");
        if (phone.empty()) phone = tag(tags, "contact:phone");
        if (!phone.empty()) p["phone"] = phone;
        const std::string address = address_of(tags);
        if (!address.empty()) p["address"] = address;
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace places
