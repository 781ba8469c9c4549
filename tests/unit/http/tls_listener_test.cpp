// The TLS listener in front of the api port (tls_listener.hpp) against a small echo backend:
// the preface names the client, bytes flow both ways, reload() swaps the certificate for new
// connections only, either side closing closes the other, plain HTTP gets a 400, the handshake
// timeout and max_connections apply. Also the preface parser (http_framing.hpp) and the
// self-signed certificate helper.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fstream>
#include <mutex>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <thread>
#include <vector>

using namespace platform::host;

namespace {

const bool kNoSigpipe = [] {
    std::signal(SIGPIPE, SIG_IGN);
    return true;
}();

int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        close(fd);
        throw std::runtime_error("connect failed");
    }
    timeval tv{10, 0};  // no test hangs on a silent peer
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int local_port(int fd) {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    return ntohs(a.sin_port);
}

// Reads until the peer closes (or 10 s pass).
std::string read_to_eof(int fd) {
    std::string out;
    char buf[4096];
    for (;;) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) return out;
        out.append(buf, static_cast<size_t>(n));
    }
}

// A backend standing in for the api endpoint: each connection's first line (the preface) is
// recorded, then every byte is echoed; "bye" makes it close the connection.
class EchoBackend {
public:
    EchoBackend() {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
        bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
        listen(fd_, 16);
        port_ = local_port(fd_);
        acceptor_ = std::thread([this] {
            for (;;) {
                int c = accept(fd_, nullptr, nullptr);
                if (c < 0) return;
                int one = 1;
                setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                std::lock_guard<std::mutex> g(m_);
                workers_.emplace_back([this, c] { echo(c); });
            }
        });
    }
    ~EchoBackend() {
        shutdown(fd_, SHUT_RDWR);
        close(fd_);
        acceptor_.join();
        for (auto& w : workers_) w.join();
    }
    int port() const { return port_; }
    // Waits for the n-th connection's preface line (1-based).
    std::string preface(size_t n) {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait_for(lock, std::chrono::seconds(10), [&] { return prefaces_.size() >= n; });
        return prefaces_.size() >= n ? prefaces_[n - 1] : "";
    }
    // Waits until `n` connections have ended (the client side closed them).
    bool ended(size_t n) {
        std::unique_lock<std::mutex> lock(m_);
        return cv_.wait_for(lock, std::chrono::seconds(10), [&] { return ended_ >= n; });
    }

private:
    void echo(int c) {
        std::string line;
        char ch;
        while (line.size() < 256 && recv(c, &ch, 1, 0) == 1) {
            line += ch;
            if (line.size() >= 2 && line.compare(line.size() - 2, 2, "\r\n") == 0) break;
        }
        {
            std::lock_guard<std::mutex> g(m_);
            prefaces_.push_back(line);
            cv_.notify_all();
        }
        char buf[4096];
        for (;;) {
            ssize_t n = recv(c, buf, sizeof buf, 0);
            if (n <= 0) break;
            std::string got(buf, static_cast<size_t>(n));
            if (got == "bye") break;
            send(c, buf, static_cast<size_t>(n), MSG_NOSIGNAL);
        }
        close(c);
        std::lock_guard<std::mutex> g(m_);
        ++ended_;
        cv_.notify_all();
    }
    int fd_ = -1, port_ = 0;
    std::thread acceptor_;
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::thread> workers_;
    std::vector<std::string> prefaces_;
    size_t ended_ = 0;
};

