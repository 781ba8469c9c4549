// events — time, ids, names and the JSON shape of an event.
#include "codec.hpp"

#include <cctype>
#include <climits>
#include <cmath>
#include <platform/sdk/error.hpp>
#include <platform/sdk/random.hpp>

#include "common/time/time.hpp"

namespace events_service {

std::string rfc3339(int64_t unix_ms) {
    return common::time::format_rfc3339_ms(unix_ms);
}

int64_t parse_rfc3339(std::string_view text, const char* arg) {
    const auto at = common::time::parse_rfc3339(text, common::time::DateTimeSeparator::t_only);
    if (!at)
        throw platform::invalid_argument(std::string(arg) +
                                         ": must be an RFC 3339 date-time such as "
                                         "2026-01-01T10:00:00Z, got '" +
                                         std::string(text.substr(0, 64)) + "'");
    return at->utc_ms();
}

int64_t timestamp_arg(const json& value) {
    int64_t ms = 0;
    if (value.is_string()) {
        ms = parse_rfc3339(value.get_ref<const std::string&>(), "timestamp");
    } else if (value.is_number_integer()) {
        ms = value.get<int64_t>();
    } else if (value.is_number_float() &&
               value.get<double>() ==
                   static_cast<double>(static_cast<int64_t>(value.get<double>()))) {
        ms = static_cast<int64_t>(value.get<double>());
    } else {
        throw platform::invalid_argument(
            "timestamp: must be an RFC 3339 string or integer Unix milliseconds");
    }
    if (ms < 1) throw platform::invalid_argument("timestamp: must be after 1970-01-01T00:00:00Z");
    if (ms > 253402300799999)
        throw platform::invalid_argument("timestamp: must be before year 10000 (RFC 3339)");
    return ms;
}

std::optional<int64_t> integer_arg(const json& args, const char* name, int64_t min, int64_t max) {
    auto it = args.find(name);
    if (it == args.end() || it->is_null()) return std::nullopt;
    int64_t v = 0;
    if (it->is_number_unsigned()) {
        v = it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : it->get<int64_t>();
    } else if (it->is_number_integer()) {
        v = it->get<int64_t>();
    } else if (it->is_number_float() && std::abs(it->get<double>()) < 9e18 &&
               it->get<double>() == static_cast<double>(static_cast<int64_t>(it->get<double>()))) {
        v = static_cast<int64_t>(it->get<double>());
    } else {
        throw platform::invalid_argument(std::string(name) + ": must be an integer");
    }
    if (v < min)
        throw platform::invalid_argument(std::string(name) + ": must be at least " +
                                         std::to_string(min));
    if (v > max)
        throw platform::invalid_argument(std::string(name) + ": must be at most " +
                                         std::to_string(max));
    return v;
}

std::string new_id() {
    return platform::uuid4();
}

void check_name(const json& value, const char* arg) {
    if (!value.is_string())
        throw platform::invalid_argument(std::string(arg) + ": must be a string");
    const auto& s = value.get_ref<const std::string&>();
    if (s.empty()) throw platform::invalid_argument(std::string(arg) + ": must not be empty");
    if (s.size() > 200)
        throw platform::invalid_argument(std::string(arg) + ": must be at most 200 characters");
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            throw platform::invalid_argument(std::string(arg) +
                                             ": may hold only letters, digits, '.', '_' and '-'");
}

json event_json(const platform::Event& e) {
    json payload = json::parse(e.payload, nullptr, false);
    if (payload.is_discarded()) payload = e.payload;  // not JSON: the bytes as a string
    return {{"id", e.id},
            {"topic", e.topic},
            {"offset", e.offset},
            {"timestamp", rfc3339(e.timestamp_ms)},
            {"metadata", e.metadata.is_object() ? e.metadata : json::object()},
            {"payload", std::move(payload)}};
}

}  // namespace events_service
