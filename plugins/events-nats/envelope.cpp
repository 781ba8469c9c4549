// events-nats — the stored envelope and the hex names of topics.
#include "envelope.hpp"

#include <cstring>

namespace events_nats {

namespace {

constexpr std::string_view kMagic = "PE1";

void put_le(std::string& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
bool get_le(std::string_view& in, int bytes, uint64_t& v) {
    if (in.size() < static_cast<size_t>(bytes)) return false;
    v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= static_cast<uint64_t>(static_cast<unsigned char>(in[static_cast<size_t>(i)]))
             << (8 * i);
    in.remove_prefix(static_cast<size_t>(bytes));
    return true;
}
bool get_bytes(std::string_view& in, std::string_view& out) {
    uint64_t n = 0;
    if (!get_le(in, 4, n) || in.size() < n) return false;
    out = in.substr(0, n);
    in.remove_prefix(n);
    return true;
}

}  // namespace

std::string encode(const Envelope& e) {
    std::string out;
    out.reserve(kMagic.size() + 16 + e.id.size() + e.metadata.size() + e.payload.size());
    out.append(kMagic);
    put_le(out, e.id.size(), 4);
    out.append(e.id);
    put_le(out, static_cast<uint64_t>(e.timestamp_ms), 8);
    put_le(out, e.metadata.size(), 4);
    out.append(e.metadata);
    out.append(e.payload);
    return out;
}

bool decode(std::string_view data, Envelope& out) {
    if (data.substr(0, kMagic.size()) != kMagic) return false;
    data.remove_prefix(kMagic.size());
    uint64_t ts = 0;
    if (!get_bytes(data, out.id) || !get_le(data, 8, ts) || !get_bytes(data, out.metadata))
        return false;
    out.timestamp_ms = static_cast<int64_t>(ts);
    out.payload = data;
    return true;
}

std::string hex(std::string_view bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 15]);
    }
    return out;
}

bool unhex(std::string_view text, std::string& out) {
    auto val = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    if (text.size() % 2) return false;
    out.clear();
    for (size_t i = 0; i < text.size(); i += 2) {
        int hi = val(text[i]), lo = val(text[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out.push_back(static_cast<char>(hi * 16 + lo));
    }
    return true;
}

}  // namespace events_nats
