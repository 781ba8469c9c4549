// The ACME client without a CA: host-name rules, AcmeSettings::from_env, HttpChallenges, the state
// directory (account key, certificates, file modes) and AcmeClient's reuse / renewal / allow-list
// decisions. Certificates here are self-signed; where the client would go to the network, the
// directory URL is a closed loopback port, so a request shows up as a quick "Couldn't connect".
#include "acme_store.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <platform/host/acme/acme_client.hpp>
#include <thread>

#include "../../support/file_mode.hpp"
#include "../../support/unused_port.hpp"
#include "certs.hpp"
#include "jws.hpp"

using namespace platform::host;
using namespace platform::host::acme;
using platform::test::mode_of;
using platform::test::unused_loopback_port;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

struct TempDir {
    TempDir() {
        std::string t = (std::filesystem::temp_directory_path() / "acme-unit.XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string path;
};

// A self-signed certificate for `names` valid from an hour ago until now + `valid_for` seconds.
std::string self_signed(const EcKey& key, const std::vector<std::string>& names, long valid_for) {
    static long serial = 1;
    X509* x = X509_new();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), serial++);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), valid_for);
    X509_set_pubkey(x, key.get());
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(names[0].c_str()), -1, -1, 0);
    X509_set_issuer_name(x, name);
    std::string sans;
    for (const auto& n : names) sans += (sans.empty() ? "DNS:" : ",DNS:") + n;
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, nullptr, NID_subject_alt_name, sans.c_str());
    X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
    X509_sign(x, key.get(), EVP_sha256());
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, x);
    char* data = nullptr;
    long n = BIO_get_mem_data(bio, &data);
    std::string pem(data, size_t(n));
    BIO_free(bio);
    X509_free(x);
    return pem;
}

Certificate make_certificate(const std::vector<std::string>& names, long valid_for) {
    EcKey key = EcKey::generate();
    Certificate c{self_signed(key, names, valid_for), key.private_pem(), 0};
    c.not_after_unix = inspect_chain(c.cert_pem).not_after_unix;
    return c;
}

AcmeSettings offline_settings(const std::string& state_dir) {
    AcmeSettings s;
    s.directory_url = "https://127.0.0.1:" + std::to_string(unused_loopback_port()) + "/dir";
    s.hosts = {"localhost", "platform.test"};
    s.state_dir = state_dir;
    s.request_timeout_ms = 2000;
    return s;
}

// A certificate for s.hosts valid `valid_for` seconds more, saved in s's state as one obtained
// earlier from s's directory.
Certificate stored_certificate(const AcmeSettings& s, long valid_for) {
    Certificate cert = make_certificate(s.hosts, valid_for);
    AcmeStore(s.state_dir).save(s.hosts, s.directory_url, cert);
    return cert;
}

constexpr long kDay = 86400;

}  // namespace

TEST(AcmeHosts, AcceptedNames) {
    for (const char* ok : {"localhost", "platform.test", "a-b.example.com", "xn--bcher-kva.example",
                           "a1.b2.c3", "x.io"})
        EXPECT_EQ(acme_host_problem(ok), std::nullopt) << ok;
}

TEST(AcmeHosts, RefusedNamesSayWhy) {
    const std::pair<std::string, const char*> cases[] = {
        {"", "empty"},
        {"*.example.com", "wildcard"},
        {"Example.com", "lower case"},
        {"127.0.0.1", "IP address"},
        {"10.1", "IP address"},
        {"::1", "IP address"},
        {"[::1]", "IP address"},
        {"example.com.", "trailing dot"},
        {"a..b", "empty label"},
        {"-a.com", "'-'"},
        {"a-.com", "'-'"},
        {"a_b.com", "'_'"},
        {"ex ample.com", "' '"},
        {"a/b", "'/'"},
        {std::string(64, 'a') + ".com", "63"},
        {std::string(250, 'a').insert(60, ".").insert(120, ".").insert(180, ".") + ".com", "253"},
    };
    for (const auto& [host, why] : cases) {
        auto problem = acme_host_problem(host);
        ASSERT_TRUE(problem.has_value()) << host;
        EXPECT_TRUE(has(*problem, why)) << host << ": " << *problem;
    }
}

