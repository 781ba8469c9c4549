// bods.hpp — bus positions from the Bus Open Data Service's SIRI-VM feed (England): the XML
// Siri/ServiceDelivery/VehicleMonitoringDelivery/VehicleActivity elements, read with libxml2
// (namespaces ignored: elements are matched by local name).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace transit {

struct Bus {
    std::string vehicle, line, direction, operator_ref, destination, recorded_at;
    double lat = 0, lon = 0;
    std::optional<double> bearing;
    double distance_km = 0;  // from the point asked about (set by the service)
};

// Every VehicleActivity of a SIRI-VM document with a readable position (others are skipped).
// Throws common::upstream::Malformed when the text is not well-formed XML, its root is not Siri,
// or it has no ServiceDelivery.
std::vector<Bus> parse_siri_vm(const std::string& xml);

// Great-circle distance in kilometres.
double distance_km(double lat1, double lon1, double lat2, double lon2);

}  // namespace transit
