#include "ec_keys.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include <stdexcept>

namespace notify {

namespace {

struct Group {
    EC_GROUP* g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    ~Group() { EC_GROUP_free(g); }
};

const unsigned char* bytes(std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

// The key built from `params` (selection: EVP_PKEY_KEYPAIR or EVP_PKEY_PUBLIC_KEY).
Pkey from_params(OSSL_PARAM_BLD* bld, int selection) {
    OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
    EVP_PKEY* key = nullptr;
    const bool ok = params && ctx && EVP_PKEY_fromdata_init(ctx) == 1 &&
                    EVP_PKEY_fromdata(ctx, &key, selection, params) == 1;
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    if (!ok) throw std::runtime_error("notify: OpenSSL could not build the P-256 key");
    return Pkey(key);
}

}  // namespace

Pkey generate_p256() {
    EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    if (!k) throw std::runtime_error("notify: cannot generate a P-256 key");
    return Pkey(k);
}

Pkey p256_private(std::string_view raw) {
    if (raw.size() != 32) throw std::invalid_argument("notify: a P-256 private key has 32 bytes");
    Group group;
    BIGNUM* d = BN_bin2bn(bytes(raw), 32, nullptr);
    EC_POINT* pub = group.g ? EC_POINT_new(group.g) : nullptr;
    unsigned char point[65];
    const bool ok = d && pub && !BN_is_zero(d) && BN_cmp(d, EC_GROUP_get0_order(group.g)) < 0 &&
                    EC_POINT_mul(group.g, pub, d, nullptr, nullptr, nullptr) == 1 &&
                    EC_POINT_point2oct(group.g, pub, POINT_CONVERSION_UNCOMPRESSED, point,
                                       sizeof point, nullptr) == sizeof point;
    EC_POINT_free(pub);
    if (!ok) {
        BN_free(d);
        throw std::invalid_argument("notify: not a P-256 private key");
    }
    OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
    const bool built =
        bld && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) &&
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point);
    Pkey key = built ? from_params(bld, EVP_PKEY_KEYPAIR) : nullptr;
    OSSL_PARAM_BLD_free(bld);
    BN_clear_free(d);
    if (!key) throw std::runtime_error("notify: OpenSSL could not build the P-256 key");
    return key;
}

Pkey p256_public(std::string_view raw) {
    Group group;
    EC_POINT* p = group.g ? EC_POINT_new(group.g) : nullptr;
    const bool on_curve = p && raw.size() == 65 && raw[0] == 0x04 &&
                          EC_POINT_oct2point(group.g, p, bytes(raw), raw.size(), nullptr) == 1;
    EC_POINT_free(p);
    if (!on_curve) throw std::invalid_argument("notify: not an uncompressed P-256 point");
    OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
    const bool built =
        bld && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) &&
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, raw.data(), raw.size());
    Pkey key = built ? from_params(bld, EVP_PKEY_PUBLIC_KEY) : nullptr;
    OSSL_PARAM_BLD_free(bld);
    if (!key) throw std::runtime_error("notify: OpenSSL could not build the P-256 key");
    return key;
}

std::string public_raw(EVP_PKEY* key) {
    std::string out(65, '\0');
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY,
                                        reinterpret_cast<unsigned char*>(out.data()), out.size(),
                                        &len) != 1 ||
        len != 65 || out[0] != 0x04)
        throw std::runtime_error("notify: cannot encode the P-256 public key");
    return out;
}

}  // namespace notify
