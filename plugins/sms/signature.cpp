#include "signature.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <platform/sdk/text.hpp>

namespace sms {

std::string webhook_signature(const std::string& auth_token, const std::string& url,
                              FormParams params) {
    std::sort(params.begin(), params.end());
    std::string data = url;
    for (const auto& [name, value] : params) data += name + value;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha1(), auth_token.data(), static_cast<int>(auth_token.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &len);
    return platform::base64_encode(std::string(reinterpret_cast<const char*>(mac), len));
}

bool signature_matches(const std::string& expected, const std::string& given) {
    return !expected.empty() && expected.size() == given.size() &&
           CRYPTO_memcmp(expected.data(), given.data(), expected.size()) == 0;
}

FormParams form_params(const nlohmann::json& args) {
    FormParams out;
    for (const auto& [name, value] : args.items()) {
        if (value.is_string())
            out.emplace_back(name, value.get<std::string>());
        else if (value.is_number() || value.is_boolean())
            out.emplace_back(name, value.dump());
    }
    return out;
}

}  // namespace sms
