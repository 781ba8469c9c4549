// host/src/acme/acme_http.hpp — internal to the ACME client: libcurl requests to the ACME server.
// The server is an operator-configured upstream, so no SSRF guard (see acme_client.hpp): https
// only, no redirects, no environment proxies, a per-request timeout, a 2 MiB response cap.
#pragma once

#include <atomic>
#include <map>
#include <platform/host/acme/acme_client.hpp>
#include <string>
#include <vector>

namespace platform::host::acme {

// AcmeStats, updated while another thread may read it.
struct Counters {
    std::atomic<int> requests{0}, orders{0}, bad_nonce_retries{0}, reused{0};
    AcmeStats snapshot() const {
        return {requests.load(), orders.load(), bad_nonce_retries.load(), reused.load()};
    }
};

struct HttpReply {
    long status = 0;
    std::map<std::string, std::string> headers;  // lower-case names; the last value of each
    std::string body;
    std::string header(const std::string& lower_name) const;
};

// One libcurl easy handle (connections are reused between requests). Not thread-safe.
class AcmeHttp {
public:
    static constexpr size_t kMaxBody = 2u << 20;

    AcmeHttp(std::string ca_file, int timeout_ms, const std::atomic<bool>& cancelled,
             Counters& counters);
    ~AcmeHttp();
    AcmeHttp(const AcmeHttp&) = delete;
    AcmeHttp& operator=(const AcmeHttp&) = delete;

    // method: "GET", "HEAD" or "POST" (with `body`). Any HTTP status is returned; transport
    // failures throw std::runtime_error("ACME <what>: <METHOD> <url>: <curl's reason>"), and
    // "ACME <what>: cancelled" once `cancelled` is set.
    HttpReply request(const std::string& what, const std::string& method, const std::string& url,
                      const std::string& body = {}, const std::vector<std::string>& headers = {});

private:
    std::string ca_file_;
    int timeout_ms_;
    const std::atomic<bool>& cancelled_;
    Counters& counters_;
    void* curl_ = nullptr;
};

}  // namespace platform::host::acme
