// fake_upstream.hpp — public data APIs on loopback for the external-data services' tests: each
// provider's base URL is a prefix of one server, and each path answers from a fixture file under
// tests/fixtures/<provider>/ (the upstream's real format, built from its published documentation;
// a SOURCE file beside them says where each came from).
//
//   FakeUpstream up;
//   up.serve("/open-meteo/v1/forecast", FakeUpstream::fixture("open-meteo", "forecast.json"));
//   o.profile = test_profile_with(dir + "/p.yaml", up.outbound_yaml({{"open-meteo"}}));
//   ... GET /api/v1/weather/forecast?lat=51.5&lon=-0.12 ...
//   EXPECT_EQ(up.requests("/open-meteo/v1/forecast").size(), 1u);
//   EXPECT_EQ(up.requests("/open-meteo/v1/forecast")[0].param("latitude"), "51.5");
//
// A path is answered by its route whatever the query, unless a route "path?k=v" (one or more
// parameters joined by &) matches: that one is preferred when the request has each parameter with
// that (percent-decoded) value — how one path answers metadata and, with ?alt=media, content; a path with no route is answered 404 with a
// body naming it, and recorded like any other request, so a test that forgot a route fails with a
// clear message. Routes can be replaced at any time (serve again). One thread per connection,
// Connection: close; the destructor stops and joins everything. Built on
// tests/unit/outbound/loopback_server.hpp.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace platform::test {

class LoopbackServer;

class FakeUpstream {
public:
    // How one path answers. `hang` never answers (timeout tests).
    struct Route {
        int status = 200;
        std::string body;
        std::string content_type = "application/json";
        std::vector<std::pair<std::string, std::string>> headers;  // e.g. Cache-Control
        bool hang = false;
    };

    // One request the server received.
    struct Request {
        std::string method, path, query, body;       // path without the query; query without '?'
        std::map<std::string, std::string> headers;  // lower-case names
        std::string header(const std::string& lower_name) const;
        // The query parameter `name`, percent-decoded ("" when absent).
        std::string param(const std::string& name) const;
    };

    // A provider as outbound_yaml writes it: its base URL is url("/<name>").
    struct Entry {
        Entry(std::string n, std::string key = {}, std::string header = {}, bool required = false)
            : name(std::move(n)),
              api_key(std::move(key)),
              api_key_header(std::move(header)),
              key_required(required) {}
        std::string name;
        std::string api_key;         // empty: none
        std::string api_key_header;  // "?app_key", "X-Key", "Authorization: Bearer"
        bool key_required = false;
    };

    FakeUpstream();
    ~FakeUpstream();
    FakeUpstream(const FakeUpstream&) = delete;
    FakeUpstream& operator=(const FakeUpstream&) = delete;

    // "http://127.0.0.1:<port>" + suffix.
    std::string url(const std::string& suffix = "") const;
    // "127.0.0.1:<port>", the entry for outbound.allow.
    std::string allow_entry() const;
    // The profile's `outbound:` section: this server allowed, each entry a provider at url("/<name>"),
    // and outbound.timeout_ms, also each provider's timeout_ms (short, so that timeout tests end
    // quickly even for a plugin that asks for minutes).
    std::string outbound_yaml(const std::vector<Entry>& providers, int timeout_ms = 1500) const;

    // Answers requests to `path` (any method, any query) with `route` from now on.
    void serve(const std::string& path, Route route);

    // Every request so far to `path`, in arrival order; all requests with an empty path.
    std::vector<Request> requests(const std::string& path = "") const;
    // Forgets the recorded requests (routes stay).
    void forget();

    // ---- routes ----------------------------------------------------------------------------
    // The bytes of tests/fixtures/<provider>/<file> (throws when missing).
    static std::string fixture_text(const std::string& provider, const std::string& file);
    // The fixture as the answer, with `content_type` (JSON unless told).
    static Route fixture(const std::string& provider, const std::string& file,
                         const std::string& content_type = "application/json", int status = 200);
    static Route status(int code, std::string body = "",
                        std::string content_type = "application/json");
    static Route hang();

private:
    std::string answer(const std::string& method, const std::string& target,
                       const std::map<std::string, std::string>& headers, const std::string& body);

    mutable std::mutex m_;
    std::map<std::string, Route> routes_;
    std::vector<Request> requests_;
    std::unique_ptr<LoopbackServer> server_;  // last: destroyed (joined) first
};

}  // namespace platform::test
