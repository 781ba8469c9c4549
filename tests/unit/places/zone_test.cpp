// Where open_now is evaluated on the London clock: Great Britain and Ireland, not France.
#include <gtest/gtest.h>

#include "../../../plugins/places/places.hpp"

TEST(Zone, BritainAndIrelandAreOnLondonTime) {
    for (auto [lat, lon] : {std::pair{51.5074, -0.1278},
                            {55.9533, -3.1883},
                            {60.15, -1.14},
                            {53.3498, -6.2603},  // Dublin
                            {51.13, 1.31},       // Dover
                            {51.22, 1.40},       // Deal
                            {52.47, 1.75},       // Lowestoft
                            {50.73, 0.24},       // Beachy Head
                            {49.91, -6.31}})     // the Isles of Scilly
        EXPECT_EQ(Places::zone_at({lat, lon}), "Europe/London") << lat << "," << lon;
}

TEST(Zone, ElsewhereIsUnknown) {
    for (auto [lat, lon] : {std::pair{50.95, 1.85},  // Calais
                            {50.72, 1.61},           // Boulogne
                            {49.92, 1.08},           // Dieppe
                            {48.8566, 2.3522},       // Paris
                            {40.7128, -74.0060},     // New York
                            {62.0, -6.8}})           // the Faroes
        EXPECT_EQ(Places::zone_at({lat, lon}), "") << lat << "," << lon;
}
