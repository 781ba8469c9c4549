// The host's ACME client (host/src/acme/, docs/decisions.md 23) against Debian's
// `pebble` on loopback. Each test starts its own pebble on free 127.0.0.1 ports with a generated
// config and a throw-away CA for pebble's own HTTPS, and waits until its directory answers (a
// bounded poll, no fixed sleeps). Nothing is installed here: without pebble the tests fail saying
// to run `scripts/pebble.sh install`.
//
// Checked: a certificate for localhost + platform.test (PEM, SANs, chain up to pebble's root from
// its management interface /roots/0, key match, stored key modes); a second client on the same
// state reuses it without any request; a real http-01 validation through HttpChallenges served
// over HTTP (pebble's VA connects to the test's server), and a wrong answer failing with the CA's
// reason; badNonce retries; names outside the allow-list refused before any request; bad directory
// URLs (closed port, silent port, 404, untrusted CA) failing fast with a clear message.
#include <curl/curl.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <platform/host/acme/acme_client.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "../unit/outbound/loopback_server.hpp"
#include "command.hpp"
#include "file_mode.hpp"
#include "host_process.hpp"
#include "text_search.hpp"
#include "unused_port.hpp"

using namespace platform::host;
using platform::test::has;
using platform::test::LoopbackServer;
using platform::test::mode_of;
using platform::test::unused_loopback_port;
namespace fs = std::filesystem;

extern char** environ;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream o;
    o << in.rdbuf();
    return o.str();
}

// ---- OpenSSL helpers: pebble's HTTPS certificate, and checks on what pebble issued ----------

struct Pem {
    static std::string of(X509* x) {
        return write([&](BIO* b) { return PEM_write_bio_X509(b, x); });
    }
    static std::string of(EVP_PKEY* k) {
        return write([&](BIO* b) {
            return PEM_write_bio_PrivateKey(b, k, nullptr, nullptr, 0, nullptr, nullptr);
        });
    }
    template <typename F>
    static std::string write(F f) {
        BIO* bio = BIO_new(BIO_s_mem());
        f(bio);
        char* data = nullptr;
        long n = BIO_get_mem_data(bio, &data);
        std::string out(data, size_t(n));
        BIO_free(bio);
        return out;
    }
};

void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    ASSERT_NE(ext, nullptr) << value;
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

X509* new_cert(EVP_PKEY* key, const char* cn, long serial) {
    X509* x = X509_new();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), serial);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 2 * 86400);
    X509_set_pubkey(x, key);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(cn), -1, -1, 0);
    return x;
}

// Writes ca.pem, cert.pem and key.pem into `dir`: a CA and, signed by it, a certificate for
// localhost and 127.0.0.1 that pebble serves its ACME and management HTTPS with.
void write_pebble_tls(const std::string& dir) {
    EVP_PKEY* ca_key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    X509* ca = new_cert(ca_key, "platform acme-test CA", 1);
    X509_set_issuer_name(ca, X509_get_subject_name(ca));
    add_ext(ca, ca, NID_basic_constraints, "critical,CA:TRUE");
    add_ext(ca, ca, NID_key_usage, "critical,keyCertSign,cRLSign");
    X509_sign(ca, ca_key, EVP_sha256());
    X509* cert = new_cert(key, "localhost", 2);
    X509_set_issuer_name(cert, X509_get_subject_name(ca));
    add_ext(cert, ca, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1");
    add_ext(cert, ca, NID_ext_key_usage, "serverAuth");
    X509_sign(cert, ca_key, EVP_sha256());
    std::ofstream(dir + "/ca.pem") << Pem::of(ca);
    std::ofstream(dir + "/cert.pem") << Pem::of(cert);
    std::ofstream(dir + "/key.pem") << Pem::of(key);
    X509_free(ca);
    X509_free(cert);
    EVP_PKEY_free(ca_key);
    EVP_PKEY_free(key);
}

std::vector<X509*> read_chain(const std::string& pem) {
    std::vector<X509*> out;
    BIO* bio = BIO_new_mem_buf(pem.data(), int(pem.size()));
    while (X509* c = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) out.push_back(c);
    BIO_free(bio);
    return out;
}

void free_chain(std::vector<X509*>& chain) {
    for (X509* c : chain) X509_free(c);
    chain.clear();
}

std::set<std::string> dns_names(X509* leaf) {
    std::set<std::string> names;
    auto* gens =
        static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(leaf, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; gens && i < sk_GENERAL_NAME_num(gens); ++i) {
        const GENERAL_NAME* gn = sk_GENERAL_NAME_value(gens, i);
        if (gn->type == GEN_DNS)
            names.emplace(reinterpret_cast<const char*>(ASN1_STRING_get0_data(gn->d.dNSName)),
                          size_t(ASN1_STRING_length(gn->d.dNSName)));
    }
    GENERAL_NAMES_free(gens);
    return names;
}

std::string serial_of(X509* c) {
    BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(c), nullptr);
    char* hex = BN_bn2hex(bn);
    std::string s = hex;
    OPENSSL_free(hex);
    BN_free(bn);
    return s;
}

