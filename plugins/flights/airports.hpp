// airports.hpp — the airports flights/airport and flights/overhead's `near` know without a
// geocoder: a small embedded table of major airports (IATA and ICAO codes, name, city, position
// to about 100 m), and the IATA airline designators the ADS-B callsigns use in ICAO form.
#pragma once

#include <optional>
#include <string>

namespace flights {

struct Airport {
    const char* iata;
    const char* icao;
    const char* name;
    const char* city;
    double lat, lon;
};

// The airport with this IATA or ICAO code (any case), or else the first in the table whose name or
// city contains `text` (any case; the table lists the busiest airport of a city first); nullopt
// when none does.
std::optional<Airport> find_airport(const std::string& text);

// The ICAO designator of the airline with this IATA designator ("BA" -> "BAW"); "" when the table
// lacks it.
std::string icao_airline(const std::string& iata);

// How many airports the table holds (the README and the descriptions say so).
std::size_t airport_count();

}  // namespace flights
