#include "astronomy.hpp"

#include <cmath>

namespace prayer {

namespace {

constexpr double kPi = 3.14159265358979323846;

double rad(double degrees) {
    return degrees * kPi / 180.0;
}
double deg(double radians) {
    return radians * 180.0 / kPi;
}
double normalize(double num, double max) {
    return num - max * std::floor(num / max);
}
double unwind(double angle) {
    return normalize(angle, 360.0);
}
// An angle brought into -180..180 (JavaScript's Math.round: halves round up).
double quadrant_shift(double angle) {
    if (angle >= -180 && angle <= 180) return angle;
    return angle - 360 * std::floor(angle / 360 + 0.5);
}

double julian_century(double jd) {
    return (jd - 2451545.0) / 36525;
}
// Meeus ch. 25: the geometric mean longitude of the sun, referred to the mean equinox of the date.
double mean_solar_longitude(double t) {
    return unwind(280.4664567 + 36000.76983 * t + 0.0003032 * std::pow(t, 2));
}
// Meeus ch. 22: the mean longitude of the moon.
double mean_lunar_longitude(double t) {
    return unwind(218.3165 + 481267.8813 * t);
}
// Meeus ch. 22: the longitude of the ascending node of the moon's mean orbit.
double ascending_lunar_node_longitude(double t) {
    return unwind(125.04452 - 1934.136261 * t + 0.0020708 * std::pow(t, 2) +
                  std::pow(t, 3) / 450000);
}
// Meeus ch. 25: the mean anomaly of the sun.
double mean_solar_anomaly(double t) {
    return unwind(357.52911 + 35999.05029 * t - 0.0001537 * std::pow(t, 2));
}
// Meeus ch. 25: the sun's equation of the centre.
double solar_equation_of_the_center(double t, double mean_anomaly) {
    const double m = rad(mean_anomaly);
    const double term1 = (1.914602 - 0.004817 * t - 0.000014 * std::pow(t, 2)) * std::sin(m);
    const double term2 = (0.019993 - 0.000101 * t) * std::sin(2 * m);
    const double term3 = 0.000289 * std::sin(3 * m);
    return term1 + term2 + term3;
}
// Meeus ch. 25: the apparent longitude of the sun, referred to the true equinox of the date.
double apparent_solar_longitude(double t, double mean_longitude) {
    const double longitude =
        mean_longitude + solar_equation_of_the_center(t, mean_solar_anomaly(t));
    const double omega = 125.04 - 1934.136 * t;
    return unwind(longitude - 0.00569 - 0.00478 * std::sin(rad(omega)));
}
// Meeus ch. 22: the mean obliquity of the ecliptic (IAU).
double mean_obliquity_of_the_ecliptic(double t) {
    return 23.439291 - 0.013004167 * t - 0.0000001639 * std::pow(t, 2) +
           0.0000005036 * std::pow(t, 3);
}
// Meeus ch. 25: the obliquity corrected for the apparent position of the sun.
double apparent_obliquity_of_the_ecliptic(double t, double mean_obliquity) {
    const double o = 125.04 - 1934.136 * t;
    return mean_obliquity + 0.00256 * std::cos(rad(o));
}
// Meeus ch. 12: the mean sidereal time at Greenwich.
double mean_sidereal_time(double t) {
    const double jd = t * 36525 + 2451545.0;
    const double theta = 280.46061837 + 360.98564736629 * (jd - 2451545) +
                         0.000387933 * std::pow(t, 2) - std::pow(t, 3) / 38710000;
    return unwind(theta);
}
// Meeus ch. 22: nutation in longitude and in obliquity (the four-term series).
double nutation_in_longitude(double l0, double lp, double omega) {
    return -17.2 / 3600 * std::sin(rad(omega)) - 1.32 / 3600 * std::sin(2 * rad(l0)) -
           0.23 / 3600 * std::sin(2 * rad(lp)) + 0.21 / 3600 * std::sin(2 * rad(omega));
}
double nutation_in_obliquity(double l0, double lp, double omega) {
    return 9.2 / 3600 * std::cos(rad(omega)) + 0.57 / 3600 * std::cos(2 * rad(l0)) +
           0.1 / 3600 * std::cos(2 * rad(lp)) - 0.09 / 3600 * std::cos(2 * rad(omega));
}
// Meeus ch. 13: the altitude of a body of declination delta at local hour angle h.
double altitude_of_celestial_body(double phi, double delta, double h) {
    const double term1 = std::sin(rad(phi)) * std::sin(rad(delta));
    const double term2 = std::cos(rad(phi)) * std::cos(rad(delta)) * std::cos(rad(h));
    return deg(std::asin(term1 + term2));
}
// Meeus ch. 3: interpolation from three tabular values, n the fraction of the interval.
double interpolate(double y2, double y1, double y3, double n) {
    const double a = y2 - y1;
    const double b = y3 - y2;
    const double c = b - a;
    return y2 + n / 2 * (a + b + n * c);
}
double interpolate_angles(double y2, double y1, double y3, double n) {
    const double a = unwind(y2 - y1);
    const double b = unwind(y3 - y2);
    const double c = b - a;
    return y2 + n / 2 * (a + b + n * c);
}
// Meeus ch. 15: the approximate transit as a fraction of the day, and its correction in hours.
double approximate_transit(double longitude, double sidereal, double ascension) {
    return normalize((ascension + longitude * -1 - sidereal) / 360, 1);
}

}  // namespace

double julian_day(int year, int month, int day, double hours) {
    const double y = month > 2 ? year : year - 1;
    const double m = month > 2 ? month : month + 12;
    const double d = day + hours / 24;
    const double a = std::trunc(y / 100);
    const double b = std::trunc(2 - a + std::trunc(a / 4));
    const double i0 = std::trunc(365.25 * (y + 4716));
    const double i1 = std::trunc(30.6001 * (m + 1));
    return i0 + i1 + d + b - 1524.5;
}

SolarCoordinates::SolarCoordinates(double jd) {
    const double t = julian_century(jd);
    const double l0 = mean_solar_longitude(t);
    const double lp = mean_lunar_longitude(t);
    const double omega = ascending_lunar_node_longitude(t);
    const double lambda = rad(apparent_solar_longitude(t, l0));
    const double theta0 = mean_sidereal_time(t);
    const double d_psi = nutation_in_longitude(l0, lp, omega);
    const double d_epsilon = nutation_in_obliquity(l0, lp, omega);
    const double epsilon0 = mean_obliquity_of_the_ecliptic(t);
    const double epsilon = rad(apparent_obliquity_of_the_ecliptic(t, epsilon0));
    // Meeus p. 165 (declination, right ascension) and p. 88 (apparent sidereal time).
    declination = deg(std::asin(std::sin(epsilon) * std::sin(lambda)));
    right_ascension =
        unwind(deg(std::atan2(std::cos(epsilon) * std::sin(lambda), std::cos(lambda))));
    apparent_sidereal_time = theta0 + d_psi * 3600 * std::cos(rad(epsilon0 + d_epsilon)) / 3600;
}

SolarTime::SolarTime(int year, int month, int day, double latitude, double longitude)
    : latitude_(latitude),
      longitude_(longitude),
      approx_transit_(0),
      solar_(julian_day(year, month, day, 0)),
      prev_(julian_day(year, month, day, 0) - 1),
      next_(julian_day(year, month, day, 0) + 1) {
    approx_transit_ =
        approximate_transit(longitude, solar_.apparent_sidereal_time, solar_.right_ascension);
    const double m0 = approx_transit_;
    const double lw = longitude * -1;
    const double theta = unwind(solar_.apparent_sidereal_time + 360.985647 * m0);
    const double a = unwind(interpolate_angles(solar_.right_ascension, prev_.right_ascension,
                                               next_.right_ascension, m0));
    const double h = quadrant_shift(theta - lw - a);
    transit = (m0 + h / -360) * 24;
    const double solar_altitude = -50.0 / 60.0;
    sunrise = hour_angle(solar_altitude, false);
    sunset = hour_angle(solar_altitude, true);
}

double SolarTime::hour_angle(double angle, bool after_transit) const {
    const double m0 = approx_transit_;
    const double h0 = angle;
    const double d2 = solar_.declination;
    const double lw = longitude_ * -1;
    const double term1 = std::sin(rad(h0)) - std::sin(rad(latitude_)) * std::sin(rad(d2));
    const double term2 = std::cos(rad(latitude_)) * std::cos(rad(d2));
    const double big_h0 = deg(std::acos(term1 / term2));
    const double m = after_transit ? m0 + big_h0 / 360 : m0 - big_h0 / 360;
    const double theta = unwind(solar_.apparent_sidereal_time + 360.985647 * m);
    const double a = unwind(interpolate_angles(solar_.right_ascension, prev_.right_ascension,
                                               next_.right_ascension, m));
    const double delta = interpolate(d2, prev_.declination, next_.declination, m);
    const double h = theta - lw - a;
    const double altitude = altitude_of_celestial_body(latitude_, delta, h);
    const double term3 = altitude - h0;
    const double term4 = 360 * std::cos(rad(delta)) * std::cos(rad(latitude_)) * std::sin(rad(h));
    return (m + term3 / term4) * 24;
}

double SolarTime::afternoon(double shadow_length) const {
    const double tangent = std::fabs(latitude_ - solar_.declination);
    const double inverse = shadow_length + std::tan(rad(tangent));
    return hour_angle(deg(std::atan(1.0 / inverse)), true);
}

double qibla(double latitude, double longitude) {
    // "Spherical Trigonometry for the use of colleges and schools" (Todhunter), p. 50.
    const double term1 = std::sin(rad(kMakkahLongitude) - rad(longitude));
    const double term2 = std::cos(rad(latitude)) * std::tan(rad(kMakkahLatitude));
    const double term3 = std::sin(rad(latitude)) * std::cos(rad(kMakkahLongitude) - rad(longitude));
    return unwind(deg(std::atan2(term1, term2 - term3)));
}

}  // namespace prayer
