// raster — what an uploaded image is, read from its bytes alone: base64 decoding and a structural
// check of PNG, JPEG and GIF files (no image library; nothing is decompressed).
//
//   PNG  signature, IHDR first (13 bytes: non-zero size, a valid bit depth / colour type pair),
//        every chunk's CRC-32, at least one IDAT, IEND last with nothing after it.
//   JPEG SOI, marker segments with consistent lengths up to a SOFn frame header (size) and SOS,
//        entropy-coded data, and EOI as the last two bytes.
//   GIF  "GIF87a"/"GIF89a", logical screen (size) and global colour table, then extension blocks
//        and image descriptors (each inside the screen) with their data sub-blocks, up to the
//        0x3B trailer as the last byte.
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk/text.hpp>
#include <string>

namespace images {

struct Raster {
    std::string type;  // image/png, image/jpeg, image/gif
    uint32_t width = 0, height = 0;
};

// Standard base64 (RFC 4648 §4; padding optional, whitespace ignored); nullopt when malformed.
// A "data:<type>;base64," prefix is accepted and dropped.
std::optional<std::string> base64_decode(const std::string& text);
using platform::base64_encode;  // platform/sdk/text.hpp

// The image in `bytes`, or an error message saying what is wrong ("not a PNG, JPEG or GIF",
// "truncated PNG: no IEND chunk", ...).
struct Checked {
    std::optional<Raster> raster;
    std::string error;
};
Checked inspect(const std::string& bytes);

}  // namespace images
