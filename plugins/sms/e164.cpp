#include "e164.hpp"

namespace sms {

namespace {
constexpr std::string_view kWhatsapp = "whatsapp:";
}

bool valid_number(std::string_view n) {
    if (n.size() < 8 || n.size() > 16 || n[0] != '+' || n[1] < '1' || n[1] > '9') return false;
    for (size_t i = 2; i < n.size(); ++i)
        if (n[i] < '0' || n[i] > '9') return false;
    return true;
}

std::string provider_address(const std::string& number, const std::string& channel) {
    return channel == "whatsapp" ? std::string(kWhatsapp) + number : number;
}

std::optional<Address> parse_provider_address(std::string_view address) {
    Address a{"sms", std::string(address)};
    if (address.substr(0, kWhatsapp.size()) == kWhatsapp) {
        a.channel = "whatsapp";
        a.number = std::string(address.substr(kWhatsapp.size()));
    }
    if (!valid_number(a.number)) return std::nullopt;
    return a;
}

}  // namespace sms
