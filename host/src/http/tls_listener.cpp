#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <functional>
#include <mutex>
#include <platform/host/acme/openssl_handles.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <thread>

namespace platform::host {

namespace {

using Clock = std::chrono::steady_clock;
using Part = TlsCertificateError::Part;

constexpr size_t kBufferCap = 64 * 1024;  // bytes held per direction before reading stops
constexpr int kLingerMs = 2000;     // after our close: how long the client's last bytes are read
constexpr int kStopWaitMs = 10000;  // stop(): how long connection threads get to end

using openssl::memory_bio;
using openssl::Owned;
using openssl::X509Ptr;
using BioPtr = openssl::Bio;
using KeyPtr = Owned<EVP_PKEY, EVP_PKEY_free>;
using SslPtr = Owned<SSL, SSL_free>;

// The OpenSSL error queue as text (and cleared), or `fallback` when it is empty.
std::string openssl_error(const std::string& fallback = "unknown error") {
    std::string out;
    while (unsigned long e = ERR_get_error()) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof buf);
        const char* reason = ERR_reason_error_string(e);
        out = reason ? reason : buf;  // the last one is the most specific
    }
    return out.empty() ? fallback : out;
}

// Encrypted keys are not supported: never prompt for a pass phrase.
int no_password(char*, int, int, void*) {
    return 0;
}

// ALPN: http/1.1 when the client offers it; otherwise no protocol is selected.
int select_alpn(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in,
                unsigned int inlen, void*) {
    for (unsigned int i = 0; i < inlen;) {
        const unsigned int len = in[i];
        if (i + 1 + len > inlen) break;
        if (len == 8 && std::memcmp(in + i + 1, "http/1.1", 8) == 0) {
            *out = in + i + 1;
            *outlen = 8;
            return SSL_TLSEXT_ERR_OK;
        }
        i += 1 + len;
    }
    return SSL_TLSEXT_ERR_NOACK;
}

std::string summary_of(X509* cert) {
    std::string subject = "?";
    if (BioPtr b{BIO_new(BIO_s_mem())}) {
        X509_NAME_print_ex(b.get(), X509_get_subject_name(cert), 0, XN_FLAG_RFC2253);
        char* data = nullptr;
        long n = BIO_get_mem_data(b.get(), &data);
        if (n > 0) subject.assign(data, static_cast<size_t>(n));
    }
    std::tm tm{};
    char expiry[32] = "?";
    if (ASN1_TIME_to_tm(X509_get0_notAfter(cert), &tm) == 1)
        std::strftime(expiry, sizeof expiry, "%Y-%m-%d", &tm);
    return subject + ", expires " + expiry;
}

struct Context {
    std::shared_ptr<SSL_CTX> ctx;
    std::string summary;
};

