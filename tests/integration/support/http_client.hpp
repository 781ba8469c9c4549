// http_client.hpp — a small blocking HTTP/1.1 client over one TCP connection, for tests.
//
// It sends exactly the bytes asked for (so tests control Connection headers and pipelining),
// and reads responses framed by Content-Length. One connection; reconnects when the server
// closed it, unless told not to (keep-alive tests want to see the close).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace platform::test {

// Request headers by name.
using Headers = std::map<std::string, std::string>;

// The header that makes a call as the holder of `token` (on the `test` profile the token is the
// account id).
inline Headers bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}

struct HttpResult {
    int status = 0;
    std::map<std::string, std::string>
        headers;  // lower-case names; a repeated one: its first value
    std::vector<std::pair<std::string, std::string>>
        header_lines;  // every header, in order, lower-case names
    std::string body;
    nlohmann::json json() const;
    std::string header(const std::string& lower) const;
    std::vector<std::string> header_values(
        const std::string& lower) const;  // every value of a name
};

class HttpClient {
public:
    HttpClient(std::string host, int port);
    ~HttpClient();

    HttpResult get(const std::string& target,
                   const std::map<std::string, std::string>& headers = {});
    HttpResult post(const std::string& target, const std::string& body,
                    const std::map<std::string, std::string>& headers = {
                        {"Content-Type", "application/json"}});
    HttpResult post_json(const std::string& target, const nlohmann::json& body,
                         const std::map<std::string, std::string>& headers = {});
    HttpResult request(const std::string& method, const std::string& target,
                       const std::string& body, const std::map<std::string, std::string>& headers);

    // Raw access for connection-level tests.
    void send_raw(const std::string& bytes);
    HttpResult read_response();  // throws on timeout/close
    std::string read_some();     // whatever bytes arrive next (waits up to 30 s)
    bool connection_closed();    // true when the server closed this connection
    int connects() const { return connects_; }
    void set_reconnect(bool on) { reconnect_ = on; }
    // How long read_response waits for more bytes before throwing (default 30 s).
    void set_timeout_ms(int ms) { timeout_ms_ = ms; }

private:
    void ensure_connected();
    void close_socket();
    std::string host_;
    int port_, fd_ = -1, connects_ = 0, timeout_ms_ = 30000;
    bool reconnect_ = true;
    std::string buffer_;
};

}  // namespace platform::test
