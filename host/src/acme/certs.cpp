// host/src/acme/certs.cpp — the CSR (RFC 8555 §7.4) and certificate-chain checks.
#include "certs.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <platform/host/acme/openssl_handles.hpp>
#include <stdexcept>

namespace platform::host::acme {
namespace {

using openssl::Bio;
using openssl::Owned;
using openssl::X509Ptr;
using Req = Owned<X509_REQ, X509_REQ_free>;
using Ext = Owned<X509_EXTENSION, X509_EXTENSION_free>;
using Names = Owned<GENERAL_NAMES, GENERAL_NAMES_free>;

// Every certificate of the PEM text, in order.
std::vector<X509Ptr> read_chain(const std::string& pem) {
    Bio bio = openssl::memory_bio(pem);
    if (!bio) openssl_failure("certificate chain");
    ERR_clear_error();
    std::vector<X509Ptr> chain;
    while (X509* c = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) chain.emplace_back(c);
    // The loop ends on "no start line" after the last certificate; anything else is a bad PEM.
    unsigned long e = ERR_peek_last_error();
    if (e && !(ERR_GET_LIB(e) == ERR_LIB_PEM && ERR_GET_REASON(e) == PEM_R_NO_START_LINE))
        openssl_failure("certificate chain: bad PEM");
    ERR_clear_error();
    if (chain.empty())
        throw std::runtime_error("certificate chain: no certificate in the PEM text");
    return chain;
}

}  // namespace

std::vector<std::string> sorted_names(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

std::string make_csr_der(const EcKey& key, const std::vector<std::string>& names) {
    if (names.empty()) throw std::runtime_error("CSR: no names");
    Req req(X509_REQ_new());
    if (!req || !X509_REQ_set_version(req.get(), X509_REQ_VERSION_1)) openssl_failure("CSR");
    if (names.front().size() <= 64) {
        X509_NAME* subject = X509_REQ_get_subject_name(req.get());
        if (!X509_NAME_add_entry_by_txt(
                subject, "CN", MBSTRING_UTF8,
                reinterpret_cast<const unsigned char*>(names.front().c_str()), -1, -1, 0))
            openssl_failure("CSR: subject");
    }
    Names sans(sk_GENERAL_NAME_new_null());
    for (const auto& name : names) {
        GENERAL_NAME* gn = GENERAL_NAME_new();
        ASN1_IA5STRING* ia5 = ASN1_IA5STRING_new();
        if (!gn || !ia5 || !ASN1_STRING_set(ia5, name.data(), int(name.size()))) {
            GENERAL_NAME_free(gn);
            ASN1_IA5STRING_free(ia5);
            openssl_failure("CSR: subjectAltName");
        }
        GENERAL_NAME_set0_value(gn, GEN_DNS, ia5);
        if (!sk_GENERAL_NAME_push(sans.get(), gn)) {
            GENERAL_NAME_free(gn);
            openssl_failure("CSR: subjectAltName");
        }
    }
    Ext ext(X509V3_EXT_i2d(NID_subject_alt_name, 0, sans.get()));
    STACK_OF(X509_EXTENSION)* exts = sk_X509_EXTENSION_new_null();
    bool ok = ext && exts && sk_X509_EXTENSION_push(exts, ext.get()) &&
              X509_REQ_add_extensions(req.get(), exts);
    sk_X509_EXTENSION_free(exts);  // the extension itself is owned by `ext`
    if (!ok) openssl_failure("CSR: extensions");
    if (!X509_REQ_set_pubkey(req.get(), key.get()) ||
        X509_REQ_sign(req.get(), key.get(), EVP_sha256()) <= 0)
        openssl_failure("CSR: signing");
    unsigned char* der = nullptr;
    int len = i2d_X509_REQ(req.get(), &der);
    if (len <= 0) openssl_failure("CSR: encoding");
    std::string out(reinterpret_cast<char*>(der), size_t(len));
    OPENSSL_free(der);
    return out;
}

LeafInfo inspect_chain(const std::string& chain_pem) {
    auto chain = read_chain(chain_pem);
    X509* leaf = chain.front().get();
    LeafInfo info;
    info.chain_length = int(chain.size());

    struct tm tm {};
    if (!ASN1_TIME_to_tm(X509_get0_notAfter(leaf), &tm)) openssl_failure("certificate: notAfter");
    info.not_after_unix = int64_t(timegm(&tm));

    Names sans(static_cast<GENERAL_NAMES*>(
        X509_get_ext_d2i(leaf, NID_subject_alt_name, nullptr, nullptr)));
    for (int i = 0; sans && i < sk_GENERAL_NAME_num(sans.get()); ++i) {
        const GENERAL_NAME* gn = sk_GENERAL_NAME_value(sans.get(), i);
        if (gn->type != GEN_DNS) continue;
        const ASN1_IA5STRING* s = gn->d.dNSName;
        info.dns_names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                                    size_t(ASN1_STRING_length(s)));
    }
    info.dns_names = sorted_names(std::move(info.dns_names));

    BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(leaf), nullptr);
    char* hex = bn ? BN_bn2hex(bn) : nullptr;
    if (hex) info.serial_hex = hex;
    OPENSSL_free(hex);
    BN_free(bn);
    return info;
}

bool key_matches_leaf(const std::string& chain_pem, const EcKey& key) {
    auto chain = read_chain(chain_pem);
    bool ok = X509_check_private_key(chain.front().get(), key.get()) == 1;
    ERR_clear_error();
    return ok;
}

}  // namespace platform::host::acme
