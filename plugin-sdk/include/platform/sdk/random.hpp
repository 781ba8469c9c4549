// platform/sdk/random.hpp — the one random source for ids, tokens, nonces and secrets.
//
// Everything that must not be guessed — MCP session ids, grant ids, event ids, request ids,
// UUIDs, operator tokens — takes its bytes from the kernel's CSPRNG (getrandom(2)), here, in the
// host and in plugins alike. std::mt19937 stays only where predictability does not matter (which
// node a proxied call goes to, a counter's starting point).
//
//   platform::random_hex(16)        32 lower-case hex digits (128 bits)
//   platform::random_base64url(32)  43 characters, no padding (256 bits)
//   platform::uuid4()               "0f8b5c2e-4c1d-4a7e-9b3f-2d6e8a1c0b7d" (RFC 9562 version 4)
#pragma once

#include <sys/random.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <platform/sdk/text.hpp>
#include <stdexcept>
#include <string>

namespace platform {

// Fills `out` with `n` bytes from getrandom(2); throws std::runtime_error if the kernel refuses.
inline void random_bytes(void* out, size_t n) {
    auto* p = static_cast<unsigned char*>(out);
    for (size_t got = 0; got < n;) {
        const ssize_t r = ::getrandom(p + got, n - got, 0);
        if (r > 0)
            got += static_cast<size_t>(r);
        else if (r < 0 && errno != EINTR)
            throw std::runtime_error("getrandom failed");
    }
}

// `bytes` random bytes as 2 × bytes lower-case hex digits.
inline std::string random_hex(size_t bytes) {
    static const char* hex = "0123456789abcdef";
    std::string raw(bytes, '\0'), out;
    random_bytes(raw.data(), bytes);
    out.reserve(bytes * 2);
    for (unsigned char b : raw) out += {hex[b >> 4], hex[b & 15]};
    return out;
}

// `bytes` random bytes as unpadded base64url (ceil(bytes * 4 / 3) characters).
inline std::string random_base64url(size_t bytes) {
    std::string raw(bytes, '\0');
    random_bytes(raw.data(), bytes);
    return base64url_encode(raw);
}

// A version 4 UUID (122 random bits) in its 36-character form.
inline std::string uuid4() {
    std::string h = random_hex(16);
    h[12] = '4';                                                          // version 4
    h[16] = "89ab"[(h[16] <= '9' ? h[16] - '0' : h[16] - 'a' + 10) & 3];  // variant 10
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
           "-" + h.substr(20);
}

// "<prefix>-<12 hex digits of now_ms>-<6 hex digits of a counter>" ("ev-0191a2b3c4d5-8f3e01"):
// unique within the process and time-ordered — newer ids sort after older ones, which listing
// cursors rely on. The counter starts at a random value, so two processes rarely collide.
inline std::string time_ordered_id(const std::string& prefix, int64_t now_ms) {
    static std::atomic<uint32_t> counter{[] {
        uint32_t seed = 0;
        random_bytes(&seed, sizeof seed);
        return seed;
    }()};
    char buf[40];
    std::snprintf(buf, sizeof buf, "-%012llx-%06x", static_cast<unsigned long long>(now_ms),
                  counter.fetch_add(1) & 0xffffff);
    return prefix + buf;
}

}  // namespace platform
