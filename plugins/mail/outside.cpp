#include "outside.hpp"

#include <algorithm>
#include <platform/sdk/random.hpp>

#include "common/billing/credits.hpp"

namespace mail {

using platform::json;

namespace {

std::string text_fact(const platform::Host& host, const char* path) {
    const json v = host.config(path);
    return v.is_string() ? v.get<std::string>() : "";
}

}  // namespace

MailFacts facts(const platform::Host& host) {
    MailFacts f;
    f.domain = text_fact(host, "platform.mail_domain");
    f.relay = text_fact(host, "platform.smtp_relay");
    const json listening = host.config("platform.smtp_listening");
    f.listening = listening.is_boolean() && listening.get<bool>();
    return f;
}

Outside::Outside(const platform::Host& host) : host_(host) {}

int64_t Outside::price() const {
    return common::billing::price(host_, kPriceItem, kDefaultOutsidePrice);
}

std::string Outside::send(const std::string& account, Letter letter,
                          const std::string& from_handle) const {
    const MailFacts f = facts(host_);
    if (f.domain.empty())
        throw platform::unavailable(
            "PLATFORM_MAIL_DOMAIN is not set: this instance has no mail domain, so mail to "
            "outside addresses cannot be sent (set PLATFORM_MAIL_DOMAIN or --mail_domain)");
    if (f.relay.empty())
        throw platform::unavailable(
            "PLATFORM_SMTP_RELAY is not set: mail to outside addresses needs an outbound relay "
            "(set PLATFORM_SMTP_RELAY or --smtp_relay to smtp[s]://user:pass@host:port)");
    letter.from = (from_handle.empty() ? account : from_handle) + "@" + f.domain;
    letter.message_id = platform::random_hex(16) + "@" + f.domain;
    const std::string message = compose(letter);
    const int64_t cost = price();
    common::billing::require(host_, account, cost, "to: mail to an outside address");
    relay(f, letter, message);
    common::billing::charge(host_, account, cost);
    return letter.message_id;
}

void Outside::relay(const MailFacts& f, const Letter& letter, const std::string& message) const {
    platform::HttpRequest req;
    req.method = "POST";
    req.provider = "smtp";
    req.headers = {{"Mail-From", letter.from}, {"Rcpt-To", letter.to}};
    req.body = message;
    req.timeout_ms = kRelayTimeoutMs;
    platform::HttpResponse r;
    try {
        r = host_.fetch(req);
    } catch (const platform::Error& e) {
        if (e.code() == platform::Code::invalid_argument) throw;
        throw platform::Error(e.code() == platform::Code::timeout ? platform::Code::timeout
                                                                  : platform::Code::bad_gateway,
                              "to: the SMTP relay " + f.relay + " failed: " + e.what());
    }
    if (r.status == 200) return;
    if (r.status == 503)
        throw platform::unavailable("PLATFORM_SMTP_RELAY: the host has no SMTP relay (" + r.body +
                                    ")");
    throw platform::Error(platform::Code::bad_gateway,
                          "to: the SMTP relay " + f.relay + " refused the letter: " + r.body);
}

}  // namespace mail
