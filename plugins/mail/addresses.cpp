#include "addresses.hpp"

#include <cctype>
#include <regex>

#include "common/accounts/accounts.hpp"

namespace mail {

namespace {

bool dns_label(const std::string& label) {
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
        return false;
    for (char c : label)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
    return true;
}

// The local account a name names: the whole name when it is an account (or may be), else the
// part before its first '+' with the rest as the tag.
Recipient local(const platform::Host& host, const std::string& name) {
    if (name.empty()) throw platform::invalid_argument("to: names no account");
    const std::optional<bool> whole = common::accounts::known(host, name);
    if (whole == true) return {false, name, "", ""};
    const size_t plus = name.find('+');
    if (plus == std::string::npos) {
        if (whole == false)
            throw platform::not_found("to: no account " + name + " on this instance");
        return {false, name, "", ""};
    }
    const std::string account = name.substr(0, plus), tag = name.substr(plus + 1);
    if (account.empty()) throw platform::invalid_argument("to: names no account before '+'");
    if (!valid_tag(tag))
        throw platform::invalid_argument(
            "to: the tag after '+' must be 1 to 64 of letters, digits, '.', '_' and '-'");
    if (common::accounts::known(host, account) == false)
        throw platform::not_found("to: no account " + account + " on this instance");
    return {false, account, platform::lower(tag), ""};
}

}  // namespace

bool valid_tag(const std::string& tag) {
    static const std::regex re(kTagPattern);
    return std::regex_match(tag, re);
}

bool valid_address(const std::string& address) {
    if (address.size() > 254) return false;
    const size_t at = address.rfind('@');
    if (at == std::string::npos || at == 0 || at > 64) return false;
    const std::string local = address.substr(0, at), domain = address.substr(at + 1);
    static const std::string specials = "!#$%&'*+/=?^_`{|}~.-";
    for (char c : local)
        if (!std::isalnum(static_cast<unsigned char>(c)) && specials.find(c) == std::string::npos)
            return false;
    if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string::npos)
        return false;
    size_t start = 0, labels = 0;
    for (;;) {
        const size_t dot = domain.find('.', start);
        if (!dns_label(domain.substr(start, dot == std::string::npos ? dot : dot - start)))
            return false;
        ++labels;
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return labels >= 2;
}

Recipient resolve(const platform::Host& host, const std::string& to, const std::string& domain) {
    const size_t at = to.rfind('@');
    if (at == std::string::npos) return local(host, to);
    if (!domain.empty() && platform::lower(to.substr(at + 1)) == domain)
        return local(host, to.substr(0, at));
    if (common::accounts::known(host, to) == true) return {false, to, "", ""};
    if (!valid_address(to))
        throw platform::invalid_argument(
            "to: must be a username on this instance or an email address (local@domain.tld)");
    return {true, "", "", to};
}

std::optional<std::string> address_of(const std::string& handle, const std::string& domain) {
    if (domain.empty()) return std::nullopt;
    return handle + "@" + domain;
}

}  // namespace mail