// A blocking TLS client that trusts exactly `ca_pem` (when given).
class TlsClient {
public:
    explicit TlsClient(int port, const std::string& ca_pem = "", const std::string& host = "") {
        ctx_ = SSL_CTX_new(TLS_client_method());
        if (!ca_pem.empty()) {
            BIO* b = BIO_new_mem_buf(ca_pem.data(), static_cast<int>(ca_pem.size()));
            X509* ca = PEM_read_bio_X509(b, nullptr, nullptr, nullptr);
            X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx_), ca);
            X509_free(ca);
            BIO_free(b);
            SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
        }
        static const unsigned char alpn[] = "\x02h2\x08http/1.1";
        SSL_CTX_set_alpn_protos(ctx_, alpn, sizeof alpn - 1);
        fd_ = connect_to(port);
        ssl_ = SSL_new(ctx_);
        SSL_set_fd(ssl_, fd_);
        if (!host.empty()) SSL_set1_host(ssl_, host.c_str());
        ok_ = SSL_connect(ssl_) == 1;
        ERR_clear_error();
    }
    ~TlsClient() {
        SSL_free(ssl_);
        SSL_CTX_free(ctx_);
        if (fd_ >= 0) close(fd_);
    }
    bool ok() const { return ok_; }
    int fd() const { return fd_; }
    std::string subject_cn() const {
        X509* cert = SSL_get1_peer_certificate(ssl_);
        if (!cert) return "";
        char cn[256] = "";
        X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof cn);
        X509_free(cert);
        return cn;
    }
    std::string alpn() const {
        const unsigned char* p = nullptr;
        unsigned int len = 0;
        SSL_get0_alpn_selected(ssl_, &p, &len);
        return std::string(reinterpret_cast<const char*>(p), len);
    }
    std::string version() const { return SSL_get_version(ssl_); }
    bool write(const std::string& s) {
        return SSL_write(ssl_, s.data(), static_cast<int>(s.size())) == static_cast<int>(s.size());
    }
    // Reads exactly n bytes; "" when the connection ended first.
    std::string read(size_t n) {
        std::string out;
        char buf[4096];
        while (out.size() < n) {
            int r = SSL_read(ssl_, buf, static_cast<int>(std::min(sizeof buf, n - out.size())));
            if (r <= 0) return "";
            out.append(buf, static_cast<size_t>(r));
        }
        return out;
    }
    // True when the server ended the connection with close_notify.
    bool closed_cleanly() {
        char c;
        int r = SSL_read(ssl_, &c, 1);
        return r <= 0 && SSL_get_error(ssl_, r) == SSL_ERROR_ZERO_RETURN;
    }
    void close_notify() { SSL_shutdown(ssl_); }

private:
    SSL_CTX* ctx_ = nullptr;
    SSL* ssl_ = nullptr;
    int fd_ = -1;
    bool ok_ = false;
};

const std::string kSecret = "00112233445566778899aabbccddeeff";

TlsListener::Options options_for(const EchoBackend& backend) {
    TlsListener::Options o;
    o.backend_port = backend.port();
    o.secret = kSecret;
    o.max_connections = 100;
    o.handshake_timeout_ms = 5000;
    return o;
}

}  // namespace

TEST(TlsPrefaceParse, ReadsTheClientAddress) {
    auto p = parse_tls_preface("PLATFORM-TLS " + kSecret + " 10.1.2.3 54321\r\nGET / HTTP/1.1\r\n",
                               kSecret);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.client_ip, "10.1.2.3");
    EXPECT_EQ(p.client_port, 54321);
    EXPECT_EQ(p.length, tls_preface(kSecret, "10.1.2.3", 54321).size());
    auto v6 = parse_tls_preface(tls_preface(kSecret, "2001:db8::1", 443), kSecret);
    ASSERT_TRUE(v6.ok());
    EXPECT_EQ(v6.client_ip, "2001:db8::1");
}

TEST(TlsPrefaceParse, IncompleteUntilTheLineEnds) {
    const std::string line = tls_preface(kSecret, "127.0.0.1", 1000);
    for (size_t n = 0; n < line.size(); ++n)
        EXPECT_TRUE(parse_tls_preface(line.substr(0, n), kSecret).incomplete()) << n;
}

TEST(TlsPrefaceParse, RefusesAnythingElse) {
    EXPECT_TRUE(parse_tls_preface("GET / HTTP/1.1\r\n", kSecret).invalid());
    EXPECT_TRUE(parse_tls_preface("G", kSecret).invalid());  // at once, not when the line ends
    EXPECT_TRUE(
        parse_tls_preface(tls_preface("ffffffffffffffffffffffffffffffff", "127.0.0.1", 1), kSecret)
            .invalid());
    EXPECT_TRUE(
        parse_tls_preface(tls_preface(kSecret.substr(1), "127.0.0.1", 1), kSecret).invalid());
    EXPECT_TRUE(parse_tls_preface(tls_preface(kSecret, "example.com", 1), kSecret).invalid());
    EXPECT_TRUE(parse_tls_preface(tls_preface(kSecret, "127.0.0.1", 70000), kSecret).invalid());
    EXPECT_TRUE(
        parse_tls_preface("PLATFORM-TLS " + kSecret + " 127.0.0.1 1 x\r\n", kSecret).invalid());
    EXPECT_TRUE(parse_tls_preface("PLATFORM-TLS " + kSecret + " 127.0.0.1\r\n", kSecret).invalid());
    EXPECT_TRUE(
        parse_tls_preface("PLATFORM-TLS " + std::string(200, 'a'), kSecret).invalid());  // too long
    EXPECT_TRUE(
        parse_tls_preface(tls_preface("", "127.0.0.1", 1), "").invalid());  // no secret configured
}

