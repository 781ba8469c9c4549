#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <platform/host/acme/openssl_handles.hpp>
#include <platform/host/http/tls_context.hpp>
#include <vector>

namespace platform::host {

namespace tls {

namespace {

using Part = TlsCertificateError::Part;
using openssl::memory_bio;
using openssl::Owned;
using openssl::X509Ptr;
using BioPtr = openssl::Bio;
using KeyPtr = Owned<EVP_PKEY, EVP_PKEY_free>;

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

}  // namespace

std::string openssl_error(const std::string& fallback) {
    std::string out;
    while (unsigned long e = ERR_get_error()) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof buf);
        const char* reason = ERR_reason_error_string(e);
        out = reason ? reason : buf;  // the last one is the most specific
    }
    return out.empty() ? fallback : out;
}

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

std::string read_pem_file(const std::string& path, Part part) {
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

}  // namespace tls

TlsCertificate TlsListener::read_files(const std::string& cert_file, const std::string& key_file) {
    return TlsCertificate{tls::read_pem_file(cert_file, TlsCertificateError::Part::certificate),
                          tls::read_pem_file(key_file, TlsCertificateError::Part::key)};
}

void TlsListener::check(const TlsCertificate& certificate) {
    tls::make_context(certificate);
}

}  // namespace platform::host
