// platform/host/core/clock.hpp — business time: real, or manual for tests (profile `clock:`).
// TTLs, token expiry, due dates and reminders read this clock; timeouts and deadlines use the
// monotonic clock instead (monotonic_ms).
#pragma once

#include <atomic>
#include <cstdint>

namespace platform::host {

class Clock {
public:
    explicit Clock(bool manual);
    bool manual() const { return manual_; }
    int64_t now_ms() const;        // Unix milliseconds
    bool set_ms(int64_t unix_ms);  // false on a real clock
    bool advance_ms(int64_t delta);

    static int64_t real_now_ms();
    static int64_t monotonic_ms();

private:
    bool manual_;
    std::atomic<int64_t> manual_now_;
};

}  // namespace platform::host
