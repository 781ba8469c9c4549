#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <platform/host/http/http_framing.hpp>

namespace platform::host {

namespace {

constexpr size_t kMaxMethod = 32;           // longer than any method the request parser knows
constexpr size_t kMaxChunkSizeLine = 1024;  // size, extensions and CRLF

// The token characters of RFC 9110 §5.6.2, as a table.
constexpr std::array<bool, 256> kTchar = [] {
    std::array<bool, 256> t{};
    for (int c = '0'; c <= '9'; ++c) t[c] = true;
    for (int c = 'a'; c <= 'z'; ++c) t[c] = t[c - 'a' + 'A'] = true;
    for (char c : std::string_view("!#$%&'*+-.^_`|~")) t[static_cast<unsigned char>(c)] = true;
    return t;
}();

bool tchar(char c) {
    return kTchar[static_cast<unsigned char>(c)];
}

// A byte below `low` (a control character, but a tab when `tab_ok`) or DEL in `s`. Eight bytes
// at a time: a word without such a byte is passed over with a few operations (the value of an
// Authorization field is hundreds of bytes).
bool has_control(std::string_view s, unsigned char low, bool tab_ok) {
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const auto bad = [&](unsigned char c) {
        return (c < low && !(tab_ok && c == '\t')) || c == 0x7f;
    };
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        const uint64_t below = (w - ones * low) & ~w & highs;  // some byte < low (all < 0x80)
        const uint64_t x = w ^ (ones * 0x7f);
        const uint64_t del = (x - ones) & ~x & highs;  // some byte == 0x7f
        if (below | del)
            for (size_t k = i; k < i + 8; ++k)
                if (bad(static_cast<unsigned char>(s[k]))) return true;
    }
    for (; i < s.size(); ++i)
        if (bad(static_cast<unsigned char>(s[i]))) return true;
    return false;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

void fail(Frame& f, int status, std::string message) {
    f.state = Frame::State::error;
    f.status = status;
    f.message = std::move(message);
}

}  // namespace

bool parse_chunk_size(std::string_view line, uint64_t& out) {
    size_t semi = line.find(';');
    std::string_view hex = trim(line.substr(0, semi));
    if (hex.empty() || hex.size() > 15) return false;
    out = 0;
    for (char c : hex) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
        out = out * 16 + static_cast<uint64_t>(std::isdigit(static_cast<unsigned char>(c))
                                                   ? c - '0'
                                                   : (std::tolower(c) - 'a' + 10));
    }
    return true;
}

namespace {

// Each step of frame_request() below returns true to go on, or false when `f` is the answer: an
// error (set by fail()) or incomplete (more bytes are needed).
bool stop(Frame& f, int status, std::string message) {
    fail(f, status, std::move(message));
    return false;
}

std::string too_large(const FrameLimits& limits) {
    return "request larger than " + std::to_string(limits.max_request_bytes) + " bytes";
}

// The empty lines before a request line (RFC 9112 §2.2): their length goes to f.skip.
bool skip_empty_lines(std::string_view in, const FrameLimits& limits, Frame& f) {
    size_t skip = 0;
    for (;;) {
        if (in.substr(skip, 2) == "\r\n")
            skip += 2;
        else if (skip < in.size() && in[skip] == '\n')
            skip += 1;
        else
            break;
        if (skip > limits.max_header_bytes)
            return stop(f, 400, "too many empty lines before the request line");
    }
    f.skip = skip;
    return true;
}

// No whole request line yet. Not a request at all (a TLS handshake, a binary protocol): say so
// now, not after 16 KiB. Always false.
bool partial_request_line(std::string_view b, const FrameLimits& limits, Frame& f) {
    size_t sp = b.find(' ');
    std::string_view m = b.substr(0, sp);
    for (char c : m)
        if (!tchar(c)) return stop(f, 400, "malformed request line: invalid method");
    if (m.size() > kMaxMethod) return stop(f, 400, "malformed request line: method too long");
    if (b.size() > limits.max_header_bytes)
        return stop(
            f, 414,
            "request line longer than " + std::to_string(limits.max_header_bytes) + " bytes");
    return false;
}

// The version of a request line: 1.1 or 1.0; another well-formed one is 505.
bool check_version(std::string_view version, Frame& f) {
    if (version == "HTTP/1.1" || version == "HTTP/1.0") return true;
    if (version.size() == 8 && version.substr(0, 5) == "HTTP/" &&
        std::isdigit(static_cast<unsigned char>(version[5])) && version[6] == '.' &&
        std::isdigit(static_cast<unsigned char>(version[7])))
        return stop(
            f, 505,
            "HTTP version " + std::string(version.substr(5)) + " is not supported (use 1.1)");
    return stop(f, 400, "malformed request line: invalid HTTP version");
}

// The request line, ending at `eol` (its LF): METHOD SP target SP HTTP-version; sets f.method and
// f.target.
bool read_request_line(std::string_view b, size_t eol, const FrameLimits& limits, Frame& f) {
    if (eol == 0 || b[eol - 1] != '\r')
        return stop(f, 400, "malformed request line: lines must end with CRLF");
    const std::string_view line = b.substr(0, eol - 1);
    if (line.size() > limits.max_header_bytes)
        return stop(
            f, 414,
            "request line longer than " + std::to_string(limits.max_header_bytes) + " bytes");
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
        line.find(' ', sp2 + 1) != std::string_view::npos)
        return stop(f, 400, "malformed request line: expected METHOD SP target SP HTTP-version");
    const std::string_view method = line.substr(0, sp1),
                           target = line.substr(sp1 + 1, sp2 - sp1 - 1),
                           version = line.substr(sp2 + 1);
    if (method.empty() || method.size() > kMaxMethod)
        return stop(f, 400, "malformed request line: invalid method");
    for (char c : method)
        if (!tchar(c)) return stop(f, 400, "malformed request line: invalid method");
    if (target.empty()) return stop(f, 400, "malformed request line: empty request target");
    if (has_control(target, 0x21, false))
        return stop(f, 400, "malformed request line: control character in the request target");
    f.method.assign(method);
    f.target.assign(target);
    return check_version(version, f);
}

