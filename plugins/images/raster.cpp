#include "raster.hpp"

#include <algorithm>
#include <array>

namespace images {

namespace {

uint32_t be32(const std::string& b, size_t at) {
    return (uint32_t(uint8_t(b[at])) << 24) | (uint32_t(uint8_t(b[at + 1])) << 16) |
           (uint32_t(uint8_t(b[at + 2])) << 8) | uint8_t(b[at + 3]);
}
uint32_t be16(const std::string& b, size_t at) {
    return (uint32_t(uint8_t(b[at])) << 8) | uint8_t(b[at + 1]);
}
uint32_t le16(const std::string& b, size_t at) {
    return uint8_t(b[at]) | (uint32_t(uint8_t(b[at + 1])) << 8);
}

uint32_t crc32(const std::string& b, size_t at, size_t n) {
    static const auto table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = at; i < at + n; ++i) c = table[(c ^ uint8_t(b[i])) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

Checked fail(std::string why) {
    return {std::nullopt, std::move(why)};
}

Checked png(const std::string& b) {
    Raster r{"image/png"};
    size_t at = 8, idat = 0;
    for (bool first = true;; first = false) {
        if (at + 12 > b.size()) return fail("truncated PNG: no IEND chunk");
        const uint32_t len = be32(b, at);
        const std::string type = b.substr(at + 4, 4);
        if (len > 0x7FFFFFFFu || at + 12 + len > b.size())
            return fail("truncated PNG: chunk " + type + " runs past the end");
        if (crc32(b, at + 4, 4 + len) != be32(b, at + 8 + len))
            return fail("corrupt PNG: bad CRC in chunk " + type);
        if (first) {
            if (type != "IHDR" || len != 13)
                return fail("corrupt PNG: IHDR is not the first chunk");
            r.width = be32(b, at + 8);
            r.height = be32(b, at + 12);
            const int depth = uint8_t(b[at + 16]), colour = uint8_t(b[at + 17]);
            const bool ok_depth =
                colour == 0 ? (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)
                : colour == 3
                    ? (depth == 1 || depth == 2 || depth == 4 || depth == 8)
                    : (colour == 2 || colour == 4 || colour == 6) && (depth == 8 || depth == 16);
            if (!r.width || !r.height || r.width > 0x7FFFFFFFu || r.height > 0x7FFFFFFFu ||
                !ok_depth || b[at + 18] != 0 || b[at + 19] != 0 || uint8_t(b[at + 20]) > 1)
                return fail("corrupt PNG: invalid IHDR");
        } else if (type == "IHDR") {
            return fail("corrupt PNG: a second IHDR");
        }
        if (type == "IDAT") ++idat;
        at += 12 + len;
        if (type == "IEND") {
            if (!idat) return fail("corrupt PNG: no image data (IDAT)");
            if (at != b.size()) return fail("corrupt PNG: data after IEND");
            return {r, ""};
        }
    }
}

bool sof(uint8_t m) {
    return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

Checked jpeg(const std::string& b) {
    Raster r{"image/jpeg"};
    size_t at = 2;
    bool frame = false;
    while (true) {
        if (at + 2 > b.size()) return fail("truncated JPEG: no EOI marker");
        if (uint8_t(b[at]) != 0xFF)
            return fail("corrupt JPEG: expected a marker at byte " + std::to_string(at));
        while (at + 1 < b.size() && uint8_t(b[at + 1]) == 0xFF) ++at;  // fill bytes
        if (at + 2 > b.size()) return fail("truncated JPEG: no EOI marker");
        const uint8_t m = uint8_t(b[at + 1]);
        at += 2;
        if (m == 0xD9) return fail("corrupt JPEG: EOI before the image data");
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) continue;
        if (m == 0xD8 || m == 0x00) return fail("corrupt JPEG: unexpected marker");
        if (at + 2 > b.size()) return fail("truncated JPEG: no EOI marker");
        const uint32_t len = be16(b, at);
        if (len < 2 || at + len > b.size())
            return fail("truncated JPEG: a segment runs past the end");
        if (sof(m)) {
            if (len < 8) return fail("corrupt JPEG: short frame header");
            r.height = be16(b, at + 3);
            r.width = be16(b, at + 5);
            if (!r.width || !r.height) return fail("corrupt JPEG: the frame has no size");
            frame = true;
        }
        at += len;
        if (m != 0xDA) continue;
        if (!frame) return fail("corrupt JPEG: image data before the frame header");
        // Entropy-coded data up to the next marker that is not a stuffed byte, restart or fill.
        while (true) {
            if (at + 1 >= b.size()) return fail("truncated JPEG: no EOI marker");
            if (uint8_t(b[at]) != 0xFF) {
                ++at;
                continue;
            }
            const uint8_t next = uint8_t(b[at + 1]);
            if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) {
                at += 2;
            } else if (next == 0xFF) {
                ++at;
            } else if (next == 0xD9) {
                if (at + 2 != b.size()) return fail("corrupt JPEG: data after EOI");
                return {r, ""};
            } else {
                break;  // another segment (progressive scans, tables)
            }
        }
    }
}

Checked gif(const std::string& b) {
    Raster r{"image/gif"};
    if (b.size() < 13) return fail("truncated GIF: no logical screen");
    r.width = le16(b, 6);
    r.height = le16(b, 8);
    size_t at = 13;
    if (uint8_t(b[10]) & 0x80) at += 3u << ((uint8_t(b[10]) & 7) + 1);
    auto sub_blocks = [&]() {
        while (at < b.size()) {
            const uint8_t n = uint8_t(b[at++]);
            if (!n) return true;
            at += n;
        }
        return false;
    };
    int frames = 0;
    while (true) {
        if (at >= b.size()) return fail("truncated GIF: no trailer");
        const uint8_t block = uint8_t(b[at++]);
        if (block == 0x3B) {
            if (!frames) return fail("corrupt GIF: no image");
            if (at != b.size()) return fail("corrupt GIF: data after the trailer");
            if (!r.width || !r.height) return fail("corrupt GIF: the screen has no size");
            return {r, ""};
        }
        if (block == 0x21) {
            if (++at > b.size() || !sub_blocks())
                return fail("truncated GIF: an extension runs past the end");
        } else if (block == 0x2C) {
            if (at + 9 > b.size())
                return fail("truncated GIF: an image descriptor runs past the end");
            r.width = std::max<uint32_t>(r.width, le16(b, at) + le16(b, at + 4));
            r.height = std::max<uint32_t>(r.height, le16(b, at + 2) + le16(b, at + 6));
            const uint8_t flags = uint8_t(b[at + 8]);
            at += 9;
            if (flags & 0x80) at += 3u << ((flags & 7) + 1);
            if (at >= b.size()) return fail("truncated GIF: image data runs past the end");
            const uint8_t code_size = uint8_t(b[at++]);
            if (code_size < 1 || code_size > 11) return fail("corrupt GIF: invalid LZW code size");
            if (!sub_blocks()) return fail("truncated GIF: image data runs past the end");
            ++frames;
        } else {
            return fail("corrupt GIF: unknown block at byte " + std::to_string(at - 1));
        }
    }
}

}  // namespace

std::optional<std::string> base64_decode(const std::string& text) {
    if (text.rfind("data:", 0) != 0) return platform::base64_decode(text);
    auto comma = text.find(',');
    if (comma == std::string::npos || comma < 12 || text.compare(comma - 7, 7, ";base64") != 0)
        return std::nullopt;
    return platform::base64_decode(text.substr(comma + 1));
}

Checked inspect(const std::string& b) {
    if (b.size() >= 8 && b.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) == 0) return png(b);
    if (b.size() >= 3 && uint8_t(b[0]) == 0xFF && uint8_t(b[1]) == 0xD8 && uint8_t(b[2]) == 0xFF)
        return jpeg(b);
    if (b.size() >= 6 && (b.compare(0, 6, "GIF87a") == 0 || b.compare(0, 6, "GIF89a") == 0))
        return gif(b);
    return fail("not a PNG, JPEG or GIF image");
}

}  // namespace images
