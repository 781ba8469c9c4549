// astronomy — the sun's position and the times it crosses a given altitude, after Jean Meeus,
// "Astronomical Algorithms" (2nd ed.), in the form and the order of operations the adhan library
// (batoulapps/adhan, the JavaScript edition 4.4) uses, so that times computed here agree with
// adhan's to the second before rounding; and the qibla, the great-circle bearing to the Kaaba.
//
// Angles are degrees; times of day are hours from 0h UTC of the date (they may fall below 0 or
// past 24); a time the sun never reaches (the polar day or night, a twilight angle it does not
// sink to) is NaN.
#pragma once

namespace prayer {

// The Julian day of year-month-day plus `hours` (Meeus p. 61, proleptic Gregorian).
double julian_day(int year, int month, int day, double hours = 0);

// The sun's apparent declination and right ascension and the apparent sidereal time at Greenwich
// at the Julian day (Meeus ch. 25, low accuracy, and ch. 12 and 22).
struct SolarCoordinates {
    explicit SolarCoordinates(double julian_day);
    double declination;
    double right_ascension;
    double apparent_sidereal_time;
};

// One date's solar events at a place (latitude north, longitude east).
class SolarTime {
public:
    SolarTime(int year, int month, int day, double latitude, double longitude);

    double transit = 0;  // the sun on the meridian
    double sunrise = 0;  // upper limb on the horizon with refraction: altitude -50'
    double sunset = 0;

    // When the sun's altitude is `angle` (negative: below the horizon), before or after transit
    // (Meeus ch. 15, one iteration of the correction).
    double hour_angle(double angle, bool after_transit) const;
    // Asr: when an object's shadow is `shadow_length` times its height plus its noon shadow
    // (1 for the Shafi'i, Maliki and Hanbali schools, 2 for the Hanafi).
    double afternoon(double shadow_length) const;

private:
    double latitude_, longitude_;
    double approx_transit_;
    SolarCoordinates solar_, prev_, next_;
};

// The initial great-circle bearing from (latitude, longitude) to the Kaaba, in degrees clockwise
// from true north, 0 <= bearing < 360.
double qibla(double latitude, double longitude);

// The Kaaba's position, as adhan has it.
inline constexpr double kMakkahLatitude = 21.4225241;
inline constexpr double kMakkahLongitude = 39.8261818;

}  // namespace prayer
