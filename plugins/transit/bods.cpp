#include "bods.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "common/upstream/upstream.hpp"

namespace transit {

using common::upstream::Malformed;

namespace {

bool named(const xmlNode* n, const char* name) {
    return n && n->type == XML_ELEMENT_NODE &&
           std::strcmp(reinterpret_cast<const char*>(n->name), name) == 0;
}

const xmlNode* child(const xmlNode* parent, const char* name) {
    if (!parent) return nullptr;
    for (const xmlNode* c = parent->children; c; c = c->next)
        if (named(c, name)) return c;
    return nullptr;
}

std::string text(const xmlNode* n) {
    if (!n) return "";
    std::unique_ptr<xmlChar, void (*)(void*)> t(xmlNodeGetContent(n), xmlFree);
    std::string s = t ? reinterpret_cast<const char*>(t.get()) : "";
    auto space = [](unsigned char c) { return std::isspace(c) != 0; };
    s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
    s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
    return s;
}

std::optional<double> number(const xmlNode* n) {
    const std::string s = text(n);
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

}  // namespace

std::vector<Bus> parse_siri_vm(const std::string& xml) {
    static std::once_flag init;
    std::call_once(init, [] { xmlInitParser(); });
    // No network, no entity expansion, no messages on stderr; a broken document is refused.
    std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc(
        xmlReadMemory(xml.data(), static_cast<int>(xml.size()), "siri-vm.xml", nullptr,
                      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
        xmlFreeDoc);
    if (!doc) throw Malformed("the SIRI-VM answer is not well-formed XML");
    const xmlNode* root = xmlDocGetRootElement(doc.get());
    if (!named(root, "Siri")) throw Malformed("the XML's root is not Siri");
    const xmlNode* delivery = child(root, "ServiceDelivery");
    if (!delivery) throw Malformed("no Siri/ServiceDelivery");
    std::vector<Bus> out;
    for (const xmlNode* vmd = delivery->children; vmd; vmd = vmd->next) {
        if (!named(vmd, "VehicleMonitoringDelivery")) continue;
        for (const xmlNode* va = vmd->children; va; va = va->next) {
            if (!named(va, "VehicleActivity")) continue;
            const xmlNode* mvj = child(va, "MonitoredVehicleJourney");
            const xmlNode* loc = child(mvj, "VehicleLocation");
            auto lat = number(child(loc, "Latitude")), lon = number(child(loc, "Longitude"));
            if (!lat || !lon || std::abs(*lat) > 90 || std::abs(*lon) > 180) continue;
            Bus b;
            b.lat = *lat;
            b.lon = *lon;
            b.recorded_at = text(child(va, "RecordedAtTime"));
            b.line = text(child(mvj, "PublishedLineName"));
            if (b.line.empty()) b.line = text(child(mvj, "LineRef"));
            b.direction = text(child(mvj, "DirectionRef"));
            b.operator_ref = text(child(mvj, "OperatorRef"));
            b.destination = text(child(mvj, "DestinationName"));
            b.vehicle = text(child(mvj, "VehicleRef"));
            b.bearing = number(child(mvj, "Bearing"));
            out.push_back(std::move(b));
        }
    }
    return out;
}

double distance_km(double lat1, double lon1, double lat2, double lon2) {
    constexpr double kRad = M_PI / 180.0, kEarthKm = 6371.0088;
    const double dlat = (lat2 - lat1) * kRad, dlon = (lon2 - lon1) * kRad;
    const double h =
        std::sin(dlat / 2) * std::sin(dlat / 2) +
        std::cos(lat1 * kRad) * std::cos(lat2 * kRad) * std::sin(dlon / 2) * std::sin(dlon / 2);
    return 2 * kEarthKm * std::asin(std::min(1.0, std::sqrt(h)));
}

}  // namespace transit
