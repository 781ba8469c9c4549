// The conformance fixture's binary payloads, base64: the smallest valid files of their kind.
#pragma once

namespace conformance {

// A 1x1 red PNG (8-bit RGB), 69 bytes.
inline constexpr const char* kRedPixelPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC";

// A WAV of one silent sample (PCM, mono, 8 bit, 8 kHz), 45 bytes.
inline constexpr const char* kSilentWav =
    "UklGRiUAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQEAAACA";

}  // namespace conformance
