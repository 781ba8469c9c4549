// clock — test-only: moves the host's manual business clock (profile `clock: manual`) over HTTP.
// /clock/now, /clock/set, /clock/advance. Privileged (uses the "clock" sub-table); on a real
// clock set/advance answer 501.
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

class Clock {
public:
    static void describe(platform::ServiceSpec<Clock>& s) {
        s.id("clock").version("1.0.0").service("clock").summary(
            "Test-only control of the manual business clock");
        s.get("now").title("Current business time").read_only().handler(&Clock::now);
        s.post("set")
            .title("Set business time")
            .description("Sets the manual clock to unix_ms (milliseconds since 1970).")
            .schema(schema::object().integer("unix_ms").min(0).required())
            .handler(&Clock::set);
        s.post("advance")
            .title("Advance business time")
            .description("Moves the manual clock forward by ms milliseconds.")
            .schema(schema::object().integer("ms").min(0).max(31622400000).required())
            .handler(&Clock::advance);
    }

    explicit Clock(const platform::Host& host)
        : host_(host), table_(host.service<platform_clock_api_t>(PLATFORM_SERVICE_CLOCK, 1)) {
        if (!table_) throw platform::unavailable("clock needs the privileged clock sub-table");
    }

    json now(platform::Request&) {
        return {{"unix_ms", host_.now_ms()}, {"manual", table_->is_manual(host_.ctx())}};
    }

    json set(platform::Request& r) {
        platform::check(table_->set_ms(host_.ctx(), r["unix_ms"].get<int64_t>()),
                        "the clock is real: set needs clock: manual");
        return now(r);
    }

    json advance(platform::Request& r) {
        platform::check(table_->advance_ms(host_.ctx(), r["ms"].get<int64_t>()),
                        "the clock is real: advance needs clock: manual");
        return now(r);
    }

private:
    platform::Host host_;
    const platform_clock_api_t* table_;
};

PLATFORM_SERVICE(Clock)
