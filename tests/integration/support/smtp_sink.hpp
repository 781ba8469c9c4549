// smtp_sink.hpp — a loopback SMTP sink for tests: tests/integration/smtp_sink.py on Debian's
// python3-aiosmtpd, started by the constructor (its "listening PORT" line waited for, 15 s at
// most) and stopped by the destructor. It takes logins as relay/s3cret, refuses recipients at
// refuse.example with 550 and appends each accepted letter to `out` as one JSON line (the
// envelope, the login, the decoded headers and body: smtp_sink.py says which).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace platform::test {

struct SmtpSink {
    int pid = -1, port = 0;  // port 0: it did not start (`why` says why)
    std::string out, why;

    explicit SmtpSink(const std::string& dir);  // `out` is dir/sink.jsonl
    ~SmtpSink();
    SmtpSink(const SmtpSink&) = delete;
    SmtpSink& operator=(const SmtpSink&) = delete;

    // The letters accepted so far, in order.
    std::vector<nlohmann::json> letters() const;
    // The relay URL that logs in to this sink.
    std::string relay_url() const {
        return "smtp://relay:s3cret@127.0.0.1:" + std::to_string(port);
    }
};

}  // namespace platform::test