// X509_verify_cert of the leaf, with the rest of `chain` as untrusted intermediates and `root_pem`
// as the only trust anchor, for TLS server use by `host`. Returns "" or the verification error.
std::string verify_chain(const std::vector<X509*>& chain, const std::string& root_pem,
                         const std::string& host) {
    auto roots = read_chain(root_pem);
    if (roots.empty()) return "no root certificate";
    X509_STORE* store = X509_STORE_new();
    X509_STORE_add_cert(store, roots[0]);
    STACK_OF(X509)* untrusted = sk_X509_new_null();
    for (size_t i = 1; i < chain.size(); ++i) sk_X509_push(untrusted, chain[i]);
    X509_STORE_CTX* ctx = X509_STORE_CTX_new();
    X509_STORE_CTX_init(ctx, store, chain[0], untrusted);
    X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
    X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
    std::string error;
    if (X509_verify_cert(ctx) != 1)
        error = X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx));
    X509_STORE_CTX_free(ctx);
    sk_X509_free(untrusted);
    X509_STORE_free(store);
    free_chain(roots);
    return error;
}

bool key_matches(const std::string& cert_pem, const std::string& key_pem) {
    auto chain = read_chain(cert_pem);
    BIO* bio = BIO_new_mem_buf(key_pem.data(), int(key_pem.size()));
    EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    bool ok = !chain.empty() && key && X509_check_private_key(chain[0], key) == 1;
    EVP_PKEY_free(key);
    free_chain(chain);
    return ok;
}

// ---- HTTPS GET (pebble's management interface and readiness) ---------------------------------

size_t collect(char* d, size_t s, size_t n, void* out) {
    static_cast<std::string*>(out)->append(d, s * n);
    return s * n;
}

// The status (0 when the request failed) and body of GET `url`, trusting `ca_file`.
std::pair<long, std::string> https_get(const std::string& url, const std::string& ca_file) {
    CURL* c = curl_easy_init();
    std::string body;
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_CAINFO, ca_file.c_str());
    curl_easy_setopt(c, CURLOPT_PROXY, "");
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 2000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
    long status = 0;
    if (curl_easy_perform(c) == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(c);
    return {status, body};
}

// ---- pebble -----------------------------------------------------------------------------------

std::string find_pebble() {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    dirs += ":/usr/bin:/usr/sbin";
    std::stringstream ss(dirs);
    for (std::string d; std::getline(ss, d, ':');)
        if (!d.empty() && ::access((d + "/pebble").c_str(), X_OK) == 0) return d + "/pebble";
    return "";
}

// One pebble process on free loopback ports; stopped (SIGTERM, then SIGKILL) when destroyed.
class Pebble {
public:
    struct Options {
        bool always_valid = true;  // PEBBLE_VA_ALWAYS_VALID
        int http_port = 0;         // where the VA connects for http-01 (0: a closed port)
        int nonce_reject = 0;      // PEBBLE_WFE_NONCEREJECT, percent
    };

    explicit Pebble(const Options& o) {
        binary_ = find_pebble();
        if (binary_.empty()) return;
        std::string t = (fs::temp_directory_path() / "acme-pebble.XXXXXX").string();
        dir_ = ::mkdtemp(t.data());
        write_pebble_tls(dir_);
        ca_file = dir_ + "/ca.pem";
        for (int attempt = 0; attempt < 3 && !ready_; ++attempt)
            start(o);  // a port may be taken meanwhile
    }

