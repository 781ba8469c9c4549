// platform/host/core/operator_console.hpp — what the server tells, and accepts from, the person who
// runs it on its own machine.
//
// Notices: a plugin's PLATFORM_LOG_OPERATOR line (abi.h), such as the admin secret auth-local
// generates at first start. The server holds notices until its `listening` line is out, then
// prints each once on stderr in a box, where a person reading the console sees it; a notice that
// comes later is printed at once. Notices never reach the log output or `platform logs`, and the
// console keeps no copy once printed.
//
//   +----------------------------------------------------------+
//   | auth-local: created account admin                        |
//   | secret: 3q2-...                                          |
//   +----------------------------------------------------------+
//
// Operator credential: while it serves, the server keeps `<PLATFORM_HOME>/keys/operator.json`
// (mode 0600): {"token": <43 base64url characters from the CSPRNG>, "proxy": "<host:port>",
// "api": "<host:port>", "pid": <pid>}. A bearer of that token is the account `operator` with the
// `admin` scope, so whoever can read the server's home (its user, root) can act as an admin from
// that machine: `platform admin reset-secret` uses it. A new token is made at every start; the
// file is removed when the server stops.
#pragma once

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host {

class OperatorConsole {
public:
    // `out` is where boxes go (stderr; tests pass a pipe's FILE*).
    explicit OperatorConsole(std::FILE* out = stderr) : out_(out) {}

    // A plugin's notice: printed now when open(), else held until then. Thread-safe.
    void notice(std::string_view from, std::string_view text);
    // The server is listening: prints held notices (in arrival order) and every later one at once.
    void open();

    // Writes keys/operator.json under `home` with a fresh token; "" or what went wrong.
    std::string write_credential(const std::string& home, const std::string& api,
                                 const std::string& proxy);
    // Removes the file write_credential wrote (when it is still ours).
    void remove_credential();
    // True when `credential` is the operator token (constant time in the token's length).
    bool is_operator(std::string_view credential) const;

private:
    void print(const std::string& from, const std::string& text);

    std::FILE* out_;
    mutable std::mutex m_;
    bool open_ = false;
    std::vector<std::pair<std::string, std::string>> held_;
    // The current token, read without a lock (libstdc++'s atomic shared_ptr takes a mutex from a
    // pool of 16 shared by the whole process). Every token made is kept in tokens_ until the
    // console goes: a reader may still hold one that was replaced. One per start, so a few bytes.
    std::atomic<const std::string*> token_{nullptr};
    std::vector<std::unique_ptr<const std::string>> tokens_;  // under m_
    std::string path_;
};

// The box around `lines` (split on '\n'), first line "<from>: <line>".
std::string operator_box(std::string_view from, std::string_view text);

}  // namespace platform::host
