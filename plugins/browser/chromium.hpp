// chromium.hpp — one headless Chromium for one call, driven over the DevTools protocol on a pipe.
//
// The process: Debian's chromium, `--headless=new --no-sandbox` (the host runs as root), no
// background networking, no first-run, sync, component updates, extensions, QUIC or non-proxied
// WebRTC UDP; a fresh profile in a private temporary folder (mode 0700, removed after); every
// request through the host's filtering proxy (`--proxy-server`, and `--proxy-bypass-list=<-loopback>`
// so loopback requests are not sent around it); its own process group, killed on every way out.
//
// The protocol: `--remote-debugging-pipe`, Chromium reading commands on its fd 3 and writing
// answers and events on its fd 4, each message one JSON text ended by a NUL byte. The plugin's
// ends are Unix socket pairs only so that writing to a browser that died is an error
// (MSG_NOSIGNAL) rather than a SIGPIPE for the host; nothing listens anywhere.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace browser {

using Clock = std::chrono::steady_clock;

struct LaunchOptions {
    std::string executable;  // /usr/bin/chromium
    std::string proxy;       // "127.0.0.1:<port>"
    int width = 1280, height = 800;
};

class Chromium {
public:
    // Starts the browser; throws platform::Error (unavailable) when it cannot.
    Chromium(const LaunchOptions& o, Clock::time_point deadline);
    // Kills the process group, reaps the browser and removes its profile folder.
    ~Chromium();
    Chromium(const Chromium&) = delete;
    Chromium& operator=(const Chromium&) = delete;

    // Sends a command (to the page session `session` when not empty) and answers its result.
    // Throws platform::Error: TIMEOUT past the deadline, BAD_GATEWAY when the browser answers an
    // error or goes away.
    nlohmann::json call(const std::string& method,
                        const nlohmann::json& params = nlohmann::json::object(),
                        const std::string& session = "");
    // Waits for an event `method` of `session` that `match` accepts (seen before or arriving);
    // false when the deadline passes first.
    bool wait_event(const std::string& method, const std::string& session,
                    const std::function<bool(const nlohmann::json& params)>& match);
    // Reads what arrives for up to `ms` (events are kept); for polling the page.
    void pump(int ms);
    // Drops the events received so far (before a navigation, so old ones match nothing).
    void forget_events() { events_.clear(); }
    // Every event received so far, oldest first.
    const std::deque<nlohmann::json>& events() const { return events_; }
    Clock::time_point deadline() const { return deadline_; }
    // The last lines Chromium wrote to stderr (for error messages).
    std::string stderr_tail() const;

private:
    // Reads one message within `until`; false on timeout. Throws when the browser is gone.
    bool read_message(Clock::time_point until, nlohmann::json& out);
    void keep(nlohmann::json event);

    Clock::time_point deadline_;
    std::string dir_;  // the private temporary folder
    pid_t pid_ = -1;
    int to_browser_ = -1, from_browser_ = -1;
    std::string in_;  // bytes read, not yet a whole message
    std::deque<nlohmann::json> events_;
    long next_id_ = 0;
};

}  // namespace browser