// What the header fields say about the body.
struct BodyFields {
    bool have_length = false, have_te = false;
    uint64_t length = 0;
    std::string codings;  // every Transfer-Encoding value, comma-separated
    size_t head = 0;      // bytes of the head, up to and with the empty line
};

// The header section has not fully arrived (its fields from `pos` on): over the limits already?
// Always false.
bool partial_header_section(std::string_view b, size_t pos, uint32_t count,
                            const FrameLimits& limits, Frame& f) {
    if (b.size() > limits.max_header_bytes)
        return stop(f, 431,
                    "request header section longer than " +
                        std::to_string(limits.max_header_bytes) + " bytes");
    // Count the whole lines already here, so 10,000 tiny headers fail before they all arrive.
    uint32_t lines = count;
    for (size_t p = pos; (p = b.find('\n', p)) != std::string_view::npos; ++p) ++lines;
    if (lines > limits.max_header_count)
        return stop(
            f, 431,
            "more than " + std::to_string(limits.max_header_count) + " request header fields");
    return false;
}

// A Content-Length value: digits, equal to any earlier one.
bool read_content_length(std::string_view value, const FrameLimits& limits, BodyFields& body,
                         Frame& f) {
    if (value.empty() || value.size() > 19) {
        if (!value.empty() && value.find_first_not_of("0123456789") == std::string_view::npos)
            return stop(f, 413, too_large(limits));
        return stop(f, 400, "invalid Content-Length");
    }
    uint64_t v = 0;
    for (char c : value) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return stop(f, 400, "invalid Content-Length");
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (body.have_length && v != body.length)
        return stop(f, 400, "conflicting Content-Length fields");
    body.have_length = true;
    body.length = v;
    return true;
}

// One header field line (without CRLF) at `begin`: name: value, noting Content-Length and
// Transfer-Encoding, and where it is in f.fields.
bool read_field(std::string_view field, size_t begin, const FrameLimits& limits, BodyFields& body,
                Frame& f) {
    if (field.front() == ' ' || field.front() == '\t')
        return stop(f, 400, "malformed header section: obsolete line folding is not accepted");
    const size_t colon = field.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return stop(f, 400, "malformed header field: expected name: value");
    const std::string_view name = field.substr(0, colon);
    for (char c : name)
        if (!tchar(c))
            return stop(f, 400, "malformed header field name '" + std::string(name) + "'");
    const std::string_view value = trim(field.substr(colon + 1));
    if (has_control(value, 0x20, true))
        return stop(f, 400, "control character in header field " + std::string(name));
    const auto at = [&](std::string_view part) {
        return static_cast<uint32_t>(begin + static_cast<size_t>(part.data() - field.data()));
    };
    f.fields.push_back(FieldSpan{static_cast<uint32_t>(begin), static_cast<uint32_t>(begin + colon),
                                 at(value), at(value) + static_cast<uint32_t>(value.size()),
                                 static_cast<uint32_t>(begin + field.size())});
    if (iequals(name, "content-length")) return read_content_length(value, limits, body, f);
    if (iequals(name, "transfer-encoding")) {
        body.have_te = true;
        if (!body.codings.empty()) body.codings += ",";
        body.codings += std::string(value);
    }
    return true;
}

// The header fields from `pos` (after the request line) up to the empty line; sets body.head.
bool read_header_fields(std::string_view b, size_t pos, const FrameLimits& limits, BodyFields& body,
                        Frame& f) {
    uint32_t count = 0;
    for (;;) {
        const size_t e = b.find('\n', pos);
        if (e == std::string_view::npos) return partial_header_section(b, pos, count, limits, f);
        if (e == pos || b[e - 1] != '\r')
            return stop(f, 400, "malformed header section: lines must end with CRLF");
        const std::string_view field = b.substr(pos, e - 1 - pos);
        const size_t begin = pos;
        pos = e + 1;
        if (pos > limits.max_header_bytes + 2)  // the empty line's CRLF is not counted
            return stop(f, 431,
                        "request header section longer than " +
                            std::to_string(limits.max_header_bytes) + " bytes");
        if (field.empty()) break;
        if (++count > limits.max_header_count)
            return stop(
                f, 431,
                "more than " + std::to_string(limits.max_header_count) + " request header fields");
        if (!read_field(field, begin, limits, body, f)) return false;
    }
    body.head = pos;
    return true;
}