    ~Pebble() {
        stop();
        if (!dir_.empty()) fs::remove_all(dir_);
    }

    bool installed() const { return !binary_.empty(); }
    bool ready() const { return ready_; }
    std::string log() const { return slurp(dir_ + "/pebble.log"); }
    std::string root_pem() const { return https_get(mgmt_url + "/roots/0", ca_file).second; }

    std::string directory_url, mgmt_url, ca_file;

private:
    void start(const Options& o) {
        int port = unused_loopback_port(), mgmt = unused_loopback_port();
        directory_url = "https://127.0.0.1:" + std::to_string(port) + "/dir";
        mgmt_url = "https://127.0.0.1:" + std::to_string(mgmt);
        nlohmann::json config = {{"pebble",
                                  {{"listenAddress", "127.0.0.1:" + std::to_string(port)},
                                   {"managementListenAddress", "127.0.0.1:" + std::to_string(mgmt)},
                                   {"certificate", dir_ + "/cert.pem"},
                                   {"privateKey", dir_ + "/key.pem"},
                                   {"httpPort", o.http_port ? o.http_port : unused_loopback_port()},
                                   {"tlsPort", unused_loopback_port()},
                                   {"ocspResponderURL", ""},
                                   {"externalAccountBindingRequired", false}}}};
        std::ofstream(dir_ + "/pebble.json") << config.dump(2);

        // Everything the child needs is built before fork: it only calls async-signal-safe
        // functions.
        std::vector<std::string> env_strings;
        for (char** e = environ; *e; ++e)
            if (std::string(*e).rfind("PEBBLE_", 0) != 0) env_strings.emplace_back(*e);
        env_strings.push_back("PEBBLE_VA_NOSLEEP=1");
        env_strings.push_back("PEBBLE_WFE_NONCEREJECT=" + std::to_string(o.nonce_reject));
        if (o.always_valid) env_strings.push_back("PEBBLE_VA_ALWAYS_VALID=1");
        std::vector<char*> envp;
        for (auto& s : env_strings) envp.push_back(s.data());
        envp.push_back(nullptr);
        std::string config_path = dir_ + "/pebble.json", arg0 = "pebble", flag = "-config";
        char* argv[] = {arg0.data(), flag.data(), config_path.data(), nullptr};
        int log_fd =
            ::open((dir_ + "/pebble.log").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

        pid_ = ::fork();
        if (pid_ == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
            ::dup2(log_fd, 1);
            ::dup2(log_fd, 2);
            ::execve(binary_.c_str(), argv, envp.data());
            ::_exit(127);
        }
        ::close(log_fd);

        // Ready when the directory answers 200; gone when the process exited (port taken...).
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return;
            }
            if (https_get(directory_url, ca_file).first == 200) {
                ready_ = true;
                return;
            }
            std::this_thread::sleep_for(
                std::chrono::milliseconds(50));  // poll interval, bounded above
        }
        stop();
    }

    void stop() { platform::test::stop_child(pid_); }

    std::string binary_, dir_;
    int pid_ = -1;
    bool ready_ = false;
};

#define REQUIRE_PEBBLE(p)                                                                         \
    do {                                                                                          \
        ASSERT_TRUE((p).installed()) << "pebble is not installed: run scripts/pebble.sh install"; \
        ASSERT_TRUE((p).ready()) << "pebble did not start; its log:\n" << (p).log();              \
    } while (0)