// A server context for `c`: TLS 1.2 or newer, ALPN http/1.1, no renegotiation.
Context make_context(const TlsCertificate& c) {
    ERR_clear_error();
    BioPtr cert_bio = memory_bio(c.cert_pem);
    X509Ptr leaf(cert_bio ? PEM_read_bio_X509(cert_bio.get(), nullptr, no_password, nullptr)
                          : nullptr);
    if (!leaf)
        throw TlsCertificateError(Part::certificate,
                                  "no PEM certificate (" + openssl_error() + ")");
    std::vector<X509Ptr> chain;
    while (X509* x = PEM_read_bio_X509(cert_bio.get(), nullptr, no_password, nullptr))
        chain.emplace_back(x);
    ERR_clear_error();  // the end of the PEM data
    BioPtr key_bio = memory_bio(c.key_pem);
    KeyPtr key(key_bio ? PEM_read_bio_PrivateKey(key_bio.get(), nullptr, no_password, nullptr)
                       : nullptr);
    if (!key)
        throw TlsCertificateError(
            Part::key, "no PEM private key, or an encrypted one (" + openssl_error() + ")");

    std::shared_ptr<SSL_CTX> ctx(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
    if (!ctx) throw std::runtime_error("TLS: cannot create a context: " + openssl_error());
    SSL_CTX* raw = ctx.get();
    SSL_CTX_set_min_proto_version(raw, TLS1_2_VERSION);
    SSL_CTX_set_options(
        raw, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_mode(raw, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                              SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_alpn_select_cb(raw, select_alpn, nullptr);
    if (SSL_CTX_use_certificate(raw, leaf.get()) != 1)
        throw TlsCertificateError(Part::certificate,
                                  "certificate not usable (" + openssl_error() + ")");
    for (auto& x : chain)
        if (SSL_CTX_add1_chain_cert(raw, x.get()) != 1)
            throw TlsCertificateError(Part::certificate,
                                      "chain certificate not usable (" + openssl_error() + ")");
    if (SSL_CTX_use_PrivateKey(raw, key.get()) != 1 || SSL_CTX_check_private_key(raw) != 1)
        throw TlsCertificateError(
            Part::key, "the key does not match the certificate (" + openssl_error() + ")");
    return Context{ctx, summary_of(leaf.get())};
}

std::string read_file(const std::string& path, Part part) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw TlsCertificateError(part, "cannot read " + path + ": " + std::strerror(errno));
    std::string out;
    char buf[8192];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            throw TlsCertificateError(part, "cannot read " + path + ": " + std::strerror(e));
        }
        if (n == 0) break;
        out.append(buf, static_cast<size_t>(n));
        if (out.size() > 1024 * 1024) {
            ::close(fd);
            throw TlsCertificateError(part, "cannot read " + path + ": larger than 1 MiB");
        }
    }
    ::close(fd);
    return out;
}

// "1.2.3.4" / "::1" and the port of a socket address (IPv4-mapped IPv6 addresses as IPv4).
std::pair<std::string, int> address_of(const sockaddr_storage& a) {
    char text[INET6_ADDRSTRLEN] = "";
    if (a.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
        inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        return {text, ntohs(v4.sin_port)};
    }
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
    if (IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr))
        inet_ntop(AF_INET, &v6.sin6_addr.s6_addr[12], text, sizeof text);
    else
        inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    return {text, ntohs(v6.sin6_port)};
}

void set_nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int remaining_ms(Clock::time_point deadline) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left, INT_MAX));
}

}  // namespace

// ----------------------------------------------------------------------------------------------
struct TlsListener::Impl : std::enable_shared_from_this<Impl> {
    Options options;
    mutable std::mutex ctx_m;
    Context current;  // under ctx_m

    int listen_fd = -1, stop_fd = -1, bound_port = 0;
    std::thread acceptor;
    bool stopped = false;
    std::mutex m;
    std::condition_variable cv;
    int64_t threads = 0;  // connection threads running (under m)
    std::atomic<int64_t> open{0};

    explicit Impl(Options o) : options(std::move(o)) {}
    ~Impl() {
        if (listen_fd >= 0) ::close(listen_fd);
        if (stop_fd >= 0) ::close(stop_fd);
    }

    std::shared_ptr<SSL_CTX> context() const {
        std::lock_guard<std::mutex> g(ctx_m);
        return current.ctx;
    }

