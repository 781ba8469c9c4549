#include <array>
#include <cstring>
#include <platform/host/http/request_parser.hpp>

namespace platform::host {

namespace {

constexpr std::array<std::string_view, 9> kMethods{"GET",  "POST",    "PUT",   "DELETE", "PATCH",
                                                   "HEAD", "OPTIONS", "TRACE", "CONNECT"};

bool blank(char c) {
    return c == ' ' || c == '\t';
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool refuse(ParsedRequest& out, int status, std::string detail) {
    out.error_status = status;
    out.error_detail = std::move(detail);
    return false;
}

bool valid_port(std::string_view p) {
    if (p.empty() || p.size() > 5) return false;
    unsigned v = 0;
    for (char c : p) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<unsigned>(c - '0');
    }
    return v <= 65535;
}

bool tchar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c));
}

// A reg-name or IPv4 character (unreserved, sub-delims, `%` of pct-encoded).
bool host_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != 0 && std::strchr("-._~%!$&'()*+,;=", c));
}

// uri-host [":" port] (RFC 9110 §7.2); the host may be empty.
bool valid_host(std::string_view v) {
    std::string_view host = v, rest;
    const bool literal = !v.empty() && v.front() == '[';
    const size_t end = literal ? v.find(']') : v.find(':');
    if (literal && (end == std::string_view::npos || end == 1)) return false;
    if (end != std::string_view::npos) {
        host = literal ? v.substr(1, end - 1) : v.substr(0, end);
        rest = v.substr(literal ? end + 1 : end);
    }
    for (char c : host)
        if (!host_char(c) && !(literal && c == ':')) return false;
    return rest.empty() || (rest.front() == ':' && valid_port(rest.substr(1)));
}

size_t token_end(std::string_view s, size_t p) {
    while (p < s.size() && tchar(s[p])) ++p;
    return p;
}

// type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] ) (RFC 9110 §8.3.1).
bool valid_media_type(std::string_view v) {
    size_t p = token_end(v, 0);
    if (p == 0 || p == v.size() || v[p] != '/') return false;
    size_t q = token_end(v, p + 1);
    if (q == p + 1) return false;
    for (p = q;;) {
        while (p < v.size() && blank(v[p])) ++p;
        if (p == v.size()) return true;
        if (v[p++] != ';') return false;
        while (p < v.size() && blank(v[p])) ++p;
        if (p == v.size() || v[p] == ';') continue;
        q = token_end(v, p);
        if (q == p || q == v.size() || v[q] != '=') return false;
        p = q + 1;
        if (p < v.size() && v[p] == '"') {
            for (++p; p < v.size() && v[p] != '"'; ++p)
                if (v[p] == '\\') ++p;
            if (p >= v.size()) return false;
            ++p;
        } else {
            q = token_end(v, p);
            if (q == p) return false;
            p = q;
        }
    }
}

// `raw`: the value as sent, only the spaces after the colon skipped. Each cookie up to a `;` needs
// a `=`; blanks after a `;` are skipped.
bool valid_cookie(std::string_view raw) {
    for (size_t p = 0; p < raw.size();) {
        const size_t eq = raw.find('=', p);
        if (eq == std::string_view::npos) return false;
        const size_t semi = raw.find(';', eq + 1);
        if (semi == std::string_view::npos) return true;
        for (p = semi + 1; p < raw.size() && blank(raw[p]);) ++p;
    }
    return true;
}

// The fields whose values are checked here.
enum class Checked { other, host, content_type, cookie, authorization };

Checked checked(std::string_view lower_name) {
    switch (lower_name.size()) {
        case 4:
            return lower_name == "host" ? Checked::host : Checked::other;
        case 6:
            return lower_name == "cookie" ? Checked::cookie : Checked::other;
        case 12:
            return lower_name == "content-type" ? Checked::content_type : Checked::other;
        case 13:
            return lower_name == "authorization" ? Checked::authorization : Checked::other;
        default:
            return Checked::other;
    }
}

