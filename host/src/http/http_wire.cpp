#include "http_wire.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/sdk/text.hpp>
#include <sstream>
#include <vector>

namespace platform::host {

using namespace Pistache;
using nlohmann::json;

namespace wire {

namespace {

using platform::lower;

// Wants the connection closed: Connection: close, or HTTP/1.0 without keep-alive.
bool wants_close(Http::Version version, const std::string& connection) {
    std::string c = lower(connection);
    if (c.find("close") != std::string::npos) return true;
    if (version == Http::Version::Http10) return c.find("keep-alive") == std::string::npos;
    return false;
}

// The query is the request target's raw text after '?': Pistache's query map keeps one value per
// name (the first) in no order, which lost repeated keys (tags=a&tags=b, ids[]=1&ids[]=2) and
// turned a bare `?verbose` into `verbose=` (query.hpp gives each its meaning).
HttpRequest convert(const Http::Request& in, std::string_view target) {
    HttpRequest out;
    out.method = Http::methodString(in.method());
    out.path = in.resource();
    out.body = in.body();
    for (const auto& h : in.headers().list()) {
        std::ostringstream os;
        h->write(os);
        out.headers[lower(h->name())] = os.str();
    }
    for (const auto& [name, raw] : in.headers().rawList()) out.headers[lower(name)] = raw.value();
    const size_t q = target.find('?');
    out.query = q == std::string_view::npos ? "" : std::string(target.substr(q + 1));
    return out;
}

}  // namespace

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

ParsedRequest parse_framed(Http::RequestParser& parser, std::string_view framed, const Frame& f,
                           size_t max_size) {
    ParsedRequest out;
    parser.reset();
    try {
        if (!parser.feed(framed.data(), framed.size())) {
            out.error_status = 413;
            out.error_detail = "request larger than " + std::to_string(max_size) + " bytes";
        } else if (parser.parse() != Http::Private::State::Done) {
            out.error_status = 400;
            out.error_detail = "malformed request";
        } else {
            out.req = convert(parser.request, f.target);
            out.http10 = parser.request.version() == Http::Version::Http10;
            out.close = wants_close(parser.request.version(), out.req.header("connection"));
        }
    } catch (const Http::HttpError& e) {
        out.error_status = e.code();
        out.error_detail = e.reason();
    } catch (const std::exception& e) {
        out.error_status = 400;
        out.error_detail = e.what();
    }
    if (out.error_status) {
        out.req = HttpRequest{};
        out.req.method = f.method;
        out.req.path = f.target.substr(0, f.target.find('?'));
    }
    parser.reset();
    return out;
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

std::string wire_bytes(Http::Version version, const HttpResponse& r, bool close) {
    std::string out =
        std::string(Http::versionString(version)) + " " + std::to_string(r.status) + " ";
    const char* phrase = Http::codeString(static_cast<Http::Code>(r.status));
    out += *phrase ? phrase : reason(r.status);
    out += close ? "\r\nConnection: Close\r\n" : "\r\nConnection: Keep-Alive\r\n";
    std::vector<std::string> seen{"connection", "content-length"};
    auto add = [&](const std::string& name, const std::string& value) {
        if (name.find_first_of("\r\n") != std::string::npos ||
            value.find_first_of("\r\n") != std::string::npos)
            return;  // never a header split into two
        const std::string key = lower(name);
        if (key != "set-cookie") {
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
            seen.push_back(key);
        }
        out += name + ": " + value + "\r\n";
    };
    for (const auto& [k, v] : r.headers) add(k, v);
    if (!r.content_type.empty()) add("Content-Type", r.content_type);
    out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n";
    return out + r.body;
}

}  // namespace wire

ParsedRequest parse_framed_request(std::string_view framed, const Frame& frame,
                                   size_t max_request_bytes) {
    Http::RequestParser parser(max_request_bytes);
    return wire::parse_framed(parser, framed, frame, max_request_bytes);
}

}  // namespace platform::host
