// platform/host/http/openapi.hpp — the OpenAPI 3.1 document of every served endpoint, generated
// from the plugins' descriptors (the one description drives everything).
//
// Catalogue services appear at /api/v1/<service>/<method> (envelope {"data"} / {"error"}), the
// platform's built-ins at /<service>/<method> (the rpc handler: bare result / gateway error). GET
// endpoints take their arguments as query parameters (typed by the schema) or a JSON body; POST
// endpoints a JSON body. Access levels become security requirements; flags and limits become
// x-platform-* extensions; every error status the gateway can answer is listed.
#pragma once

#include <nlohmann/json.hpp>
#include <platform/host/core/service_registry.hpp>
#include <string>

namespace platform::host {

nlohmann::json openapi_document(const ServiceRegistry& registry, const std::string& version);

// The document as served (GET /api/v1/openapi.json): built again only when the services or their
// plugins changed. Building it takes ~30 ms with every plugin loaded and the URL is public, so
// answering each request anew let slow readers asking it over and over starve the I/O threads
// (tests/integration/slow_clients_test.cpp).
std::string openapi_text(const ServiceRegistry& registry, const std::string& version);

}  // namespace platform::host
