// rail.hpp — a British station board from the Rail Data Marketplace's Live Departure Board REST
// API (LDBWS 2022-01-20 in JSON: GetDepBoardWithDetails / GetArrBoardWithDetails/{crs} ->
// {locationName, crs, generatedAt, nrccMessages, trainServices: [{std|sta, etd|eta, platform,
// operator, origin: [{locationName, crs}], destination: [...], isCancelled, cancelReason,
// delayReason, serviceID}], busServices}).
#pragma once

#include <nlohmann/json.hpp>

namespace transit {

// The board as {station: {name, crs}, generated_at, board: "departures"|"arrivals", services:
// [{scheduled, expected, platform, operator, origin, destination, cancelled, cancel_reason,
// delay_reason, id, bus}], messages: [text]}; `arrivals` picks sta/eta over std/etd. Throws
// common::upstream::Malformed when the body has no crs, or trainServices/busServices is there but
// not a list.
nlohmann::json parse_board(const nlohmann::json& body, bool arrivals);

}  // namespace transit
