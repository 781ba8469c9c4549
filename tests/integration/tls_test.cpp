// TLS on the gateway port (docs/decisions.md §18): the real `platform server` with
// --enable_tls and a certificate made at test time, spoken to over real TLS with libcurl (the
// certificate as the only trusted CA). The version, a notes POST and GET, keep-alive, an SSE
// stream (and a client leaving it), the real client address in the access log and the rate
// limiter, a plain HTTP request to the TLS port, the internal api endpoint refusing connections
// without the terminator's preface, and start-up failures naming the setting.
#include <curl/curl.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <platform/host/http/tls_listener.hpp>
#include <regex>
#include <sstream>

#include "build_tree.hpp"
#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "text_search.hpp"

using nlohmann::json;
using platform::host::TlsCertificate;
using platform::host::TlsListener;
using namespace platform::test;

namespace {

struct Response {
    CURLcode code = CURLE_OK;
    long status = 0;
    std::string body, content_type;
    long connects = 0;      // new connections this transfer made (0 = reused)
    long http_version = 0;  // CURL_HTTP_VERSION_*
    std::string error;
};

// One libcurl handle (one connection cache: consecutive requests reuse the connection).
class Https {
public:
    Https(std::string ca_file, int port, std::string source_ip = "")
        : ca_(std::move(ca_file)), port_(port), source_(std::move(source_ip)) {
        h_ = curl_easy_init();
    }
    Https(const Https&) = delete;
    Https& operator=(const Https&) = delete;
    ~Https() {
        curl_slist_free_all(headers_);
        curl_easy_cleanup(h_);
    }
    // `stop_after`: abort the transfer once the body contains it (for endless streams).
    Response request(const std::string& method, const std::string& target,
                     const std::string& body = "", std::vector<std::string> headers = {},
                     const std::string& stop_after = "") {
        Response r;
        struct Sink {
            std::string* body;
            const std::string* stop;
        } sink{&r.body, &stop_after};
        curl_easy_setopt(h_, CURLOPT_URL,
                         ("https://127.0.0.1:" + std::to_string(port_) + target).c_str());
        curl_easy_setopt(h_, CURLOPT_CAINFO, ca_.c_str());
        curl_easy_setopt(h_, CURLOPT_CAPATH, nullptr);
        curl_easy_setopt(h_, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(h_, CURLOPT_SSL_VERIFYHOST, 2L);  // the certificate names IP 127.0.0.1
        curl_easy_setopt(h_, CURLOPT_NOPROXY, "*");
        curl_easy_setopt(h_, CURLOPT_TIMEOUT, 30L);
        curl_easy_setopt(h_, CURLOPT_HTTP_VERSION,
                         CURL_HTTP_VERSION_2TLS);  // offers h2: http/1.1 is chosen
        if (!source_.empty()) curl_easy_setopt(h_, CURLOPT_INTERFACE, ("host!" + source_).c_str());
        curl_easy_setopt(h_, CURLOPT_CUSTOMREQUEST, method.c_str());
        if (method == "POST") {
            curl_easy_setopt(h_, CURLOPT_POSTFIELDS, body.c_str());
            curl_easy_setopt(h_, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
            headers.push_back("Content-Type: application/json");
        } else {
            curl_easy_setopt(h_, CURLOPT_HTTPGET, 1L);
        }
        curl_slist_free_all(headers_);
        headers_ = nullptr;
        for (auto& h : headers) headers_ = curl_slist_append(headers_, h.c_str());
        curl_easy_setopt(h_, CURLOPT_HTTPHEADER, headers_);
        curl_easy_setopt(h_, CURLOPT_WRITEDATA, &sink);
        curl_easy_setopt(
            h_, CURLOPT_WRITEFUNCTION, +[](char* p, size_t size, size_t n, void* user) -> size_t {
                auto* s = static_cast<Sink*>(user);
                s->body->append(p, size * n);
                if (!s->stop->empty() && s->body->find(*s->stop) != std::string::npos)
                    return 0;  // abort
                return size * n;
            });
        char error[CURL_ERROR_SIZE] = "";
        curl_easy_setopt(h_, CURLOPT_ERRORBUFFER, error);
        r.code = curl_easy_perform(h_);
        r.error = error;
        curl_easy_getinfo(h_, CURLINFO_RESPONSE_CODE, &r.status);
        curl_easy_getinfo(h_, CURLINFO_NUM_CONNECTS, &r.connects);
        curl_easy_getinfo(h_, CURLINFO_HTTP_VERSION, &r.http_version);
        char* type = nullptr;
        curl_easy_getinfo(h_, CURLINFO_CONTENT_TYPE, &type);
        if (type) r.content_type = type;
        return r;
    }
    Response get(const std::string& target, std::vector<std::string> headers = {}) {
        return request("GET", target, "", std::move(headers));
    }
    Response post(const std::string& target, const json& body,
                  std::vector<std::string> headers = {}) {
        return request("POST", target, body.dump(), std::move(headers));
    }

private:
    CURL* h_ = nullptr;
    curl_slist* headers_ = nullptr;
    std::string ca_;
    int port_;
    std::string source_;
};

// A certificate for 127.0.0.1 and localhost, written as cert.pem and key.pem into `dir`.
struct CertFiles {
    std::string cert, key;
};
CertFiles write_certificate(const std::string& dir,
                            const std::vector<std::string>& hosts = {"localhost", "127.0.0.1"}) {
    TlsCertificate c = TlsListener::self_signed(hosts);
    CertFiles f{dir + "/cert.pem", dir + "/key.pem"};
    std::ofstream(f.cert) << c.cert_pem;
    std::ofstream(f.key) << c.key_pem;
    return f;
}

std::vector<std::string> tls_args(const CertFiles& f) {
    return {"--enable_tls", "--tls_cert_file", f.cert, "--tls_key_file", f.key};
}

// The internal api endpoint's port, from the start-up log.
int internal_port(const std::string& log) {
    static const std::regex line("internal api endpoint 127\\.0\\.0\\.1:([0-9]+)");
    std::smatch m;
    return std::regex_search(log, m, line) ? std::stoi(m[1]) : 0;
}

class Tls : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        files = write_certificate(suite_dir());
        HostProcess::Options o;
        o.args = tls_args(files);
        start_host(o);
    }
    static Https client(const std::string& source_ip = "") {
        return Https(files.cert, host->api_port(), source_ip);
    }
    static CertFiles files;
};
CertFiles Tls::files;

}  // namespace

