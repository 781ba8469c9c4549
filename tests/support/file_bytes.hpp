// file_bytes.hpp — the bytes of files tests upload or expect back: base64 text (RFC 4648, with
// padding, the SDK's) and structurally valid PNG and JPEG files of any size, as the images and
// files plugins check them (the pixel data is filler: nothing decodes it).
//
//   api.post_json("/api/v1/images/upload", {{"data", base64(png(640, 480))}}, bearer("alice"));
//
// Header-only and pure; shared by the unit and the integration tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <platform/sdk/text.hpp>
#include <string>

namespace platform::test {

// Standard base64 with padding, as the SDK writes it.
inline std::string base64(const std::string& bytes) {
    return platform::base64_encode(bytes);
}

// The CRC-32 of a PNG chunk (ISO 3309, as zlib computes it).
inline uint32_t png_crc(const std::string& s) {
    uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : s) {
        c ^= b;
        for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

// `v` as four big-endian bytes.
inline std::string be32(uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

// A PNG chunk: length, type, data and CRC.
inline std::string png_chunk(const std::string& type, const std::string& data) {
    return be32(uint32_t(data.size())) + type + data + be32(png_crc(type + data));
}

// A structurally valid PNG of `w` x `h` (8-bit greyscale) with an IDAT of `idat` filler bytes.
inline std::string png(uint32_t w, uint32_t h, size_t idat = 16) {
    return std::string("\x89PNG\r\n\x1a\n", 8) +
           png_chunk("IHDR", be32(w) + be32(h) + std::string("\x08\x00\x00\x00\x00", 5)) +
           png_chunk("IDAT", std::string(idat, 'x')) + png_chunk("IEND", "");
}

// A structurally valid baseline JPEG of `w` x `h` (one component; SOF0, SOS, a few bytes of
// entropy-coded filler with a stuffed 0xFF and a restart marker, EOI).
inline std::string jpeg(uint16_t w, uint16_t h) {
    std::string sof = {'\xFF',  '\xC0', 0, 11,   8, char(h >> 8), char(h), char(w >> 8),
                       char(w), 1,      1, 0x11, 0};
    std::string sos = {'\xFF', '\xDA', 0, 8, 1, 1, 0, 0, 63, 0};
    return std::string("\xFF\xD8\xFF\xE0\x00\x04JF", 8) + sof + sos +
           std::string("\x12\xFF\x00\x34\xFF\xD0\x56", 7) + "\xFF\xD9";
}

}  // namespace platform::test
