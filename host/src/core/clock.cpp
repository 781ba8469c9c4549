#include <chrono>
#include <platform/host/core/clock.hpp>

namespace platform::host {

Clock::Clock(bool manual) : manual_(manual), manual_now_(real_now_ms()) {}

int64_t Clock::now_ms() const {
    return manual_ ? manual_now_.load() : real_now_ms();
}

bool Clock::set_ms(int64_t unix_ms) {
    if (!manual_) return false;
    manual_now_.store(unix_ms);
    return true;
}

bool Clock::advance_ms(int64_t delta) {
    if (!manual_) return false;
    manual_now_.fetch_add(delta);
    return true;
}

int64_t Clock::real_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

int64_t Clock::monotonic_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace platform::host
