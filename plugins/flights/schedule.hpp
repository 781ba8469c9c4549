// schedule.hpp — flight schedules and their times from a configured schedule provider in the
// AviationStack format (GET /v1/flights?flight_iata=&arr_iata=|dep_iata= ->
// {"data": [{flight_date, flight_status, departure: {airport, iata, scheduled, estimated, actual},
// arrival: {...}, airline: {name}, flight: {iata}}]}).
#pragma once

#include <nlohmann/json.hpp>

namespace flights {

// The flights of a schedule body as {flight, airline, date, status, departure: {airport, iata,
// scheduled, estimated, actual}, arrival: {...}} (absent values null). Throws
// common::upstream::Malformed when there is no "data" list (an AviationStack error object names
// its error in the message) or an entry is not an object.
nlohmann::json parse_schedule(const nlohmann::json& body);

}  // namespace flights