// The codings of Transfer-Encoding: the final one must be chunked (RFC 9112 §6.3), and the
// request parser decodes nothing else.
bool check_codings(std::string_view list, Frame& f) {
    size_t last = list.rfind(',');
    std::string_view final_coding =
        trim(last == std::string_view::npos ? list : list.substr(last + 1));
    if (!iequals(final_coding, "chunked"))
        return stop(f, 400, "Transfer-Encoding must end with chunked");
    if (last != std::string_view::npos)
        return stop(f, 501, "only the chunked transfer coding is supported");
    return true;
}

// After the last chunk (from `p`): trailer fields, then the empty line; completes `f`.
void frame_trailers(std::string_view b, size_t p, const FrameLimits& limits, Frame& f) {
    for (;;) {
        const size_t t = b.find('\n', p);
        if (t == std::string_view::npos) {
            if (b.size() - p > limits.max_header_bytes)
                fail(f, 431,
                     "trailer section longer than " + std::to_string(limits.max_header_bytes) +
                         " bytes");
            return;
        }
        if (t == p || b[t - 1] != '\r')
            return fail(f, 400, "malformed chunked body: lines must end with CRLF");
        const bool empty = t - 1 == p;
        p = t + 1;
        if (p > limits.max_request_bytes) return fail(f, 413, too_large(limits));
        if (empty) break;
    }
    f.state = Frame::State::complete;
    f.length = p;
}

// A chunked body from `head`: chunks up to the last one, then its trailers.
void frame_chunked_body(std::string_view b, size_t head, const FrameLimits& limits, Frame& f) {
    f.chunked = true;
    size_t p = head;
    for (;;) {
        if (p > limits.max_request_bytes) return fail(f, 413, too_large(limits));
        const size_t e = b.find('\n', p);
        if (e == std::string_view::npos) {
            if (b.size() - p > kMaxChunkSizeLine)
                fail(f, 400, "malformed chunked body: chunk size line too long");
            return;
        }
        if (e == p || b[e - 1] != '\r')
            return fail(f, 400, "malformed chunked body: lines must end with CRLF");
        uint64_t size = 0;
        if (!parse_chunk_size(b.substr(p, e - 1 - p), size))
            return fail(f, 400, "malformed chunked body: invalid chunk size");
        p = e + 1;
        if (size == 0) return frame_trailers(b, p, limits, f);
        if (size > limits.max_request_bytes || p + size + 2 > limits.max_request_bytes)
            return fail(f, 413, too_large(limits));
        if (b.size() < p + size + 2) return;
        if (b.substr(p + size, 2) != "\r\n")
            return fail(f, 400, "malformed chunked body: chunk data must end with CRLF");
        p += size + 2;
    }
}

// A body of Content-Length bytes (none without the field) after the head.
void frame_sized_body(std::string_view b, const BodyFields& body, const FrameLimits& limits,
                      Frame& f) {
    f.content_length = body.length;
    if (body.length > limits.max_request_bytes ||
        body.head + body.length > limits.max_request_bytes)
        return fail(f, 413, too_large(limits));
    if (b.size() < body.head + body.length) return;
    f.state = Frame::State::complete;
    f.length = body.head + body.length;
}

}  // namespace

void frame_request(std::string_view in, const FrameLimits& limits, Frame& f) {
    f.state = Frame::State::incomplete;
    f.skip = f.length = f.head = 0;
    f.status = 0;
    f.message.clear();
    f.method.clear();
    f.target.clear();
    f.chunked = false;
    f.content_length = 0;
    f.fields.clear();
    if (!skip_empty_lines(in, limits, f)) return;
    const std::string_view b = in.substr(f.skip);
    const size_t eol = b.find('\n');
    if (eol == std::string_view::npos) {
        partial_request_line(b, limits, f);
        return;
    }
    if (!read_request_line(b, eol, limits, f)) return;
    BodyFields body;
    if (!read_header_fields(b, eol + 1, limits, body, f)) return;
    f.head = body.head;
    if (body.have_te && body.have_length)
        return fail(f, 400, "both Content-Length and Transfer-Encoding (not accepted)");
    if (body.have_te) {
        if (!check_codings(body.codings, f)) return;
        return frame_chunked_body(b, body.head, limits, f);
    }
    frame_sized_body(b, body, limits, f);
}

Frame frame_request(std::string_view in, const FrameLimits& limits) {
    Frame f;
    frame_request(in, limits, f);
    return f;
}

}  // namespace platform::host