struct TempDir {
    TempDir() {
        std::string t = (fs::temp_directory_path() / "acme-state.XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~TempDir() { fs::remove_all(path); }
    std::string path;
};

AcmeSettings settings_for(const Pebble& p, const std::string& state_dir,
                          std::vector<std::string> hosts) {
    AcmeSettings s;
    s.directory_url = p.directory_url;
    s.ca_file = p.ca_file;
    s.hosts = std::move(hosts);
    s.state_dir = state_dir + "/acme";
    s.contact_email = "ops@platform.test";
    s.poll_interval_ms = 100;  // pebble with PEBBLE_VA_NOSLEEP answers at once
    return s;
}

}  // namespace

TEST(AcmePebble, ObtainsAVerifiableCertificateAndReusesIt) {
    Pebble pebble({});
    REQUIRE_PEBBLE(pebble);
    TempDir state;
    HttpChallenges challenges;
    AcmeSettings s = settings_for(pebble, state.path, {"localhost", "platform.test"});

    Certificate cert;
    std::string serial;
    {
        AcmeClient client(s, challenges);
        ASSERT_NO_THROW(cert = client.obtain()) << pebble.log();
        EXPECT_EQ(client.stats().orders, 1);
        EXPECT_GT(client.stats().requests, 5);
        EXPECT_EQ(challenges.size(), 0u);  // the answers are withdrawn after the order
    }

    auto chain = read_chain(cert.cert_pem);
    ASSERT_GE(chain.size(), 2u) << cert.cert_pem;  // leaf + pebble's intermediate
    EXPECT_EQ(dns_names(chain[0]), (std::set<std::string>{"localhost", "platform.test"}));
    serial = serial_of(chain[0]);
    std::string root = pebble.root_pem();
    ASSERT_TRUE(has(root, "BEGIN CERTIFICATE")) << root;
    EXPECT_EQ(verify_chain(chain, root, "platform.test"), "");
    EXPECT_EQ(verify_chain(chain, root, "localhost"), "");
    EXPECT_NE(verify_chain(chain, root, "other.test"), "");      // the SANs are exactly ours
    EXPECT_NE(verify_chain({chain[0]}, root, "localhost"), "");  // the intermediate is needed
    EXPECT_TRUE(key_matches(cert.cert_pem, cert.key_pem));
    struct tm tm {};
    ASN1_TIME_to_tm(X509_get0_notAfter(chain[0]), &tm);
    EXPECT_EQ(cert.not_after_unix, int64_t(timegm(&tm)));
    EXPECT_GT(cert.not_after_unix, int64_t(std::time(nullptr)) + 31 * 86400);
    free_chain(chain);

    // What is on disk: private files 0600 in a 0700 folder.
    EXPECT_EQ(mode_of(s.state_dir), 0700u);
    EXPECT_EQ(mode_of(s.state_dir + "/account.key"), 0600u);
    int keys = 0;
    for (const auto& e : fs::directory_iterator(s.state_dir))
        if (e.path().extension() == ".key") {
            ++keys;
            EXPECT_EQ(mode_of(e.path()), 0600u) << e.path();
        }
    EXPECT_EQ(keys, 2);  // account.key + the certificate's

    // A restart: a new client on the same state serves the stored certificate, no request at all.
    AcmeClient again(s, challenges);
    Certificate reused = again.obtain();
    EXPECT_EQ(reused.cert_pem, cert.cert_pem);
    EXPECT_EQ(reused.key_pem, cert.key_pem);
    EXPECT_EQ(again.stats().requests, 0);
    EXPECT_EQ(again.stats().orders, 0);
    EXPECT_EQ(again.stats().reused, 1);
    auto reused_chain = read_chain(reused.cert_pem);
    EXPECT_EQ(serial_of(reused_chain[0]), serial);
    free_chain(reused_chain);

    // A subset of the allow-list is its own certificate (one order, the same account).
    Certificate only_localhost = again.obtain({"localhost"});
    EXPECT_EQ(again.stats().orders, 1);
    auto small = read_chain(only_localhost.cert_pem);
    ASSERT_FALSE(small.empty());
    EXPECT_EQ(dns_names(small[0]), (std::set<std::string>{"localhost"}));
    free_chain(small);
    EXPECT_EQ(again.obtain().cert_pem, cert.cert_pem);  // the two-name one is still stored
}

TEST(AcmePebble, Http01IsValidatedThroughHttpChallenges) {
    HttpChallenges challenges;
    // What the gateway's GET /.well-known/acme-challenge/<token> route does.
    LoopbackServer responder([&](const LoopbackServer::Request& r) {
        auto answer = challenges.answer(r.target);
        return answer ? LoopbackServer::reply(200, *answer, {{"Content-Type", "text/plain"}})
                      : LoopbackServer::reply(404, "not found");
    });
    Pebble::Options o;
    o.always_valid =
        false;  // pebble's VA fetches http://localhost:<port>/.well-known/acme-challenge/...
    o.http_port = responder.port();
    Pebble pebble(o);
    REQUIRE_PEBBLE(pebble);
    TempDir state;
    AcmeClient client(settings_for(pebble, state.path, {"localhost"}), challenges);
    Certificate cert;
    ASSERT_NO_THROW(cert = client.obtain()) << pebble.log();
    auto chain = read_chain(cert.cert_pem);
    ASSERT_FALSE(chain.empty());
    EXPECT_EQ(dns_names(chain[0]), (std::set<std::string>{"localhost"}));
    free_chain(chain);

    bool validated = false;
    for (const auto& r : responder.requests())
        validated =
            validated || (r.method == "GET" && r.target.rfind(HttpChallenges::kPrefix, 0) == 0);
    EXPECT_TRUE(validated) << "pebble's VA never fetched a challenge";
    EXPECT_EQ(challenges.size(), 0u);
}

TEST(AcmePebble, AWrongChallengeAnswerFailsWithTheCasReason) {
    LoopbackServer responder(
        [](const LoopbackServer::Request&) { return LoopbackServer::reply(200, "wrong"); });
    Pebble::Options o;
    o.always_valid = false;
    o.http_port = responder.port();
    Pebble pebble(o);
    REQUIRE_PEBBLE(pebble);
    TempDir state;
    HttpChallenges challenges;
    AcmeClient client(settings_for(pebble, state.path, {"localhost"}), challenges);
    try {
        client.obtain();
        FAIL() << "a wrong key authorization was accepted";
    } catch (const std::runtime_error& e) {
        std::cout << "  obtain(): " << e.what() << "\n";
        EXPECT_TRUE(has(e.what(), "ACME authorization localhost: status \"invalid\"")) << e.what();
        EXPECT_TRUE(has(e.what(), "urn:ietf:params:acme:error:unauthorized")) << e.what();
    }
    EXPECT_EQ(challenges.size(), 0u);
    EXPECT_FALSE(client.stored().has_value());
}

TEST(AcmePebble, RetriesOnBadNonce) {
    Pebble::Options o;
    o.nonce_reject = 50;  // pebble refuses half of the good nonces with badNonce
    Pebble pebble(o);
    REQUIRE_PEBBLE(pebble);
    TempDir state;
    HttpChallenges challenges;
    AcmeSettings s = settings_for(pebble, state.path, {"localhost"});
    s.bad_nonce_retries = 30;  // 2^-31 odds of a request refused that many times in a row
    AcmeClient client(s, challenges);
    ASSERT_NO_THROW(client.obtain()) << pebble.log();
    EXPECT_GT(client.stats().bad_nonce_retries,
              0);  // 2^-10 odds of ten signed requests all passing
}

TEST(AcmePebble, NamesOutsideTheAllowListAreNeverRequested) {
    Pebble pebble({});
    REQUIRE_PEBBLE(pebble);
    TempDir state;
    HttpChallenges challenges;
    AcmeClient client(settings_for(pebble, state.path, {"localhost"}), challenges);
    try {
        client.obtain({"platform.test"});
        FAIL() << "a name outside PLATFORM_ACME_HOSTS was requested";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "ACME: 'platform.test' is not in PLATFORM_ACME_HOSTS");
    }
    EXPECT_EQ(client.stats().requests, 0);
    // And the allow-list itself only takes names the client can stand behind.
    AcmeSettings wildcard = settings_for(pebble, state.path, {"*.platform.test"});
    EXPECT_THROW(AcmeClient(wildcard, challenges), std::invalid_argument);
    AcmeSettings ip = settings_for(pebble, state.path, {"127.0.0.1"});
    EXPECT_THROW(AcmeClient(ip, challenges), std::invalid_argument);
}