TEST_F(Tls, TheListeningLineShowsTheTlsPort) {
    const int internal = internal_port(host->log());
    ASSERT_GT(internal, 0) << host->log();
    EXPECT_NE(internal, host->api_port());
    EXPECT_NE(host->log().find("tls: api port " + std::to_string(host->api_port()) +
                               " speaks TLS (CN=localhost"),
              std::string::npos)
        << host->log();
}

TEST_F(Tls, GetRootAnswersTheVersionOverVerifiedTls) {
    Https c = client();
    Response r = c.get("/");
    ASSERT_EQ(r.code, CURLE_OK) << r.error;
    EXPECT_EQ(r.status, 200);
    EXPECT_TRUE(json::parse(r.body).contains("version")) << r.body;
    EXPECT_EQ(r.http_version, CURL_HTTP_VERSION_1_1);  // ALPN: http/1.1 although h2 was offered
}

TEST_F(Tls, NotesAddAndGet) {
    Https c = client();
    Response add = c.post("/api/v1/notes/add", {{"title", "tls"}, {"text", "over https"}},
                          {"Authorization: Bearer alice"});
    ASSERT_EQ(add.code, CURLE_OK) << add.error;
    EXPECT_EQ(add.status, 200) << add.body;
    Response get = c.get("/api/v1/notes/get?title=tls", {"Authorization: Bearer alice"});
    ASSERT_EQ(get.status, 200) << get.body;
    EXPECT_EQ(json::parse(get.body)["data"]["text"], "over https") << get.body;
}

TEST_F(Tls, KeepAliveServesTwoRequestsOnOneConnection) {
    Https c = client();
    Response first = c.get("/");
    ASSERT_EQ(first.status, 200) << first.error;
    EXPECT_EQ(first.connects, 1);
    Response second = c.get("/api/v1/openapi.json");
    ASSERT_EQ(second.status, 200) << second.error;
    EXPECT_EQ(second.connects, 0);  // the same connection
}

