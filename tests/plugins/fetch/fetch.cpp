// fetch — test-only: exposes the host's outbound HTTP client (host table http_fetch) over HTTP,
// so integration tests can drive the SSRF guard, the operator allow-list and provider base URLs
// through the real host. POST /fetch/get {url, provider?, operator?, method?, body?, headers?,
// no_redirects?, timeout_ms?, max_response_bytes?} → {status, body, headers, error, final_url};
// a failed fetch is the host's status code (403, 503, 408, 413, 502...) with its error text.
#include <cstddef>
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

class Fetch {
public:
    static void describe(platform::ServiceSpec<Fetch>& s) {
        s.id("fetch").version("1.0.0").service("fetch").summary(
            "Test-only access to the host's outbound HTTP client");
        s.post("get")
            .title("Fetch a URL through the host")
            .description(
                "Fetches url through the host's outbound client. operator: true marks it an "
                "operator-configured upstream (checked against outbound.allow); provider joins url "
                "to "
                "providers.<name>.base_url.")
            .schema(schema::object()
                        .str("url")
                        .min_len(1)
                        .required()
                        .str("provider")
                        .boolean("operator")
                        .str("method")
                        .str("body")
                        .prop("headers", schema::any_object())
                        .boolean("no_redirects")
                        .integer("timeout_ms")
                        .min(0)
                        .integer("max_response_bytes")
                        .min(0))
            .handler(&Fetch::get);
    }

    explicit Fetch(const platform::Host& host) : host_(host) {}

    json get(platform::Request& r) {
        const platform_host_api_t* api = host_.api();
        if (!PLATFORM_HAS_FIELD(platform_host_api_t, api, http_fetch) || !api->http_fetch)
            throw platform::Error(platform::Code::unsupported,
                                  "this host has no http_fetch (ABI 1.2)");
        const std::string url = r.str("url"), provider = r.str("provider"),
                          method = r.str("method"), body = r.str("body");
        const auto& args = r.args();
        const std::string headers =
            args.contains("headers") ? args["headers"].dump() : std::string();
        platform_http_request_t req{};
        req.struct_size = sizeof req;
        req.url = platform::view(url);
        req.provider = platform::view(provider);
        req.method = platform::view(method);
        req.body = platform::view(body);
        req.headers_json = platform::view(headers);
        if (args.value("operator", false)) req.flags |= PLATFORM_HTTP_OPERATOR_URL;
        if (args.value("no_redirects", false)) req.flags |= PLATFORM_HTTP_NO_REDIRECTS;
        req.timeout_ms = static_cast<int32_t>(args.value("timeout_ms", int64_t(0)));
        req.max_response_bytes = args.value("max_response_bytes", uint64_t(0));

        json out;
        platform_status_t code = api->http_fetch(
            host_.ctx(), &req,
            [](void* user, const platform_http_response_t* resp) {
                auto& o = *static_cast<json*>(user);
                o["status"] = resp->status;
                o["body"] = platform::copy(resp->body);
                json h = json::parse(platform::view(resp->headers_json), nullptr, false);
                o["headers"] = h.is_object() ? h : json::object();
                o["error"] = platform::copy(resp->error);
                o["final_url"] = platform::copy(resp->final_url);
            },
            &out);
        if (code != PLATFORM_OK) {
            std::string error = out.is_object() ? out.value("error", std::string()) : std::string();
            throw platform::Error(static_cast<platform::Code>(code),
                                  error.empty() ? "http_fetch failed" : error);
        }
        return out;
    }

private:
    platform::Host host_;
};

PLATFORM_SERVICE(Fetch)
