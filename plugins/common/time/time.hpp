// common/time/time.hpp — dates and times for plugins: RFC 3339 text, civil (calendar) dates,
// IANA time zones read from the system's tz database, and repeating series across DST changes.
// Built on Howard Hinnant's date/tz (Debian: libhowardhinnant-date-dev, built to read
// /usr/share/zoneinfo); its headers stay out of these ones.
//
// Link it explicitly: platform_add_plugin(<name> SOURCES ... LIBS platform_common_time) with
// CMake, `'dependencies': [common_time_dep]` in the plugin's plugin_defs entry with meson.
//
// Instants are Unix seconds (int64_t, UTC) unless a name says milliseconds; "local" seconds are
// the same count read on a zone's wall clock (seconds since 1970-01-01 00:00 as if local were
// UTC); offsets are seconds east of UTC. Every function may be called from any thread.
#pragma once

#include "common/time/civil.hpp"
#include "common/time/repeat.hpp"
#include "common/time/rfc3339.hpp"
#include "common/time/time_zone.hpp"
