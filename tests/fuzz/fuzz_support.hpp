// fuzz_support.hpp — small helpers shared by the fuzz targets of tests/fuzz (README.md).
//
// A target is `extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t)`. It catches the
// exceptions the code under test documents (a parse error, an invalid-argument error) and lets
// everything else escape, so that an unexpected exception type ends in std::terminate — an abort
// libFuzzer and the replay driver both report. Invariants the code promises (an HTTP status
// below 500, a reply sent exactly once) are checked with FUZZ_CHECK, which aborts with a message.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

// Aborts with the failed condition and a message when `cond` is false (a finding).
#define FUZZ_CHECK(cond, message)                                                              \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  %s\n", __FILE__, __LINE__, \
                         #cond, std::string(message).c_str());                                 \
            std::abort();                                                                      \
        }                                                                                      \
    } while (0)

namespace fuzz {

inline std::string_view text(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Splits on '\n' (a trailing "\r" stays part of the line); the text after the last '\n' is a line
// too when not empty.
inline std::vector<std::string> lines(std::string_view s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        size_t j = s.find('\n', i);
        if (j == std::string_view::npos) j = s.size();
        out.emplace_back(s.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

// FUZZ_VERBOSE=1 in the environment: the targets print what they send and get (corpus work).
inline bool verbose() {
    static const bool on = std::getenv("FUZZ_VERBOSE") != nullptr;
    return on;
}

// Where scratch files go: $TMPDIR (tests/fuzz/run points it into its scratch folder, so a crash
// leaves nothing behind), else /tmp.
inline std::string temp_dir() {
    const char* t = std::getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

// The first line and the rest after its '\n' ("" when there is none).
inline std::pair<std::string_view, std::string_view> first_line(std::string_view s) {
    size_t nl = s.find('\n');
    if (nl == std::string_view::npos) return {s, {}};
    return {s.substr(0, nl), s.substr(nl + 1)};
}

}  // namespace fuzz