TEST_F(Tls, ServerSentEventsStreamOverTls) {
    Https c = client();
    Response r = c.get("/api/v1/sse/count?n=3");
    ASSERT_EQ(r.code, CURLE_OK) << r.error;
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "text/event-stream");
    EXPECT_EQ(r.body, "data: {\"i\":1}\n\ndata: {\"i\":2}\n\ndata: {\"i\":3}\n\n");
    // The connection is reusable after the stream.
    Response after = c.get("/");
    EXPECT_EQ(after.status, 200);
    EXPECT_EQ(after.connects, 0);
}

TEST_F(Tls, ALiveWebSocketWorksOverTls) {
    // npm `ws` clients over wss:// (tests/e2e/websocket_clients.mjs `live`), trusting the test's
    // certificate: the TLS listener relays the upgraded connection's bytes like any others.
    const std::string e2e = platform::test::source_dir() + "/tests/e2e";
    const char* path = std::getenv("PATH");
    CommandResult r =
        run_command({e2e + "/node_modules/.bin/node", e2e + "/websocket_clients.mjs", "live",
                     std::to_string(host->api_port())},
                    {{"PATH", e2e + "/node_modules/.bin:" + (path ? path : "/usr/bin:/bin")},
                     {"WS_BASE", "wss://127.0.0.1:" + std::to_string(host->api_port())},
                     {"NODE_EXTRA_CA_CERTS", files.cert}},
                    60);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    json got = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(got.is_object() && got.contains("alice")) << r.out << r.err;
    EXPECT_FALSE(got.contains("timeout")) << r.out;
    EXPECT_EQ(got["alice"][0]["text"], "message 1") << r.out;
}

TEST_F(Tls, AClientThatLeavesAStreamStopsTheProducer) {
    Https probe = client();
    const int before =
        json::parse(probe.get("/api/v1/sse/stopped").body)["data"]["stopped"].get<int>();
    {
        Https leaver = client();
        Response r = leaver.request("GET", "/api/v1/sse/count?n=100000&gap_ms=1", "", {}, "\n\n");
        EXPECT_EQ(r.code, CURLE_WRITE_ERROR);  // aborted by us after the first event
        EXPECT_EQ(r.status, 200);
        EXPECT_EQ(r.body.rfind("data: {\"i\":1}\n\n", 0), 0u) << r.body;
    }  // the handle, and with it the connection, closes here
    int stopped = before;
    for (int i = 0; i < 200 && stopped == before;
         ++i) {  // bounded: the producer notices within a few writes
        stopped = json::parse(probe.get("/api/v1/sse/stopped").body)["data"]["stopped"].get<int>();
        if (stopped == before) host->wait_for_log("never-printed-marker", 25);
    }
    EXPECT_EQ(stopped, before + 1);
}

TEST_F(Tls, TheAccessLogShowsTheRealClientAddress) {
    Https c = client("127.0.0.2");  // not the terminator's own 127.0.0.1
    Response r = c.get("/", {"X-Request-Id: tls-remote-1"});
    ASSERT_EQ(r.code, CURLE_OK) << r.error;
    ASSERT_TRUE(host->wait_for_log("\"request_id\":\"tls-remote-1\"")) << host->log();
    json line = access_line(host->log(), "tls-remote-1");
    ASSERT_TRUE(line.is_object()) << host->log();
    EXPECT_EQ(line["remote"], "127.0.0.2");
    EXPECT_EQ(line["port"], "api");
}

TEST_F(Tls, PlainHttpToTheTlsPortFailsCleanly) {
    HttpClient plain("127.0.0.1", host->api_port());
    plain.set_reconnect(false);
    auto r = plain.get("/");
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("HTTPS"), std::string::npos) << r.body;
    EXPECT_TRUE(plain.connection_closed());
}