TEST(TlsSelfSigned, NamesEveryHostInSubjectAltName) {
    TlsCertificate c = TlsListener::self_signed({"example.test", "127.0.0.1"});
    EXPECT_NO_THROW(TlsListener::check(c));
    BIO* b = BIO_new_mem_buf(c.cert_pem.data(), static_cast<int>(c.cert_pem.size()));
    X509* x = PEM_read_bio_X509(b, nullptr, nullptr, nullptr);
    BIO_free(b);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(X509_check_host(x, "example.test", 0, 0, nullptr), 1);
    EXPECT_EQ(X509_check_ip_asc(x, "127.0.0.1", 0), 1);
    EXPECT_NE(X509_check_host(x, "other.test", 0, 0, nullptr), 1);
    X509_free(x);
    EXPECT_NE(TlsListener::self_signed({}).cert_pem, "");  // "localhost"
}

TEST(TlsCheck, SaysWhichPartIsWrong) {
    TlsCertificate a = TlsListener::self_signed({"a.test"}),
                   b = TlsListener::self_signed({"b.test"});
    try {
        TlsListener::check({a.cert_pem, b.key_pem});
        FAIL() << "a key of another certificate was accepted";
    } catch (const TlsCertificateError& e) {
        EXPECT_EQ(e.part, TlsCertificateError::Part::key);
        EXPECT_NE(std::string(e.what()).find("does not match"), std::string::npos) << e.what();
    }
    try {
        TlsListener::check({"not a certificate", a.key_pem});
        FAIL();
    } catch (const TlsCertificateError& e) {
        EXPECT_EQ(e.part, TlsCertificateError::Part::certificate);
    }
    try {
        TlsListener::read_files("/nonexistent/cert.pem", "/nonexistent/key.pem");
        FAIL();
    } catch (const TlsCertificateError& e) {
        EXPECT_EQ(e.part, TlsCertificateError::Part::certificate);
        EXPECT_EQ(std::string(e.what()),
                  "cannot read /nonexistent/cert.pem: No such file or directory");
    }
}

TEST(TlsListenerTest, ThePrefaceNamesTheClientAndBytesFlowBothWays) {
    EchoBackend backend;
    TlsCertificate cert = TlsListener::self_signed({"one.test", "127.0.0.1"});
    TlsListener tls(options_for(backend));
    tls.start("127.0.0.1:0", cert);
    ASSERT_GT(tls.port(), 0);
    EXPECT_NE(tls.certificate_summary().find("CN=one.test"), std::string::npos)
        << tls.certificate_summary();

    TlsClient c(tls.port(), cert.cert_pem, "one.test");  // verified against the certificate
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.alpn(), "http/1.1");  // h2 was offered first
    EXPECT_EQ(backend.preface(1), tls_preface(kSecret, "127.0.0.1", local_port(c.fd())));
    ASSERT_TRUE(c.write("hello"));
    EXPECT_EQ(c.read(5), "hello");
    std::string big(300 * 1024, 'x');  // several buffers' worth, in 30 KiB steps
    for (size_t i = 0; i < big.size(); i += 997) big[i] = static_cast<char>('a' + i % 26);
    for (size_t i = 0; i < big.size(); i += 30 * 1024) {
        const std::string part = big.substr(i, 30 * 1024);
        ASSERT_TRUE(c.write(part));
        ASSERT_EQ(c.read(part.size()), part);
    }
    EXPECT_EQ(tls.connections(), 1);
}

