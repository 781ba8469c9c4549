// eventually.hpp — waiting on a condition in a test: polls `condition` every 50 ms until it is
// true or `seconds` pass, and answers its last value. The poll interval only paces the checks;
// what the test waits for is the condition, never the time.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace platform::test {

inline bool eventually(const std::function<bool()>& condition, int seconds = 30) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (condition()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return condition();
}

}  // namespace platform::test