TEST(AcmeSettingsTest, FromEnvironment) {
    ::setenv("PLATFORM_ACME_DIRECTORY_URL", "https://127.0.0.1:14000/dir", 1);
    ::setenv("PLATFORM_ACME_CA_FILE", "/tmp/pebble-ca.pem", 1);
    ::setenv("PLATFORM_ACME_EMAIL", "ops@platform.test", 1);
    auto s = AcmeSettings::from_env(" Localhost, platform.test,,localhost  other.test ",
                                    "/home/p/.platform");
    EXPECT_EQ(s.hosts, (std::vector<std::string>{"localhost", "platform.test", "other.test"}));
    EXPECT_EQ(s.state_dir, "/home/p/.platform/acme");
    EXPECT_EQ(s.directory_url, "https://127.0.0.1:14000/dir");
    EXPECT_EQ(s.ca_file, "/tmp/pebble-ca.pem");
    EXPECT_EQ(s.contact_email, "ops@platform.test");
    EXPECT_EQ(s.request_timeout_ms, 10000);
    EXPECT_EQ(s.problem(), std::nullopt);

    ::unsetenv("PLATFORM_ACME_DIRECTORY_URL");
    ::unsetenv("PLATFORM_ACME_CA_FILE");
    ::unsetenv("PLATFORM_ACME_EMAIL");
    s = AcmeSettings::from_env("example.com", "/h");
    EXPECT_EQ(s.directory_url, "https://acme-v02.api.letsencrypt.org/directory");
    EXPECT_EQ(s.ca_file, "");
}

TEST(AcmeSettingsTest, ProblemsAreRefusedByTheClient) {
    TempDir dir;
    HttpChallenges challenges;
    auto expect_refused = [&](AcmeSettings s, const char* part) {
        ASSERT_TRUE(s.problem().has_value()) << part;
        EXPECT_TRUE(has(*s.problem(), part)) << *s.problem();
        EXPECT_THROW(AcmeClient(s, challenges), std::invalid_argument);
    };
    AcmeSettings s = offline_settings(dir.path);
    s.hosts = {"ok.test", "*.example.com"};
    expect_refused(s, "PLATFORM_ACME_HOSTS: '*.example.com': wildcards");
    s.hosts = {};
    expect_refused(s, "PLATFORM_ACME_HOSTS: no host names");
    s = offline_settings(dir.path);
    s.directory_url = "http://127.0.0.1:14000/dir";
    expect_refused(s, "PLATFORM_ACME_DIRECTORY_URL");
    s.directory_url = "ftp://x/";
    expect_refused(s, "https://");
}

TEST(AcmeChallenges, AnswersOnlyKnownTokensUnderTheWellKnownPath) {
    HttpChallenges c;
    c.put("tok_EN-1", "tok_EN-1.thumb");
    EXPECT_EQ(c.answer("/.well-known/acme-challenge/tok_EN-1"), "tok_EN-1.thumb");
    EXPECT_EQ(c.find("tok_EN-1"), "tok_EN-1.thumb");
    for (const char* path :
         {"/.well-known/acme-challenge/", "/.well-known/acme-challenge/unknown",
          "/.well-known/acme-challenge/tok_EN-1?x=1", "/.well-known/acme-challenge/tok_EN-1/",
          "/.well-known/acme-challenge/../tok_EN-1", "/well-known/acme-challenge/tok_EN-1",
          "/tok_EN-1", ""})
        EXPECT_EQ(c.answer(path), std::nullopt) << path;
    c.erase("tok_EN-1");
    EXPECT_EQ(c.answer("/.well-known/acme-challenge/tok_EN-1"), std::nullopt);
    EXPECT_EQ(c.size(), 0u);
}

TEST(AcmeChallenges, ConcurrentUse) {
    HttpChallenges c;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&c, t] {
            for (int i = 0; i < 500; ++i) {
                std::string token = "t" + std::to_string(t) + "_" + std::to_string(i);
                c.put(token, token + ".k");
                EXPECT_EQ(c.answer(std::string(HttpChallenges::kPrefix) + token), token + ".k");
                c.erase(token);
            }
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(c.size(), 0u);
}

TEST(AcmeStoreTest, AccountKeyIsCreatedOnceWithPrivateModes) {
    TempDir dir;
    std::string state = dir.path + "/home/acme";
    AcmeStore store(state);
    std::string thumb = store.account_key().thumbprint();
    EXPECT_EQ(mode_of(state), 0700u);
    EXPECT_EQ(mode_of(state + "/account.key"), 0600u);
    EXPECT_EQ(AcmeStore(state).account_key().thumbprint(), thumb);  // reused, as after a restart

    write_file_atomic(state + "/account.key", "garbage", 0600);
    try {
        store.account_key();
        FAIL() << "a corrupt account key was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_TRUE(has(e.what(), "account.key")) << e.what();
    }
}

