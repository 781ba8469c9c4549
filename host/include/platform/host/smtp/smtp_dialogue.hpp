// platform/host/smtp/smtp_dialogue.hpp — one SMTP session's dialogue (RFC 5321) as a state
// machine without I/O: the listener (smtp_listener.hpp) feeds it lines and writes its replies.
//
//   greeting      220 <host> ESMTP
//   EHLO d        250-<host> / 250-SIZE <max> / 250-8BITMIME / 250-STARTTLS (when offered) /
//                 250 ENHANCEDSTATUSCODES; resets any transaction
//   HELO d        250 <host>
//   MAIL FROM:<a> [SIZE=n] [BODY=7BIT|8BITMIME]   250; 552 when SIZE is above the limit; 503
//                 before HELO/EHLO or inside a transaction; 555 for another parameter; <> (the
//                 null sender of bounces) is taken
//   RCPT TO:<a>   the owner's Policy decides (250, 550 not ours or no such user, 451); 452 beyond
//                 max_recipients; 503 before MAIL
//   DATA          354, then lines until "." alone: a leading "." is removed (dot-unstuffing), the
//                 lines are joined with CRLF; more than max_message_bytes -> 552 at the end, a line
//                 longer than 998 octets -> 554 at the end; otherwise the Policy's delivery reply
//   RSET 250, NOOP 250, QUIT 221 (close), VRFY/EXPN 502 (never tells who exists), HELP 214
//   STARTTLS      220 and start_tls (the owner then runs the TLS handshake, forgets any bytes it
//                 read before and calls tls_started(), which forgets HELO and the transaction, as
//                 RFC 3207 asks); 502 when not offered, 503 once TLS is on
//   anything else 500; a command line over 510 octets 500; after 10 refused commands 421 (close)
//
// Commands are case-insensitive; PIPELINING is not offered (the listener still answers pipelined
// commands in order). Not thread-safe: one dialogue per connection thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host::smtp {

// One reply: a code and its lines (several lines are sent as "250-a", "250 b").
struct Reply {
    int code = 250;
    std::vector<std::string> lines;
    bool close = false;        // the server closes the connection after writing it
    bool start_tls = false;    // the server starts TLS after writing it
    std::string wire() const;  // "250-a\r\n250 b\r\n"
};

// A finished transaction: the envelope and the message as received (CRLF lines, unstuffed).
struct Envelope {
    std::string helo, mail_from;
    std::vector<std::string> rcpt_to;
    std::string message;
};

// What the dialogue asks its owner.
class Policy {
public:
    virtual ~Policy() = default;
    // RCPT TO: 250 to take the recipient, else the refusal to answer (550, 451...).
    virtual Reply recipient(const std::string& address) = 0;
    // The end of DATA: 250 once the message is filed, else 451/554.
    virtual Reply deliver(const Envelope& envelope) = 0;
};

struct Limits {
    std::size_t max_message_bytes = 10 * 1024 * 1024;
    std::size_t max_recipients = 50;
    std::size_t max_errors = 10;
};

inline constexpr std::size_t kMaxCommandLine = 510;  // octets without CRLF (RFC 5321 §4.5.3.1.4)
inline constexpr std::size_t kMaxTextLine = 998;     // octets without CRLF (§4.5.3.1.6)

class Dialogue {
public:
    // `hostname` names the server in replies; `tls_offered`: STARTTLS is advertised.
    Dialogue(std::string hostname, Limits limits, Policy& policy, bool tls_offered);

    Reply greeting() const;
    // One line without its CRLF; `overlong` when the listener cut it (it was longer than it
    // reads). In DATA mode answers nothing until the final "." line.
    std::optional<Reply> line(std::string_view text, bool overlong = false);
    bool in_data() const { return in_data_; }
    // After a STARTTLS reply, once the handshake succeeded: the session starts over.
    void tls_started();
    bool tls_active() const { return tls_active_; }

private:
    Reply command(std::string_view text);
    Reply mail(std::string_view args);
    Reply rcpt(std::string_view args);
    Reply end_of_data();
    Reply refuse(int code, std::string text);
    void reset_transaction();

    std::string hostname_;
    Limits limits_;
    Policy& policy_;
    bool tls_offered_, tls_active_ = false;
    std::string helo_;
    std::optional<std::string> mail_from_;
    std::vector<std::string> rcpt_to_;
    bool in_data_ = false, data_too_big_ = false, data_line_too_long_ = false;
    std::string data_;
    std::size_t errors_ = 0;
};

// The address inside a MAIL FROM / RCPT TO path: "<a@b> SIZE=1" -> "a@b" and the rest after it
// ("SIZE=1"); nullopt without angle brackets or with a CR, LF or space inside them. Source routes
// ("<@x,@y:a@b>") are dropped, as RFC 5321 allows.
std::optional<std::pair<std::string, std::string>> parse_path(std::string_view args);

}  // namespace platform::host::smtp
