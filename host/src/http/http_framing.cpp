#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <platform/host/http/http_framing.hpp>

namespace platform::host {

namespace {

constexpr size_t kMaxMethod = 32;           // longer than any method Pistache knows
constexpr size_t kMaxChunkSizeLine = 1024;  // size, extensions and CRLF

bool tchar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c));
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

Frame fail(Frame f, int status, std::string message) {
    f.state = Frame::State::error;
    f.status = status;
    f.message = std::move(message);
    return f;
}

// The size of a chunk-size line (without CRLF): hex digits, then optional extensions.
bool chunk_size(std::string_view line, uint64_t& out) {
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

// Equal contents, in time that depends only on the lengths.
bool constant_time_equal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    volatile unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i) diff = diff | static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

constexpr std::string_view kTlsPrefaceTag = "PLATFORM-TLS ";

}  // namespace

TlsPreface parse_tls_preface(std::string_view in, std::string_view secret) {
    TlsPreface p;
    auto invalid = [&p] {
        p.state = TlsPreface::State::invalid;
        return p;
    };
    // A wrong first byte is refused at once, not after the line would have ended.
    const size_t have = std::min(in.size(), kTlsPrefaceTag.size());
    if (in.substr(0, have) != kTlsPrefaceTag.substr(0, have)) return invalid();
    const size_t eol = in.find("\r\n");
    if (eol == std::string_view::npos) return in.size() >= kMaxTlsPreface ? invalid() : p;
    if (eol + 2 > kMaxTlsPreface || secret.empty()) return invalid();
    std::string_view rest = in.substr(kTlsPrefaceTag.size(), eol - kTlsPrefaceTag.size());
    const size_t sp1 = rest.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : rest.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos || rest.find(' ', sp2 + 1) != std::string_view::npos)
        return invalid();
    const std::string_view given = rest.substr(0, sp1), ip = rest.substr(sp1 + 1, sp2 - sp1 - 1),
                           port = rest.substr(sp2 + 1);
    if (!constant_time_equal(given, secret)) return invalid();
    const std::string ip_text(ip);
    unsigned char addr[sizeof(in6_addr)];
    if (inet_pton(AF_INET, ip_text.c_str(), addr) != 1 &&
        inet_pton(AF_INET6, ip_text.c_str(), addr) != 1)
        return invalid();
    if (port.empty() || port.size() > 5) return invalid();
    int number = 0;
    for (char c : port) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return invalid();
        number = number * 10 + (c - '0');
    }
    if (number > 65535) return invalid();
    p.state = TlsPreface::State::ok;
    p.length = eol + 2;
    p.client_ip = ip_text;
    p.client_port = number;
    return p;
}

std::string tls_preface(std::string_view secret, std::string_view client_ip, int client_port) {
    std::string line(kTlsPrefaceTag);
    line.append(secret)
        .append(" ")
        .append(client_ip)
        .append(" ")
        .append(std::to_string(client_port))
        .append("\r\n");
    return line;
}

