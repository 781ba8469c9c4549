#include "airports.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

namespace flights {

namespace {

// Positions are the aerodrome reference points, rounded to four decimals.
const Airport kAirports[] = {
    {"LHR", "EGLL", "London Heathrow", "London", 51.4700, -0.4543},
    {"LGW", "EGKK", "London Gatwick", "London", 51.1537, -0.1821},
    {"STN", "EGSS", "London Stansted", "London", 51.8860, 0.2389},
    {"LTN", "EGGW", "London Luton", "London", 51.8747, -0.3683},
    {"LCY", "EGLC", "London City", "London", 51.5053, 0.0553},
    {"MAN", "EGCC", "Manchester", "Manchester", 53.3537, -2.2750},
    {"BHX", "EGBB", "Birmingham", "Birmingham", 52.4539, -1.7480},
    {"EDI", "EGPH", "Edinburgh", "Edinburgh", 55.9500, -3.3725},
    {"GLA", "EGPF", "Glasgow", "Glasgow", 55.8719, -4.4331},
    {"BRS", "EGGD", "Bristol", "Bristol", 51.3827, -2.7191},
    {"NCL", "EGNT", "Newcastle", "Newcastle", 55.0375, -1.6917},
    {"LPL", "EGGP", "Liverpool John Lennon", "Liverpool", 53.3336, -2.8497},
    {"BFS", "EGAA", "Belfast International", "Belfast", 54.6575, -6.2158},
    {"DUB", "EIDW", "Dublin", "Dublin", 53.4213, -6.2701},
    {"CDG", "LFPG", "Paris Charles de Gaulle", "Paris", 49.0097, 2.5479},
    {"ORY", "LFPO", "Paris Orly", "Paris", 48.7262, 2.3652},
    {"AMS", "EHAM", "Amsterdam Schiphol", "Amsterdam", 52.3105, 4.7683},
    {"FRA", "EDDF", "Frankfurt", "Frankfurt", 50.0379, 8.5622},
    {"MUC", "EDDM", "Munich", "Munich", 48.3538, 11.7861},
    {"BER", "EDDB", "Berlin Brandenburg", "Berlin", 52.3667, 13.5033},
    {"MAD", "LEMD", "Madrid Barajas", "Madrid", 40.4983, -3.5676},
    {"BCN", "LEBL", "Barcelona El Prat", "Barcelona", 41.2974, 2.0833},
    {"FCO", "LIRF", "Rome Fiumicino", "Rome", 41.8003, 12.2389},
    {"MXP", "LIMC", "Milan Malpensa", "Milan", 45.6306, 8.7281},
    {"ZRH", "LSZH", "Zurich", "Zurich", 47.4647, 8.5492},
    {"VIE", "LOWW", "Vienna", "Vienna", 48.1103, 16.5697},
    {"CPH", "EKCH", "Copenhagen", "Copenhagen", 55.6180, 12.6508},
    {"ARN", "ESSA", "Stockholm Arlanda", "Stockholm", 59.6498, 17.9238},
    {"OSL", "ENGM", "Oslo Gardermoen", "Oslo", 60.1976, 11.1004},
    {"HEL", "EFHK", "Helsinki", "Helsinki", 60.3172, 24.9633},
    {"LIS", "LPPT", "Lisbon", "Lisbon", 38.7742, -9.1342},
    {"IST", "LTFM", "Istanbul", "Istanbul", 41.2753, 28.7519},
    {"DXB", "OMDB", "Dubai International", "Dubai", 25.2532, 55.3657},
    {"DOH", "OTHH", "Doha Hamad", "Doha", 25.2731, 51.6081},
    {"JFK", "KJFK", "New York John F. Kennedy", "New York", 40.6413, -73.7781},
    {"EWR", "KEWR", "Newark Liberty", "Newark", 40.6895, -74.1745},
    {"LGA", "KLGA", "New York LaGuardia", "New York", 40.7769, -73.8740},
    {"BOS", "KBOS", "Boston Logan", "Boston", 42.3656, -71.0096},
    {"IAD", "KIAD", "Washington Dulles", "Washington", 38.9531, -77.4565},
    {"ORD", "KORD", "Chicago O'Hare", "Chicago", 41.9742, -87.9073},
    {"ATL", "KATL", "Atlanta Hartsfield-Jackson", "Atlanta", 33.6407, -84.4277},
    {"DFW", "KDFW", "Dallas/Fort Worth", "Dallas", 32.8998, -97.0403},
    {"DEN", "KDEN", "Denver", "Denver", 39.8561, -104.6737},
    {"LAX", "KLAX", "Los Angeles", "Los Angeles", 33.9416, -118.4085},
    {"SFO", "KSFO", "San Francisco", "San Francisco", 37.6213, -122.3790},
    {"SEA", "KSEA", "Seattle-Tacoma", "Seattle", 47.4502, -122.3088},
    {"MIA", "KMIA", "Miami", "Miami", 25.7959, -80.2870},
    {"YYZ", "CYYZ", "Toronto Pearson", "Toronto", 43.6777, -79.6248},
    {"YVR", "CYVR", "Vancouver", "Vancouver", 49.1967, -123.1815},
    {"MEX", "MMMX", "Mexico City", "Mexico City", 19.4361, -99.0719},
    {"GRU", "SBGR", "Sao Paulo Guarulhos", "Sao Paulo", -23.4356, -46.4731},
    {"JNB", "FAOR", "Johannesburg O. R. Tambo", "Johannesburg", -26.1367, 28.2411},
    {"DEL", "VIDP", "Delhi Indira Gandhi", "Delhi", 28.5562, 77.1000},
    {"BOM", "VABB", "Mumbai Chhatrapati Shivaji Maharaj", "Mumbai", 19.0896, 72.8656},
    {"SIN", "WSSS", "Singapore Changi", "Singapore", 1.3644, 103.9915},
    {"HKG", "VHHH", "Hong Kong", "Hong Kong", 22.3080, 113.9185},
    {"PEK", "ZBAA", "Beijing Capital", "Beijing", 40.0799, 116.6031},
    {"PVG", "ZSPD", "Shanghai Pudong", "Shanghai", 31.1443, 121.8083},
    {"ICN", "RKSI", "Seoul Incheon", "Seoul", 37.4602, 126.4407},
    {"HND", "RJTT", "Tokyo Haneda", "Tokyo", 35.5494, 139.7798},
    {"NRT", "RJAA", "Tokyo Narita", "Tokyo", 35.7720, 140.3929},
    {"SYD", "YSSY", "Sydney Kingsford Smith", "Sydney", -33.9399, 151.1753},
    {"MEL", "YMML", "Melbourne", "Melbourne", -37.6690, 144.8410},
};

// IATA airline designator -> ICAO (the callsign prefix ADS-B carries).
const char* const kAirlines[][2] = {
    {"BA", "BAW"}, {"U2", "EZY"}, {"FR", "RYR"}, {"LH", "DLH"}, {"AF", "AFR"}, {"KL", "KLM"},
    {"AA", "AAL"}, {"DL", "DAL"}, {"UA", "UAL"}, {"EK", "UAE"}, {"QR", "QTR"}, {"EI", "EIN"},
    {"VS", "VIR"}, {"LS", "EXS"}, {"W6", "WZZ"}, {"IB", "IBE"}, {"VY", "VLG"}, {"SK", "SAS"},
    {"AY", "FIN"}, {"LX", "SWR"}, {"OS", "AUA"}, {"TK", "THY"}, {"SQ", "SIA"}, {"CX", "CPA"},
    {"QF", "QFA"}, {"AC", "ACA"}, {"WN", "SWA"}, {"B6", "JBU"}, {"AS", "ASA"}, {"NH", "ANA"},
    {"JL", "JAL"}, {"EY", "ETD"}, {"TP", "TAP"}, {"SN", "BEL"}, {"LO", "LOT"}, {"AZ", "ITY"},
    {"DY", "NAX"}, {"LM", "LOG"}, {"BY", "TOM"}, {"EW", "EWG"},
};

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool contains(const char* hay, const std::string& upper_needle) {
    return upper(hay).find(upper_needle) != std::string::npos;
}

}  // namespace

std::optional<Airport> find_airport(const std::string& text) {
    const std::string t = upper(text);
    if (t.empty()) return std::nullopt;
    for (const Airport& a : kAirports)
        if (t == a.iata || t == a.icao) return a;
    for (const Airport& a : kAirports)
        if (contains(a.name, t) || contains(a.city, t)) return a;
    return std::nullopt;
}

std::string icao_airline(const std::string& iata) {
    const std::string t = upper(iata);
    for (const auto& row : kAirlines)
        if (t == row[0]) return row[1];
    return "";
}

std::size_t airport_count() {
    return std::size(kAirports);
}

}  // namespace flights