TEST(TlsListenerTest, ReloadSwapsTheCertificateForNewConnectionsOnly) {
    EchoBackend backend;
    TlsListener tls(options_for(backend));
    tls.start("127.0.0.1:0", TlsListener::self_signed({"one.test"}));
    TlsClient first(tls.port());
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first.subject_cn(), "one.test");

    TlsCertificate two = TlsListener::self_signed({"two.test"});
    tls.reload(two.cert_pem, two.key_pem);
    EXPECT_NE(tls.certificate_summary().find("CN=two.test"), std::string::npos);
    TlsClient second(tls.port(), two.cert_pem, "two.test");
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second.subject_cn(), "two.test");
    // The connection made before keeps working, with its certificate.
    ASSERT_TRUE(first.write("still"));
    EXPECT_EQ(first.read(5), "still");
    EXPECT_EQ(first.subject_cn(), "one.test");

    // A broken pair is refused and the served certificate stays.
    TlsCertificate three = TlsListener::self_signed({"three.test"});
    EXPECT_THROW(tls.reload(three.cert_pem, two.key_pem), TlsCertificateError);
    EXPECT_THROW(tls.reload_files("/nonexistent/c.pem", "/nonexistent/k.pem"), TlsCertificateError);
    TlsClient third(tls.port());
    ASSERT_TRUE(third.ok());
    EXPECT_EQ(third.subject_cn(), "two.test");

    // From files.
    char dir[] = "/tmp/tls-listener-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string cf = std::string(dir) + "/c.pem", kf = std::string(dir) + "/k.pem";
    std::ofstream(cf) << three.cert_pem;
    std::ofstream(kf) << three.key_pem;
    tls.reload_files(cf, kf);
    TlsClient fourth(tls.port());
    ASSERT_TRUE(fourth.ok());
    EXPECT_EQ(fourth.subject_cn(), "three.test");
    unlink(cf.c_str());
    unlink(kf.c_str());
    rmdir(dir);
}

TEST(TlsListenerTest, ClosingEitherSideClosesTheOther) {
    EchoBackend backend;
    TlsListener tls(options_for(backend));
    tls.start("127.0.0.1:0", TlsListener::self_signed({"x.test"}));
    {
        TlsClient c(tls.port());
        ASSERT_TRUE(c.ok());
        ASSERT_TRUE(c.write("bye"));  // the backend closes
        EXPECT_TRUE(c.closed_cleanly());
    }
    {
        TlsClient c(tls.port());
        ASSERT_TRUE(c.ok());
        ASSERT_TRUE(c.write("ping"));
        EXPECT_EQ(c.read(4), "ping");
        c.close_notify();  // the client closes: so does the backend connection
    }
    EXPECT_TRUE(backend.ended(2));
}

TEST(TlsListenerTest, PlainHttpGetsA400AndTheConnectionCloses) {
    EchoBackend backend;
    TlsListener tls(options_for(backend));
    tls.start("127.0.0.1:0", TlsListener::self_signed({"x.test"}));
    int fd = connect_to(tls.port());
    const std::string req = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    send(fd, req.data(), req.size(), MSG_NOSIGNAL);
    std::string answer = read_to_eof(fd);
    close(fd);
    EXPECT_EQ(answer.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << answer;
    EXPECT_NE(answer.find("HTTPS"), std::string::npos);
}

TEST(TlsListenerTest, ASilentClientIsClosedAfterTheHandshakeTimeout) {
    EchoBackend backend;
    auto o = options_for(backend);
    o.handshake_timeout_ms = 200;
    TlsListener tls(o);
    tls.start("127.0.0.1:0", TlsListener::self_signed({"x.test"}));
    int fd = connect_to(tls.port());
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(read_to_eof(fd), "");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    close(fd);
}

TEST(TlsListenerTest, ConnectionsBeyondMaxConnectionsAreClosed) {
    EchoBackend backend;
    auto o = options_for(backend);
    o.max_connections = 1;
    TlsListener tls(o);
    tls.start("127.0.0.1:0", TlsListener::self_signed({"x.test"}));
    {
        TlsClient first(tls.port());
        ASSERT_TRUE(first.ok());
        TlsClient second(tls.port());
        EXPECT_FALSE(second.ok());
        ASSERT_TRUE(first.write("ok"));
        EXPECT_EQ(first.read(2), "ok");
        first.close_notify();
    }
    // Once the first connection's thread ended, a new one is served (bounded retries: each is a
    // whole handshake attempt).
    bool served = false;
    for (int i = 0; i < 500 && !served; ++i) {
        TlsClient again(tls.port());
        served = again.ok() && again.write("x") && again.read(1) == "x";
    }
    EXPECT_TRUE(served);
}

TEST(TlsListenerTest, StopClosesOpenConnections) {
    EchoBackend backend;
    TlsListener tls(options_for(backend));
    tls.start("127.0.0.1:0", TlsListener::self_signed({"x.test"}));
    TlsClient c(tls.port());
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c.write("a"));
    EXPECT_EQ(c.read(1), "a");
    tls.stop();
    EXPECT_EQ(tls.connections(), 0);
    EXPECT_EQ(c.read(1), "");  // gone
}