Frame frame_request(std::string_view in, const FrameLimits& limits) {
    Frame f;
    size_t skip = 0;  // empty lines before a request line
    for (;;) {
        if (in.substr(skip, 2) == "\r\n")
            skip += 2;
        else if (skip < in.size() && in[skip] == '\n')
            skip += 1;
        else
            break;
        if (skip > limits.max_header_bytes)
            return fail(f, 400, "too many empty lines before the request line");
    }
    f.skip = skip;
    const std::string_view b = in.substr(skip);

    // Request line.
    const size_t eol = b.find('\n');
    if (eol == std::string_view::npos) {
        // Not a request at all (a TLS handshake, a binary protocol): say so now, not after 16 KiB.
        size_t sp = b.find(' ');
        std::string_view m = b.substr(0, sp);
        for (char c : m)
            if (!tchar(c)) return fail(f, 400, "malformed request line: invalid method");
        if (m.size() > kMaxMethod) return fail(f, 400, "malformed request line: method too long");
        if (b.size() > limits.max_header_bytes)
            return fail(
                f, 414,
                "request line longer than " + std::to_string(limits.max_header_bytes) + " bytes");
        return f;
    }
    if (eol == 0 || b[eol - 1] != '\r')
        return fail(f, 400, "malformed request line: lines must end with CRLF");
    const std::string_view line = b.substr(0, eol - 1);
    if (line.size() > limits.max_header_bytes)
        return fail(
            f, 414,
            "request line longer than " + std::to_string(limits.max_header_bytes) + " bytes");
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
        line.find(' ', sp2 + 1) != std::string_view::npos)
        return fail(f, 400, "malformed request line: expected METHOD SP target SP HTTP-version");
    const std::string_view method = line.substr(0, sp1),
                           target = line.substr(sp1 + 1, sp2 - sp1 - 1),
                           version = line.substr(sp2 + 1);
    if (method.empty() || method.size() > kMaxMethod)
        return fail(f, 400, "malformed request line: invalid method");
    for (char c : method)
        if (!tchar(c)) return fail(f, 400, "malformed request line: invalid method");
    if (target.empty()) return fail(f, 400, "malformed request line: empty request target");
    for (char c : target)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
            return fail(f, 400, "malformed request line: control character in the request target");
    f.method = std::string(method);
    f.target = std::string(target);
    if (version != "HTTP/1.1" && version != "HTTP/1.0") {
        if (version.size() == 8 && version.substr(0, 5) == "HTTP/" &&
            std::isdigit(static_cast<unsigned char>(version[5])) && version[6] == '.' &&
            std::isdigit(static_cast<unsigned char>(version[7])))
            return fail(
                f, 505,
                "HTTP version " + std::string(version.substr(5)) + " is not supported (use 1.1)");
        return fail(f, 400, "malformed request line: invalid HTTP version");
    }

    // Header fields, up to the empty line.
    size_t pos = eol + 1;
    uint32_t count = 0;
    bool have_length = false, have_te = false;
    uint64_t length = 0;
    std::string codings;
    for (;;) {
        const size_t e = b.find('\n', pos);
        if (e == std::string_view::npos) {
            if (b.size() > limits.max_header_bytes)
                return fail(f, 431,
                            "request header section longer than " +
                                std::to_string(limits.max_header_bytes) + " bytes");
            // Count the whole lines already here, so 10,000 tiny headers fail before they all arrive.
            uint32_t lines = count;
            for (size_t p = pos; (p = b.find('\n', p)) != std::string_view::npos; ++p) ++lines;
            if (lines > limits.max_header_count)
                return fail(f, 431,
                            "more than " + std::to_string(limits.max_header_count) +
                                " request header fields");
            return f;
        }
        if (e == pos || b[e - 1] != '\r')
            return fail(f, 400, "malformed header section: lines must end with CRLF");
        const std::string_view field = b.substr(pos, e - 1 - pos);
        pos = e + 1;
        if (pos > limits.max_header_bytes + 2)  // the empty line's CRLF is not counted
            return fail(f, 431,
                        "request header section longer than " +
                            std::to_string(limits.max_header_bytes) + " bytes");
        if (field.empty()) break;
        if (++count > limits.max_header_count)
            return fail(
                f, 431,
                "more than " + std::to_string(limits.max_header_count) + " request header fields");
        if (field.front() == ' ' || field.front() == '\t')
            return fail(f, 400, "malformed header section: obsolete line folding is not accepted");
        const size_t colon = field.find(':');
        if (colon == std::string_view::npos || colon == 0)
            return fail(f, 400, "malformed header field: expected name: value");
        const std::string_view name = field.substr(0, colon);
        for (char c : name)
            if (!tchar(c))
                return fail(f, 400, "malformed header field name '" + std::string(name) + "'");
        const std::string_view value = trim(field.substr(colon + 1));
        for (char c : value)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
                return fail(f, 400, "control character in header field " + std::string(name));
        if (iequals(name, "content-length")) {
            if (value.empty() || value.size() > 19) {
                if (!value.empty() &&
                    value.find_first_not_of("0123456789") == std::string_view::npos)
                    return fail(f, 413,
                                "request larger than " + std::to_string(limits.max_request_bytes) +
                                    " bytes");
                return fail(f, 400, "invalid Content-Length");
            }
            uint64_t v = 0;
            for (char c : value) {
                if (!std::isdigit(static_cast<unsigned char>(c)))
                    return fail(f, 400, "invalid Content-Length");
                v = v * 10 + static_cast<uint64_t>(c - '0');
            }
            if (have_length && v != length)
                return fail(f, 400, "conflicting Content-Length fields");
            have_length = true;
            length = v;
        } else if (iequals(name, "transfer-encoding")) {
            have_te = true;
            if (!codings.empty()) codings += ",";
            codings += std::string(value);
        }
    }
    const size_t head = pos;
    if (have_te && have_length)
        return fail(f, 400, "both Content-Length and Transfer-Encoding (not accepted)");

    if (have_te) {
        // The final coding must be chunked (RFC 9112 §6.3); Pistache decodes nothing else.
        std::string_view list = codings;
        size_t last = list.rfind(',');
        std::string_view final_coding =
            trim(last == std::string_view::npos ? list : list.substr(last + 1));
        if (!iequals(final_coding, "chunked"))
            return fail(f, 400, "Transfer-Encoding must end with chunked");
        if (last != std::string_view::npos)
            return fail(f, 501, "only the chunked transfer coding is supported");
        f.chunked = true;
        size_t p = head;
        for (;;) {
            if (p > limits.max_request_bytes)
                return fail(
                    f, 413,
                    "request larger than " + std::to_string(limits.max_request_bytes) + " bytes");
            const size_t e = b.find('\n', p);
            if (e == std::string_view::npos) {
                if (b.size() - p > kMaxChunkSizeLine)
                    return fail(f, 400, "malformed chunked body: chunk size line too long");
                return f;
            }
            if (e == p || b[e - 1] != '\r')
                return fail(f, 400, "malformed chunked body: lines must end with CRLF");
            uint64_t size = 0;
            if (!chunk_size(b.substr(p, e - 1 - p), size))
                return fail(f, 400, "malformed chunked body: invalid chunk size");
            p = e + 1;
            if (size == 0) {  // last chunk: trailer fields, then the empty line
                for (;;) {
                    const size_t t = b.find('\n', p);
                    if (t == std::string_view::npos) {
                        if (b.size() - p > limits.max_header_bytes)
                            return fail(f, 431,
                                        "trailer section longer than " +
                                            std::to_string(limits.max_header_bytes) + " bytes");
                        return f;
                    }
                    if (t == p || b[t - 1] != '\r')
                        return fail(f, 400, "malformed chunked body: lines must end with CRLF");
                    const bool empty = t - 1 == p;
                    p = t + 1;
                    if (p > limits.max_request_bytes)
                        return fail(f, 413,
                                    "request larger than " +
                                        std::to_string(limits.max_request_bytes) + " bytes");
                    if (empty) break;
                }
                f.state = Frame::State::complete;
                f.length = p;
                return f;
            }
            if (size > limits.max_request_bytes || p + size + 2 > limits.max_request_bytes)
                return fail(
                    f, 413,
                    "request larger than " + std::to_string(limits.max_request_bytes) + " bytes");
            if (b.size() < p + size + 2) return f;
            if (b.substr(p + size, 2) != "\r\n")
                return fail(f, 400, "malformed chunked body: chunk data must end with CRLF");
            p += size + 2;
        }
    }

    f.content_length = length;
    if (length > limits.max_request_bytes || head + length > limits.max_request_bytes)
        return fail(f, 413,
                    "request larger than " + std::to_string(limits.max_request_bytes) + " bytes");
    if (b.size() < head + length) return f;
    f.state = Frame::State::complete;
    f.length = head + length;
    return f;
}

}  // namespace platform::host
