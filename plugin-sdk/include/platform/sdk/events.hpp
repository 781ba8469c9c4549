// platform/sdk/events.hpp — events of the platform's ordered, persistent streams.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace platform {

struct Event {
    std::string id, topic;
    uint64_t offset = 0;
    int64_t timestamp_ms = 0;
    nlohmann::json metadata = nlohmann::json::object();
    std::string payload;
};

}  // namespace platform
