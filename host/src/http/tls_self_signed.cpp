#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <functional>
#include <platform/host/acme/openssl_handles.hpp>
#include <platform/host/http/tls_context.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <stdexcept>
#include <utility>

namespace platform::host {

namespace {

using openssl::Owned;
using openssl::X509Ptr;
using tls::openssl_error;
using BioPtr = openssl::Bio;
using KeyPtr = Owned<EVP_PKEY, EVP_PKEY_free>;

std::runtime_error failure(const char* what) {
    return std::runtime_error(std::string("self-signed certificate: ") + what + ": " +
                              openssl_error());
}

// The certificate's fields: a random positive serial, valid from an hour ago for 30 days, `cn` as
// subject and issuer, `key`'s public key.
X509Ptr new_certificate(EVP_PKEY* key, const std::string& cn) {
    X509Ptr x(X509_new());
    if (!x) throw failure("X509_new");
    X509_set_version(x.get(), X509_VERSION_3);
    unsigned char serial[16];
    if (RAND_bytes(serial, sizeof serial) != 1) throw failure("RAND_bytes");
    serial[0] &= 0x7f;  // positive
    Owned<BIGNUM, BN_free> bn(BN_bin2bn(serial, sizeof serial, nullptr));
    if (!bn || !BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(x.get())))
        throw failure("serial");
    X509_gmtime_adj(X509_getm_notBefore(x.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x.get()), 30L * 24 * 3600);
    X509_set_pubkey(x.get(), key);
    X509_NAME* name = X509_get_subject_name(x.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
    X509_set_issuer_name(x.get(), name);
    return x;
}

// subjectAltName for `hosts`: "DNS:example.com,IP:127.0.0.1".
std::string alt_names(const std::vector<std::string>& hosts) {
    std::string san;
    for (const auto& h : hosts) {
        unsigned char addr[sizeof(in6_addr)];
        const bool ip =
            inet_pton(AF_INET, h.c_str(), addr) == 1 || inet_pton(AF_INET6, h.c_str(), addr) == 1;
        san += (san.empty() ? "" : ",") + std::string(ip ? "IP:" : "DNS:") + h;
    }
    return san;
}

// subjectAltName, serverAuth and the subject key identifier.
void add_extensions(X509* x, const std::string& san) {
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, x, x, nullptr, nullptr, 0);
    for (auto [nid, value] : {std::pair<int, std::string>{NID_subject_alt_name, san},
                              {NID_ext_key_usage, "serverAuth"},
                              {NID_subject_key_identifier, "hash"}}) {
        X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &v3, nid, value.c_str());
        if (!ext) throw failure("extension");
        X509_add_ext(x, ext, -1);
        X509_EXTENSION_free(ext);
    }
}

// What `write` puts in a memory BIO, as text.
std::string pem(const std::function<int(BIO*)>& write) {
    BioPtr b(BIO_new(BIO_s_mem()));
    if (!b || write(b.get()) != 1)
        throw std::runtime_error("self-signed certificate: PEM: " + openssl_error());
    char* data = nullptr;
    const long n = BIO_get_mem_data(b.get(), &data);
    return std::string(data, static_cast<size_t>(n));
}

}  // namespace

TlsCertificate TlsListener::self_signed(const std::vector<std::string>& hosts_in) {
    std::vector<std::string> hosts;
    for (const auto& h : hosts_in)
        if (!h.empty()) hosts.push_back(h);
    if (hosts.empty()) hosts.push_back("localhost");

    KeyPtr key(EVP_EC_gen("P-256"));
    if (!key) throw failure("key generation");
    X509Ptr x = new_certificate(key.get(), hosts.front().substr(0, 64));
    add_extensions(x.get(), alt_names(hosts));
    if (X509_sign(x.get(), key.get(), EVP_sha256()) == 0) throw failure("signing");

    TlsCertificate out;
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
