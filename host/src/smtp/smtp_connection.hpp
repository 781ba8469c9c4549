// smtp_connection.hpp — private to host/src/smtp: one SMTP connection's socket, plain or TLS
// after STARTTLS, read line by line with a timeout (smtp_listener.hpp describes the listener).
#pragma once

#include <openssl/ssl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <platform/host/smtp/smtp_dialogue.hpp>
#include <string>

namespace platform::host::smtp {

// The longest line read whole (octets, CRLF included); longer lines are cut.
inline constexpr std::size_t kMaxLineRead = kMaxTextLine + 2;

// Serves one accepted, non-blocking socket until QUIT, an error, a timeout or `stop_fd` becomes
// readable; closes it. `tls` is null when STARTTLS is not offered.
void serve_connection(int fd, int stop_fd, const std::string& peer, std::shared_ptr<SSL_CTX> tls,
                      Dialogue& dialogue, int64_t read_timeout_ms);

}  // namespace platform::host::smtp