// One header field line, where frame_request() found it (it checked its syntax).
bool read_field(std::string_view b, const FieldSpan& s, ParsedRequest& out) {
    if (s.begin >= s.colon || s.colon >= s.end || s.end > b.size() || s.value < s.colon ||
        s.value > s.value_end || s.value_end > s.end)
        return refuse(out, 400, "malformed header field");  // not the frame of these bytes
    std::string name = lower(b.substr(s.begin, s.colon - s.begin));
    std::string_view raw = b.substr(s.colon + 1, s.end - s.colon - 1);
    while (!raw.empty() && raw.front() == ' ') raw.remove_prefix(1);
    const std::string_view value = b.substr(s.value, s.value_end - s.value);  // raw, trimmed
    const Checked kind = checked(name);
    if (kind == Checked::host && !valid_host(value))
        return refuse(out, 400, "invalid Host header field: host, [IPv6] or either with :port");
    if (kind == Checked::content_type && !valid_media_type(value))
        return refuse(out, 415, "invalid Content-Type header field: type/subtype[; name=value]");
    if (kind == Checked::cookie && !valid_cookie(raw))
        return refuse(out, 400, "invalid Cookie header field: a cookie without '='");
    auto [it, inserted] = out.req.headers.try_emplace(std::move(name), value);
    if (!inserted &&
        (kind == Checked::host || kind == Checked::authorization || kind == Checked::content_type))
        return refuse(out, 400, "more than one " + it->first + " header field");
    return true;
}

// The chunks from `p` to the last one; its trailer fields are dropped.
bool read_chunked(std::string_view b, size_t p, ParsedRequest& out) {
    for (;;) {
        const size_t e = b.find('\n', p);
        uint64_t size = 0;
        if (e == std::string_view::npos || e == p ||
            !parse_chunk_size(b.substr(p, e - 1 - p), size))
            return refuse(out, 400, "malformed chunked body");
        p = e + 1;
        if (size == 0) return true;
        if (size > b.size() - p) return refuse(out, 400, "malformed chunked body");
        out.req.body.append(b.substr(p, size));
        p += size + 2;
    }
}

bool parse(std::string_view b, const Frame& f, ParsedRequest& out) {
    bool known = false;
    for (std::string_view m : kMethods) known = known || f.method == m;
    if (!known) return refuse(out, 400, "unknown HTTP request method " + f.method);
    const size_t eol = b.find('\n');
    if (eol == std::string_view::npos || eol < 9) return refuse(out, 400, "malformed request line");
    out.http10 = b.substr(eol - 9, 8) == "HTTP/1.0";
    const std::string_view target = f.target;
    const size_t q = target.find('?');
    out.req.method = f.method;
    out.req.path.assign(target.substr(0, q));
    if (q != std::string::npos) out.req.query.assign(target.substr(q + 1));
    // The header fields where the framing found them: the section is not walked again.
    for (const FieldSpan& field : f.fields)
        if (!read_field(b, field, out)) return false;
    const size_t p = f.head;
    if (p < eol + 3 || p > b.size() || b.substr(p - 2, 2) != "\r\n")
        return refuse(out, 400, "malformed header section");
    if (f.chunked) return read_chunked(b, p, out);
    out.req.body.assign(b.substr(p));
    return true;
}

// Connection: close, or HTTP/1.0 without keep-alive.
bool wants_close(bool http10, const std::string& connection) {
    const std::string c = lower(connection);
    if (c.find("close") != std::string::npos) return true;
    return http10 && c.find("keep-alive") == std::string::npos;
}

}  // namespace

ParsedRequest parse_framed_request(std::string_view framed, const Frame& frame,
                                   size_t max_request_bytes) {
    ParsedRequest out;
    if (framed.size() > max_request_bytes)
        refuse(out, 413, "request larger than " + std::to_string(max_request_bytes) + " bytes");
    else if (parse(framed, frame, out))
        out.close = wants_close(out.http10, out.req.header("connection"));
    if (out.error_status) {
        out.req = HttpRequest{};
        out.http10 = false;
        out.req.method = frame.method;
        out.req.path = frame.target.substr(0, frame.target.find('?'));
    }
    return out;
}

}  // namespace platform::host
