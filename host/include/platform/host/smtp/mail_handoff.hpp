// platform/host/smtp/mail_handoff.hpp — where the SMTP listener's mail goes: the mail service,
// through two internal endpoints only the host calls (plugins/mail/README.md, "Inbound mail").
//
//   RCPT TO:<x@D>   D is not the mail domain (compared case-insensitively): 550 5.7.1, never
//                   relayed; otherwise mail/recipient {address} decides: 250, or 550 5.1.1 for no
//                   such account (NOT_FOUND) and 550 5.1.3 for a malformed one (INVALID_ARGUMENT);
//                   451 when the mail service is missing or fails
//   end of DATA     mail/deliver {mail_from, rcpt_to, helo, message_base64} (the message as
//                   received, base64 so that 8-bit text survives JSON): 250 only when the service
//                   filed it; 554 when it refused the message (INVALID_ARGUMENT), 451 otherwise
//
// Both calls run as the host's own service identity (id "<namespace>.host", type service, scope
// service), which the mail service requires; the endpoints are internal, so no HTTP or MCP client
// reaches them. Calls block the connection's thread (not the runtime's workers) for at most the
// profile's call timeout. Thread-safe.
#pragma once

#include <platform/host/smtp/smtp_dialogue.hpp>
#include <string>

namespace platform::host {
class Runtime;
}

namespace platform::host::smtp {

class MailHandoff : public Policy {
public:
    MailHandoff(Runtime& runtime, std::string domain);
    Reply recipient(const std::string& address) override;
    Reply deliver(const Envelope& envelope) override;

private:
    Runtime& runtime_;
    std::string domain_;
};

}  // namespace platform::host::smtp