TEST(AcmeDirectory, BadUrlsFailFastWithAClearMessage) {
    TempDir state;
    HttpChallenges challenges;
    auto failure = [&](AcmeSettings s) -> std::string {
        s.hosts = {"localhost"};
        s.state_dir = state.path + "/acme";
        AcmeClient client(s, challenges);
        auto t0 = std::chrono::steady_clock::now();
        std::string message;
        try {
            client.obtain();
        } catch (const std::runtime_error& e) {
            message = e.what();
        }
        EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << message;
        std::cout << "  obtain(): " << message << "\n";  // the messages an operator would see
        EXPECT_EQ(client.stats().orders, 0);
        return message;
    };

    AcmeSettings closed;
    closed.directory_url = "https://127.0.0.1:" + std::to_string(unused_loopback_port()) + "/dir";
    std::string m = failure(closed);
    EXPECT_TRUE(has(m, "ACME directory: GET " + closed.directory_url + ": Couldn't connect")) << m;

    // A port that accepts connections and never answers: the request timeout ends it.
    int silent = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(silent, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(silent, 8);
    socklen_t len = sizeof a;
    ::getsockname(silent, reinterpret_cast<sockaddr*>(&a), &len);
    AcmeSettings hang;
    hang.directory_url = "https://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/dir";
    hang.request_timeout_ms = 500;
    m = failure(hang);
    ::close(silent);
    EXPECT_TRUE(has(m, "ACME directory: GET " + hang.directory_url + ": Timeout")) << m;

    Pebble pebble({});
    REQUIRE_PEBBLE(pebble);
    AcmeSettings not_found;
    not_found.directory_url = pebble.directory_url + "ectory-not-here";
    not_found.ca_file = pebble.ca_file;
    m = failure(not_found);
    EXPECT_TRUE(has(m, "ACME directory: 404 from " + not_found.directory_url)) << m;

    AcmeSettings untrusted;  // pebble's HTTPS certificate is not in the system store
    untrusted.directory_url = pebble.directory_url;
    m = failure(untrusted);
    EXPECT_TRUE(has(m, "ACME directory: GET " + untrusted.directory_url)) << m;
    EXPECT_TRUE(has(m, "PLATFORM_ACME_CA_FILE")) << m;
}

// The whole path on loopback: `platform server` with PLATFORM_ENABLE_ACME obtains a certificate
// for `localhost` from pebble and serves it on its TLS port; a client trusting only pebble's root
// completes the handshake and gets the version answer.
TEST(AcmeHost, ServesThePebbleCertificateOnItsTlsPort) {
    Pebble pebble({});
    ASSERT_TRUE(pebble.ready()) << "pebble is not installed: run scripts/pebble.sh install";
    const std::string root = pebble.root_pem();
    TempDir dir;
    const std::string root_file = dir.path + "/pebble-root.pem";
    std::ofstream(root_file) << root;

    platform::test::HostProcess::Options o;
    o.env["PLATFORM_ENABLE_ACME"] = "1";
    o.env["PLATFORM_ACME_HOSTS"] = "localhost";
    o.env["PLATFORM_ACME_DIRECTORY_URL"] = pebble.directory_url;
    o.env["PLATFORM_ACME_CA_FILE"] = pebble.ca_file;
    platform::test::HostProcess host(o);
    host.start();
    ASSERT_TRUE(host.wait_for_log("acme: serving", 60000)) << host.log();

    CURL* curl = curl_easy_init();
    std::string body;
    const std::string url = "https://localhost:" + std::to_string(host.api_port()) + "/";
    curl_slist* resolve = curl_slist_append(
        nullptr, ("localhost:" + std::to_string(host.api_port()) + ":127.0.0.1").c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_RESOLVE, resolve);
    curl_easy_setopt(curl, CURLOPT_CAINFO, root_file.c_str());
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
    curl_easy_setopt(
        curl, CURLOPT_WRITEFUNCTION, +[](char* p, size_t s, size_t n, void* u) {
            static_cast<std::string*>(u)->append(p, s * n);
            return s * n;
        });
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(resolve);
    curl_easy_cleanup(curl);
    ASSERT_EQ(rc, CURLE_OK) << curl_easy_strerror(rc) << "\n" << host.log();
    EXPECT_EQ(status, 200);
    EXPECT_NE(body.find("version"), std::string::npos) << body;
}