TEST(AcmeStoreTest, CertificatesAreKeptPerNameSet) {
    TempDir dir;
    AcmeStore store(dir.path + "/acme");
    const std::string ca = "https://ca.test/dir";
    Certificate cert = make_certificate({"localhost", "platform.test"}, 90 * kDay);
    store.save({"platform.test", "localhost"}, ca, cert);
    std::string slot = store.slot({"localhost", "platform.test"});
    EXPECT_EQ(slot, store.slot({"platform.test", "localhost", "localhost"}));
    EXPECT_EQ(mode_of(slot + ".key"), 0600u);
    EXPECT_EQ(mode_of(slot + ".pem"), 0644u);
    auto meta = nlohmann::json::parse(*read_file(slot + ".json"));
    EXPECT_EQ(meta["names"], (nlohmann::json{"localhost", "platform.test"}));
    EXPECT_EQ(meta["directory_url"], ca);

    auto loaded = store.load({"localhost", "platform.test"}, ca);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->cert_pem, cert.cert_pem);
    EXPECT_EQ(loaded->key_pem, cert.key_pem);
    EXPECT_EQ(loaded->not_after_unix, cert.not_after_unix);

    std::string why;
    EXPECT_FALSE(store.load({"localhost"}, ca, &why).has_value());  // another set: nothing stored
    EXPECT_EQ(why, "");
    EXPECT_FALSE(
        store.load({"localhost", "platform.test"}, "https://other.test/dir", &why).has_value());
    EXPECT_TRUE(has(why, "issued by https://ca.test/dir")) << why;

    write_file_atomic(slot + ".key", EcKey::generate().private_pem(), 0600);
    EXPECT_FALSE(store.load({"localhost", "platform.test"}, ca, &why).has_value());
    EXPECT_TRUE(has(why, "key does not match")) << why;
    std::filesystem::remove(slot + ".key");
    EXPECT_FALSE(store.load({"localhost", "platform.test"}, ca, &why).has_value());
    EXPECT_TRUE(has(why, "incomplete")) << why;
}

TEST(AcmeClientOffline, ReusesAGoodStoredCertificateWithoutTheNetwork) {
    TempDir dir;
    HttpChallenges challenges;
    AcmeSettings s = offline_settings(dir.path);
    Certificate cert = stored_certificate(s, 90 * kDay);

    AcmeClient client(s, challenges);
    Certificate got = client.obtain();
    EXPECT_EQ(got.cert_pem, cert.cert_pem);
    EXPECT_EQ(got.key_pem, cert.key_pem);
    EXPECT_EQ(client.stats().requests, 0);
    EXPECT_EQ(client.stats().reused, 1);
    ASSERT_TRUE(client.stored().has_value());
    EXPECT_EQ(client.stored()->cert_pem, cert.cert_pem);
}

TEST(AcmeClientOffline, RenewsWithin30DaysOfExpiry) {
    TempDir dir;
    HttpChallenges challenges;
    AcmeSettings s = offline_settings(dir.path);
    Certificate cert = stored_certificate(s, 10 * kDay);

    AcmeClient client(s, challenges);
    int64_t now = int64_t(std::time(nullptr));
    EXPECT_TRUE(client.needs_renewal(cert, now));
    EXPECT_FALSE(client.needs_renewal({"", "", now + 31 * kDay}, now));
    EXPECT_TRUE(client.needs_renewal({"", "", now + 30 * kDay}, now));
    try {
        client.obtain();  // renewal due: goes to the (closed) directory
        FAIL() << "obtain() did not try the network";
    } catch (const std::runtime_error& e) {
        EXPECT_TRUE(has(e.what(), "ACME directory: GET " + s.directory_url)) << e.what();
        EXPECT_TRUE(has(e.what(), "connect")) << e.what();
    }
    EXPECT_EQ(client.stats().requests, 1);
    EXPECT_EQ(client.stats().orders, 0);
    ASSERT_TRUE(client.stored().has_value());  // still servable until it expires
}

TEST(AcmeClientOffline, NamesOutsideTheAllowListAreRefusedBeforeAnyRequest) {
    TempDir dir;
    HttpChallenges challenges;
    AcmeClient client(offline_settings(dir.path), challenges);
    try {
        client.obtain({"localhost", "evil.example"});
        FAIL() << "a name outside PLATFORM_ACME_HOSTS was requested";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "ACME: 'evil.example' is not in PLATFORM_ACME_HOSTS");
    }
    EXPECT_THROW(client.obtain({"LOCALHOST"}), std::invalid_argument);
    EXPECT_THROW(client.obtain(std::vector<std::string>{}), std::invalid_argument);
    EXPECT_EQ(client.stats().requests, 0);
    EXPECT_FALSE(std::filesystem::exists(dir.path + "/account.key"));  // nothing was even generated
}

TEST(AcmeClientOffline, CancelStopsObtainAndWakesTheWait) {
    TempDir dir;
    HttpChallenges challenges;
    AcmeClient client(offline_settings(dir.path), challenges);
    std::thread canceller([&] { client.cancel(); });
    EXPECT_FALSE(client.wait_for_cancel(std::chrono::minutes(5)));  // returns once cancelled
    canceller.join();
    try {
        client.obtain();
        FAIL() << "obtain() ran after cancel()";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "ACME: cancelled");
    }
    EXPECT_EQ(client.stats().requests, 0);
}