    void accept_loop() {
        for (;;) {
            pollfd p[2] = {{listen_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(p, 2, -1) < 0) {
                if (errno == EINTR) continue;
                spdlog::error("tls: poll failed: {}", std::strerror(errno));
                return;
            }
            if (p[1].revents) return;
            sockaddr_storage addr{};
            socklen_t len = sizeof addr;
            const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len,
                                     SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    spdlog::warn("tls: accept failed: {}", std::strerror(errno));
                    pollfd s{stop_fd, POLLIN, 0};
                    ::poll(&s, 1, 100);  // back off instead of spinning on a full descriptor table
                }
                continue;
            }
            {
                std::lock_guard<std::mutex> g(m);
                if (threads >= static_cast<int64_t>(options.max_connections)) {
                    ::close(fd);
                    spdlog::debug("tls: connection closed: http.max_connections ({}) reached",
                                  options.max_connections);
                    continue;
                }
                ++threads;
            }
            auto [ip, port] = address_of(addr);
            try {
                std::thread([self = shared_from_this(), fd, ip = ip, port = port] {
                    self->serve(fd, ip, port);
                    std::lock_guard<std::mutex> g(self->m);
                    --self->threads;
                    self->cv.notify_all();
                }).detach();
            } catch (const std::exception& e) {
                ::close(fd);
                std::lock_guard<std::mutex> g(m);
                --threads;
                spdlog::warn("tls: no thread for a connection: {}", e.what());
            }
        }
    }

    void serve(int fd, const std::string& ip, int port) {
        ++open;
        set_nodelay(fd);
        SslPtr ssl(SSL_new(context().get()));
        if (ssl && SSL_set_fd(ssl.get(), fd) == 1) {
            SSL_set_accept_state(ssl.get());
            if (handshake(ssl.get(), fd, ip, port)) connected(ssl.get(), fd, ip, port);
        }
        ERR_clear_error();
        ::close(fd);
        --open;
    }

    bool handshake(SSL* ssl, int fd, const std::string& ip, int port) {
        const auto deadline =
            Clock::now() + std::chrono::milliseconds(options.handshake_timeout_ms);
        for (;;) {
            ERR_clear_error();
            const int r = SSL_accept(ssl);
            if (r == 1) return true;
            const int e = SSL_get_error(ssl, r);
            short events = e == SSL_ERROR_WANT_READ    ? POLLIN
                           : e == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                       : 0;
            if (!events) {
                const unsigned long err = ERR_peek_error();
                if (ERR_GET_LIB(err) == ERR_LIB_SSL &&
                    (ERR_GET_REASON(err) == SSL_R_HTTP_REQUEST ||
                     ERR_GET_REASON(err) == SSL_R_HTTPS_PROXY_REQUEST)) {
                    ERR_clear_error();
                    plain_http_answer(fd);
                    return false;
                }
                spdlog::debug("tls: handshake with {}:{} failed: {}", ip, port,
                              openssl_error(e == SSL_ERROR_SYSCALL ? "connection closed"
                                                                   : "handshake failed"));
                return false;
            }
            const int left = remaining_ms(deadline);
            if (left == 0) {
                spdlog::debug("tls: handshake with {}:{} timed out after {} ms", ip, port,
                              options.handshake_timeout_ms);
                return false;
            }
            pollfd p[2] = {{fd, events, 0}, {stop_fd, POLLIN, 0}};
            const int n = ::poll(p, 2, left);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 || p[1].revents) return false;
        }
    }

    // A plain HTTP request on the TLS port: say so in plain HTTP, then close.
    void plain_http_answer(int fd) {
        static const std::string body = "This port speaks HTTPS (TLS): use an https:// URL.\n";
        const std::string answer =
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: "
            "close\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body;
        [[maybe_unused]] ssize_t n = ::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL);
        linger(fd);
    }

    // Our side is done: half-close, then read (and drop) what the client still sends, so our close
    // does not turn into a reset that destroys the last answer before the client read it.
    void linger(int fd) {
        ::shutdown(fd, SHUT_WR);
        const auto deadline = Clock::now() + std::chrono::milliseconds(kLingerMs);
        char buf[4096];
        for (;;) {
            pollfd p[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
            const int n = ::poll(p, 2, remaining_ms(deadline));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || p[1].revents) return;
            const ssize_t r = ::recv(fd, buf, sizeof buf, 0);
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
                return;
        }
    }

    int connect_backend() {
        addrinfo hints{};
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
        addrinfo* res = nullptr;
        if (getaddrinfo(options.backend_host.c_str(), std::to_string(options.backend_port).c_str(),
                        &hints, &res) != 0 ||
            !res) {
            errno = EINVAL;
            return -1;
        }
        const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int rc = fd < 0 ? -1 : ::connect(fd, res->ai_addr, res->ai_addrlen);
        const int e = errno;
        freeaddrinfo(res);
        if (rc != 0) {
            if (fd >= 0) ::close(fd);
            errno = e;
            return -1;
        }
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        set_nodelay(fd);
        return fd;
    }

    // The handshake is done: connect to the api endpoint and pump until either side closes.
    void connected(SSL* ssl, int fd, const std::string& ip, int port) {
        const int backend = connect_backend();
        if (backend < 0) {
            spdlog::warn("tls: cannot reach the api endpoint {}:{}: {}", options.backend_host,
                         options.backend_port, std::strerror(errno));
            close_notify(ssl, fd);
            return;
        }
        const End end = pump(ssl, fd, backend, tls_preface(options.secret, ip, port));
        ::close(backend);
        if (end == End::backend) {
            close_notify(ssl, fd);
            linger(fd);
        } else if (end == End::client) {
            close_notify(ssl, fd);
        }
    }

    // Sends close_notify, best effort (waits a little for room in the socket).
    void close_notify(SSL* ssl, int fd) {
        for (int attempt = 0; attempt < 3; ++attempt) {
            ERR_clear_error();
            const int r = SSL_shutdown(ssl);
            if (r >= 0 || SSL_get_error(ssl, r) != SSL_ERROR_WANT_WRITE) break;
            pollfd p[2] = {{fd, POLLOUT, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(p, 2, 1000) <= 0 || p[1].revents) break;
        }
        ERR_clear_error();
    }

    enum class End { client, backend, failed, stopped };

    // Bytes both ways: client --TLS--> up --> backend, backend --> down --TLS--> client. `up`
    // starts with the preface. Returns which side ended it: the client (close_notify; what it
    // sent is delivered first), the backend (what it sent is delivered first; once it closed,
    // nothing more is read from the client), or neither (an error, a client that vanished, stop).
    End pump(SSL* ssl, int cfd, int bfd, std::string up) {
        std::string down;
        size_t up_off = 0, down_off = 0;
        bool client_eof = false, backend_eof = false;
        char buf[16 * 1024];
        for (;;) {
            short cev = 0, bev = 0;
            for (bool progress = true; progress;) {
                progress = false;
                cev = bev = 0;
                if (!client_eof && !backend_eof && up.size() - up_off < kBufferCap) {
                    ERR_clear_error();
                    const int n = SSL_read(ssl, buf, sizeof buf);
                    if (n > 0) {
                        up.append(buf, static_cast<size_t>(n));
                        progress = true;
                    } else {
                        switch (SSL_get_error(ssl, n)) {
                            case SSL_ERROR_WANT_READ:
                                cev |= POLLIN;
                                break;
                            case SSL_ERROR_WANT_WRITE:
                                cev |= POLLOUT;
                                break;
                            case SSL_ERROR_ZERO_RETURN:
                                client_eof = progress = true;
                                break;  // close_notify
                            default:
                                return End::failed;  // gone without close_notify, or a TLS error
                        }
                    }
                }
                if (!backend_eof && up_off < up.size()) {
                    const ssize_t n =
                        ::send(bfd, up.data() + up_off, up.size() - up_off, MSG_NOSIGNAL);
                    if (n > 0) {
                        up_off += static_cast<size_t>(n);
                        if (up_off == up.size()) up.clear(), up_off = 0;
                        progress = true;
                    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                        bev |= POLLOUT;
                    } else if (n < 0 && errno == EINTR) {
                        progress = true;
                    } else {  // the backend closed: what it sent still goes to the client
                        backend_eof = progress = true;
                    }
                }
                if (!backend_eof && down.size() - down_off < kBufferCap) {
                    const ssize_t n = ::recv(bfd, buf, sizeof buf, 0);
                    if (n > 0) {
                        down.append(buf, static_cast<size_t>(n));
                        progress = true;
                    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                        bev |= POLLIN;
                    } else if (n < 0 && errno == EINTR) {
                        progress = true;
                    } else {
                        backend_eof = progress = true;
                    }
                }
                if (down_off < down.size()) {
                    ERR_clear_error();
                    const int want =
                        static_cast<int>(std::min<size_t>(down.size() - down_off, 1 << 20));
                    const int n = SSL_write(ssl, down.data() + down_off, want);
                    if (n > 0) {
                        down_off += static_cast<size_t>(n);
                        if (down_off == down.size()) down.clear(), down_off = 0;
                        progress = true;
                    } else {
                        switch (SSL_get_error(ssl, n)) {
                            case SSL_ERROR_WANT_WRITE:
                                cev |= POLLOUT;
                                break;
                            case SSL_ERROR_WANT_READ:
                                cev |= POLLIN;
                                break;
                            default:
                                return End::failed;  // the client is gone
                        }
                    }
                }
            }
            if (backend_eof && down.empty()) return End::backend;
            if (client_eof && up.empty() && !backend_eof) return End::client;
            // A side we wait nothing from is left out: its POLLHUP would wake us in a loop.
            pollfd p[3] = {
                {cev ? cfd : -1, cev, 0}, {bev ? bfd : -1, bev, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(p, 3, -1) < 0 && errno != EINTR) return End::failed;
            if (p[2].revents) return End::stopped;
        }
    }
};

// ----------------------------------------------------------------------------------------------
TlsListener::TlsListener(Options options) : impl_(std::make_shared<Impl>(std::move(options))) {}

TlsListener::~TlsListener() {
    stop();
}

void TlsListener::start(const std::string& address, const TlsCertificate& certificate) {
    Context ctx = make_context(certificate);
    {
        std::lock_guard<std::mutex> g(impl_->ctx_m);
        impl_->current = std::move(ctx);
    }
    auto [host, port] = split_address(address);
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    if (int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
        rc != 0 || !res)
        throw std::runtime_error("api address " + address + ": " + gai_strerror(rc));
    const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const bool ok =
        fd >= 0 && ::bind(fd, res->ai_addr, res->ai_addrlen) == 0 && ::listen(fd, 1024) == 0;
    const int e = errno;
    freeaddrinfo(res);
    if (!ok) {
        if (fd >= 0) ::close(fd);
        throw std::runtime_error("api address " + address + ": cannot listen: " + std::strerror(e));
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
    impl_->listen_fd = fd;
    impl_->bound_port = address_of(bound).second;
    impl_->stop_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (impl_->stop_fd < 0)
        throw std::runtime_error(std::string("tls: eventfd: ") + std::strerror(errno));
    impl_->acceptor = std::thread([impl = impl_.get()] { impl->accept_loop(); });
}

void TlsListener::stop() {
    Impl& i = *impl_;
    if (i.stopped || i.stop_fd < 0) return;
    i.stopped = true;
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n =
        ::write(i.stop_fd, &one, sizeof one);  // wakes every poll, stays readable
    if (i.acceptor.joinable()) i.acceptor.join();
    ::close(i.listen_fd);
    i.listen_fd = -1;
    std::unique_lock<std::mutex> lock(i.m);
    if (!i.cv.wait_for(lock, std::chrono::milliseconds(kStopWaitMs),
                       [&] { return i.threads == 0; }))
        spdlog::warn("tls: {} connection threads still running at stop", i.threads);
}

int TlsListener::port() const {
    return impl_->bound_port;
}

int64_t TlsListener::connections() const {
    return impl_->open;
}

void TlsListener::reload(const std::string& cert_pem, const std::string& key_pem) {
    Context ctx = make_context(TlsCertificate{cert_pem, key_pem});
    spdlog::info("tls: certificate loaded: {}", ctx.summary);
    std::lock_guard<std::mutex> g(impl_->ctx_m);
    impl_->current = std::move(ctx);
}

void TlsListener::reload_files(const std::string& cert_file, const std::string& key_file) {
    TlsCertificate c = read_files(cert_file, key_file);
    reload(c.cert_pem, c.key_pem);
}

std::string TlsListener::certificate_summary() const {
    std::lock_guard<std::mutex> g(impl_->ctx_m);
    return impl_->current.summary;
}

TlsCertificate TlsListener::read_files(const std::string& cert_file, const std::string& key_file) {
    return TlsCertificate{read_file(cert_file, Part::certificate), read_file(key_file, Part::key)};
}

void TlsListener::check(const TlsCertificate& certificate) {
    make_context(certificate);
}

TlsCertificate TlsListener::self_signed(const std::vector<std::string>& hosts_in) {
    std::vector<std::string> hosts;
    for (const auto& h : hosts_in)
        if (!h.empty()) hosts.push_back(h);
    if (hosts.empty()) hosts.push_back("localhost");
    auto fail = [](const char* what) {
        return std::runtime_error(std::string("self-signed certificate: ") + what + ": " +
                                  openssl_error());
    };

    KeyPtr key(EVP_EC_gen("P-256"));
    if (!key) throw fail("key generation");
    X509Ptr x(X509_new());
    if (!x) throw fail("X509_new");
    X509_set_version(x.get(), X509_VERSION_3);
    unsigned char serial[16];
    if (RAND_bytes(serial, sizeof serial) != 1) throw fail("RAND_bytes");
    serial[0] &= 0x7f;  // positive
    Owned<BIGNUM, BN_free> bn(BN_bin2bn(serial, sizeof serial, nullptr));
    if (!bn || !BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(x.get()))) throw fail("serial");
    X509_gmtime_adj(X509_getm_notBefore(x.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x.get()), 30L * 24 * 3600);
    X509_set_pubkey(x.get(), key.get());
    X509_NAME* name = X509_get_subject_name(x.get());
    const std::string cn = hosts.front().substr(0, 64);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
    X509_set_issuer_name(x.get(), name);

    std::string san;
    for (const auto& h : hosts) {
        unsigned char addr[sizeof(in6_addr)];
        const bool ip =
            inet_pton(AF_INET, h.c_str(), addr) == 1 || inet_pton(AF_INET6, h.c_str(), addr) == 1;
        san += (san.empty() ? "" : ",") + std::string(ip ? "IP:" : "DNS:") + h;
    }
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, x.get(), x.get(), nullptr, nullptr, 0);
    for (auto [nid, value] : {std::pair<int, std::string>{NID_subject_alt_name, san},
                              {NID_ext_key_usage, "serverAuth"},
                              {NID_subject_key_identifier, "hash"}}) {
        X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &v3, nid, value.c_str());
        if (!ext) throw fail("extension");
        X509_add_ext(x.get(), ext, -1);
        X509_EXTENSION_free(ext);
    }
    if (X509_sign(x.get(), key.get(), EVP_sha256()) == 0) throw fail("signing");

    TlsCertificate out;
    auto pem = [](const std::function<int(BIO*)>& write) {
        BioPtr b(BIO_new(BIO_s_mem()));
        if (!b || write(b.get()) != 1)
            throw std::runtime_error("self-signed certificate: PEM: " + openssl_error());
        char* data = nullptr;
        const long n = BIO_get_mem_data(b.get(), &data);
        return std::string(data, static_cast<size_t>(n));
    };
    out.cert_pem = pem([&](BIO* b) { return PEM_write_bio_X509(b, x.get()); });
    out.key_pem = pem([&](BIO* b) {
        return PEM_write_bio_PrivateKey(b, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    });
    return out;
}

std::string TlsListener::new_secret() {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        throw std::runtime_error("RAND_bytes failed: " + openssl_error());
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned char b : bytes) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

}  // namespace platform::host