TEST_F(Tls, TheInternalPortClosesConnectionsWithoutThePreface) {
    const int internal = internal_port(host->log());
    ASSERT_GT(internal, 0);
    {
        HttpClient direct("127.0.0.1", internal);
        direct.send_raw("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
        EXPECT_EQ(direct.read_some(), "");  // closed, no answer
    }
    {
        HttpClient forged("127.0.0.1", internal);
        forged.send_raw(
            "PLATFORM-TLS 00000000000000000000000000000000 10.9.9.9 1234\r\nGET / "
            "HTTP/1.1\r\nHost: t\r\n\r\n");
        EXPECT_EQ(forged.read_some(), "");
    }
    // The server still serves TLS clients.
    Https c = client();
    EXPECT_EQ(c.get("/").status, 200);
}

TEST_F(Tls, TheProxyPortStaysPlaintext) {
    HttpClient proxy("127.0.0.1", host->proxy_port());
    EXPECT_EQ(proxy.get("/").status, 200);
}

TEST(TlsStartup, AMissingCertificateFileStopsStartupNamingTheSetting) {
    TempDir dir;
    HostProcess::Options o;
    o.env = {{"PLATFORM_ENABLE_TLS", "true"},
             {"PLATFORM_TLS_CERT_FILE", dir.path() + "/missing.pem"},
             {"PLATFORM_TLS_KEY_FILE", dir.path() + "/missing.key"}};
    HostProcess host(o);
    EXPECT_NE(host.run_to_exit(), 0);
    EXPECT_NE(host.log().find("PLATFORM_TLS_CERT_FILE: cannot read " + dir.path() +
                              "/missing.pem: No such file or directory"),
              std::string::npos)
        << host.log();
    EXPECT_EQ(host.log().find("listening"), std::string::npos);
}

TEST(TlsStartup, AKeyOfAnotherCertificateStopsStartupNamingTheKeySetting) {
    TempDir dir, other;
    CertFiles f = write_certificate(dir.path()), g = write_certificate(other.path());
    HostProcess::Options o;
    o.args = {"--enable_tls", "--tls_cert_file", f.cert, "--tls_key_file", g.key};
    HostProcess host(o);
    EXPECT_NE(host.run_to_exit(), 0);
    EXPECT_NE(host.log().find("PLATFORM_TLS_KEY_FILE: " + g.key +
                              ": the key does not match the certificate"),
              std::string::npos)
        << host.log();
}

TEST(TlsStartup, WithAcmeAMissingCertificateGivesATemporarySelfSignedOne) {
    HostProcess::Options o;
    // An ACME directory that refuses connections at once: the test never reaches a real CA.
    o.env = {{"PLATFORM_ENABLE_TLS", "true"},
             {"PLATFORM_ENABLE_ACME", "true"},
             {"PLATFORM_ACME_HOSTS", "tls-test.invalid"},
             {"PLATFORM_ACME_DIRECTORY_URL", "https://127.0.0.1:1/directory"}};
    HostProcess host(o);
    host.start();
    EXPECT_NE(host.log().find("temporary self-signed certificate for tls-test.invalid"),
              std::string::npos)
        << host.log();
    EXPECT_NE(host.log().find("speaks TLS (CN=tls-test.invalid"), std::string::npos) << host.log();
    EXPECT_EQ(host.stop(), 0) << host.log();
}

TEST(TlsRateLimit, EachRealClientHasItsOwnBucket) {
    TempDir dir;
    CertFiles f = write_certificate(dir.path());
    HostProcess::Options o;
    o.profile = test_profile_with(dir.path() + "/tls-test.yaml",
                                  "http: {rate_limit: {requests_per_second: 0.01, burst: 2}}");
    o.args = tls_args(f);
    HostProcess host(o);
    host.start();
    Https a(f.cert, host.api_port(), "127.0.0.2");
    EXPECT_EQ(a.get("/").status, 200);
    EXPECT_EQ(a.get("/").status, 200);
    Response third = a.get("/");
    EXPECT_EQ(third.status, 429);
    EXPECT_NE(third.body.find("rate limit exceeded for 127.0.0.2"), std::string::npos)
        << third.body;
    // Another client, through the same terminator, is not limited by the first one's requests.
    Https b(f.cert, host.api_port(), "127.0.0.3");
    EXPECT_EQ(b.get("/").status, 200);
    EXPECT_EQ(host.stop(), 0) << host.log();
}
