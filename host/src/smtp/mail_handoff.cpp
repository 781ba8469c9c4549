#include <spdlog/spdlog.h>

#include <future>
#include <nlohmann/json.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/smtp/mail_handoff.hpp>
#include <platform/sdk/text.hpp>

namespace platform::host::smtp {

namespace {

using nlohmann::json;

// One call to the mail service's internal `method` as the host; waits for its outcome.
Outcome call_mail(Runtime& rt, const char* method, json args) {
    const ServiceEntry* svc = rt.registry().find("mail");
    const Endpoint* ep = svc && svc->plugin ? svc->plugin->endpoint(method) : nullptr;
    if (!ep) return Outcome{PLATFORM_UNAVAILABLE, "no mail service"};
    Identity host;
    host.id = host.name = qualify(rt.settings().ns, "host");
    host.scopes = {"service"};
    host.type = "service";
    host.issuer = rt.settings().ns;
    Invocation inv;
    inv.service = svc;
    inv.endpoint = ep;
    inv.http_method = "POST";
    inv.from_plugin = true;  // internal endpoints: the host is their only caller
    inv.args = std::move(args);
    auto answer = std::make_shared<std::promise<Outcome>>();
    auto got = answer->get_future();
    rt.dispatch_as(host, std::move(inv), [answer](Outcome o) { answer->set_value(std::move(o)); });
    return got.get();
}

// The service's error message, for a reply line (one line, at most 200 characters).
std::string reason(const Outcome& o) {
    std::string text = o.body;
    const json body = json::parse(o.body, nullptr, false);
    if (body.is_object() && body.contains("detail") && body["detail"].is_string())
        text = body["detail"].get<std::string>();
    for (char& c : text)
        if (c == '\r' || c == '\n') c = ' ';
    return text.substr(0, 200);
}

}  // namespace

MailHandoff::MailHandoff(Runtime& runtime, std::string domain)
    : runtime_(runtime), domain_(platform::lower(domain)) {}

Reply MailHandoff::recipient(const std::string& address) {
    const std::size_t at = address.rfind('@');
    if (at == std::string::npos || platform::lower(address.substr(at + 1)) != domain_)
        return Reply{
            550, {"5.7.1 relay access denied: this server takes mail for " + domain_ + " only"}};
    const Outcome o = call_mail(runtime_, "recipient", {{"address", address}});
    switch (o.code) {
        case PLATFORM_OK:
            return Reply{250, {"2.1.5 OK"}};
        case PLATFORM_NOT_FOUND:
            return Reply{550, {"5.1.1 no such user here"}};
        case PLATFORM_INVALID_ARGUMENT:
            return Reply{550, {"5.1.3 " + reason(o)}};
        default:
            spdlog::warn("smtp: mail/recipient failed ({}): {}", static_cast<int>(o.code),
                         reason(o));
            return Reply{451, {"4.3.0 mail service unavailable, try again later"}};
    }
}

Reply MailHandoff::deliver(const Envelope& e) {
    const Outcome o = call_mail(runtime_, "deliver",
                                {{"mail_from", e.mail_from},
                                 {"rcpt_to", e.rcpt_to},
                                 {"helo", e.helo.substr(0, 255)},
                                 {"message_base64", platform::base64_encode(e.message)}});
    if (o.code == PLATFORM_OK) return Reply{250, {"2.0.0 OK: delivered"}};
    if (o.code == PLATFORM_INVALID_ARGUMENT) return Reply{554, {"5.6.0 " + reason(o)}};
    // The agent would not take the letter from this sender (no linked address, DKIM not pass).
    if (o.code == PLATFORM_PERMISSION_DENIED) return Reply{550, {"5.7.1 " + reason(o)}};
    spdlog::warn("smtp: mail/deliver failed ({}): {}", static_cast<int>(o.code), reason(o));
    return Reply{451, {"4.3.0 mail service unavailable, try again later"}};
}

}  // namespace platform::host::smtp
