#include "elevation.hpp"

#include <cmath>
#include <common/upstream/upstream.hpp>

namespace places {

using common::upstream::Malformed;
using nlohmann::json;

std::string elevation_path(Point p) {
    return "/v1/elevation" +
           common::upstream::Query().num("latitude", p.lat).num("longitude", p.lon).text();
}

double parse_elevation(const json& body) {
    if (!body.is_object()) throw Malformed("an answer that is not an object");
    auto it = body.find("elevation");
    if (it == body.end() || !it->is_array()) throw Malformed("an answer without 'elevation'");
    if (it->empty()) throw Malformed("'elevation' is empty");
    const json& v = (*it)[0];
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw Malformed("'elevation' is not a number: " + v.dump());
    return v.get<double>();
}

double tenths(double v) {
    return std::round(v * 10.0) / 10.0;
}

double feet_of(double metres) {
    return tenths(metres / kMetresPerFoot);
}

}  // namespace places
