#include "http_wire.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/sdk/text.hpp>
#include <vector>

namespace platform::host {

using namespace Pistache;
using nlohmann::json;

namespace wire {

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string reason(int status) {
    switch (status) {
        case 408:
            return "Request Timeout";
        case 414:
            return "URI Too Long";
        case 505:
            return "HTTP Version Not Supported";
        default:
            return std::string(http_reason(status));
    }
}

HttpResponse error_response(const std::string& id, int status, const std::string& detail) {
    HttpResponse r = gateway_error(id, status, detail);
    if (http_reason(status) == "Error")
        r.body =
            json({{"Id", id}, {"Code", status}, {"Detail", detail}, {"Status", reason(status)}})
                .dump();
    return r;
}

namespace {

char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

bool has_cr_or_lf(std::string_view s) {
    return std::memchr(s.data(), '\r', s.size()) || std::memchr(s.data(), '\n', s.size());
}

// The header names already written, case-insensitively: an open-addressing hash table, so each
// name costs one look-up whatever the number of headers (on the stack up to kInline slots).
class SeenNames {
public:
    explicit SeenNames(size_t names) {
        size_t cap = kInline;
        while (cap < 2 * names) cap *= 2;
        if (cap > kInline) heap_.resize(cap);
        slots_ = cap > kInline ? heap_.data() : inline_.data();
        mask_ = cap - 1;
    }
    // False when a name equal to `name` but for case is already there.
    bool insert(std::string_view name) {
        uint32_t h = 2166136261u;  // FNV-1a over the lower-cased bytes
        for (char c : name) h = (h ^ static_cast<unsigned char>(ascii_lower(c))) * 16777619u;
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            std::string_view& slot = slots_[i];
            if (!slot.data()) {
                slot = name;
                return true;
            }
            if (iequals(slot, name)) return false;
        }
    }

private:
    static constexpr size_t kInline = 32;
    std::array<std::string_view, kInline> inline_{};
    std::vector<std::string_view> heap_;
    std::string_view* slots_;
    size_t mask_;
};

void put_number(std::string& out, uint64_t n) {
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

}  // namespace

std::string wire_bytes(Http::Version version, const HttpResponse& r, bool close) {
    const char* phrase = Http::codeString(static_cast<Http::Code>(r.status));
    const std::string other = *phrase ? std::string() : reason(r.status);
    const std::string_view reason_phrase = *phrase ? std::string_view(phrase) : other;
    size_t size = 96 + reason_phrase.size() + r.content_type.size() + r.body.size();
    for (const auto& [k, v] : r.headers) size += k.size() + v.size() + 4;
    std::string out;
    out.reserve(size);
    out += Http::versionString(version);
    out += ' ';
    put_number(out, static_cast<uint64_t>(r.status));
    out += ' ';
    out += reason_phrase;
    out += close ? "\r\nConnection: Close\r\n" : "\r\nConnection: Keep-Alive\r\n";
    SeenNames seen(r.headers.size() + 3);
    seen.insert("connection");
    seen.insert("content-length");
    auto add = [&](std::string_view name, std::string_view value) {
        if (has_cr_or_lf(name) || has_cr_or_lf(value)) return;  // never a header split into two
        if (!iequals(name, "set-cookie") && !seen.insert(name)) return;
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    };
    for (const auto& [k, v] : r.headers) add(k, v);
    if (!r.content_type.empty()) add("Content-Type", r.content_type);
    out += "Content-Length: ";
    put_number(out, r.body.size());
    out += "\r\n\r\n";
    out += r.body;
    return out;
}

}  // namespace wire

}  // namespace platform::host
