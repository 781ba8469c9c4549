// Chromium: the process and the DevTools protocol over its pipe (rules in chromium.hpp).
#include "chromium.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <platform/sdk.hpp>
#include <sstream>
#include <vector>

extern char** environ;

namespace browser {

using nlohmann::json;

namespace {

constexpr size_t kMaxMessage = 64u << 20;  // a full-page screenshot in base64 fits
constexpr size_t kMaxEvents = 4000;        // the oldest are dropped beyond

int ms_until(Clock::time_point t) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

platform::Error gone(const std::string& why) {
    return platform::Error(platform::Code::bad_gateway, "browser: " + why);
}

}  // namespace

Chromium::Chromium(const LaunchOptions& o, Clock::time_point deadline) : deadline_(deadline) {
    namespace fs = std::filesystem;
    std::string tmpl = (fs::temp_directory_path() / "platform-browser-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))  // mode 0700
        throw platform::unavailable(std::string("browser: cannot make a private folder: ") +
                                    std::strerror(errno));
    dir_ = tmpl;
    // [0] the browser reads (its fd 3), [1] it writes (its fd 4); our ends are index 0 of each.
    int down[2] = {-1, -1}, up[2] = {-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, down) != 0 ||
        ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, up) != 0) {
        for (int fd : {down[0], down[1], up[0], up[1]})
            if (fd >= 0) ::close(fd);
        fs::remove_all(dir_);
        throw platform::unavailable("browser: cannot make the DevTools pipe");
    }
    to_browser_ = down[0];
    from_browser_ = up[0];
    // The browser's ends above fd 4, so that moving them to 3 and 4 cannot overwrite one another.
    for (int* fd : {&down[1], &up[1]}) {
        int high = ::fcntl(*fd, F_DUPFD_CLOEXEC, 10);
        if (high >= 0) {
            ::close(*fd);
            *fd = high;
        }
    }

    std::vector<std::string> args = {
        o.executable,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-default-apps",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-component-extensions-with-background-pages",
        "--no-service-autorun",
        "--allow-browser-signin=false",
        "--safebrowsing-disable-auto-update",
        // One list: a second --disable-features replaces the first.
        "--disable-features=Translate,OptimizationHints,OptimizationHintsFetching,"
        "OptimizationGuideModelDownloading,OptimizationTargetPrediction,MediaRouter,"
        "DialMediaRouteProvider,AutofillServerCommunication,"
        "CertificateTransparencyComponentUpdater,NetworkTimeServiceQuerying,"
        "InterestFeedContentSuggestions,PrivacySandboxSettings4,SafeBrowsing",
        "--disable-quic",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        "--no-first-run",
        "--no-default-browser-check",
        "--no-pings",
        "--metrics-recording-only",
        "--password-store=basic",
        "--use-mock-keychain",
        "--mute-audio",
        "--hide-scrollbars",
        "--user-data-dir=" + dir_ + "/profile",
        "--proxy-server=http://" + o.proxy,
        "--proxy-bypass-list=<-loopback>",
        "--window-size=" + std::to_string(o.width) + "," + std::to_string(o.height),
        "--remote-debugging-pipe",
        "about:blank",
    };
    std::vector<std::string> env = {"HOME=" + dir_,
                                    "XDG_CONFIG_HOME=" + dir_ + "/config",
                                    "XDG_CACHE_HOME=" + dir_ + "/cache",
                                    "TMPDIR=" + dir_,
                                    "PATH=/usr/local/bin:/usr/bin:/bin",
                                    "LANG=C.UTF-8"};
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);

    const std::string err_path = dir_ + "/stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, down[1], 3);
    posix_spawn_file_actions_adddup2(&fa, up[1], 4);
    posix_spawn_file_actions_addclosefrom_np(&fa, 5);  // nothing else of the host's
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);  // its own process group, killed as one
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    int rc = ::posix_spawn(&pid_, o.executable.c_str(), &fa, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(down[1]);
    ::close(up[1]);
    if (rc != 0) {
        pid_ = -1;
        ::close(to_browser_);
        ::close(from_browser_);
        fs::remove_all(dir_);
        throw platform::unavailable("browser: cannot start " + o.executable + ": " +
                                    std::strerror(rc) +
                                    " (set plugin_config.browser.chromium; default "
                                    "/usr/bin/chromium)");
    }
    ::fcntl(from_browser_, F_SETFL, ::fcntl(from_browser_, F_GETFL) | O_NONBLOCK);
}

Chromium::~Chromium() {
    if (to_browser_ >= 0) ::close(to_browser_);
    if (from_browser_ >= 0) ::close(from_browser_);
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

std::string Chromium::stderr_tail() const {
    std::ifstream in(dir_ + "/stderr");
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    if (text.size() > 600) text = text.substr(text.size() - 600);
    return text;
}

bool Chromium::read_message(Clock::time_point until, json& out) {
    for (;;) {
        size_t nul = in_.find('\0');
        if (nul != std::string::npos) {
            out = json::parse(in_.data(), in_.data() + nul, nullptr, false);
            in_.erase(0, nul + 1);
            if (out.is_discarded()) throw gone("unreadable DevTools message");
            return true;
        }
        if (in_.size() > kMaxMessage) throw gone("a DevTools message over 64 MB");
        pollfd p{from_browser_, POLLIN, 0};
        int left = ms_until(until);
        int r = ::poll(&p, 1, left);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) return false;
        char buf[65536];
        ssize_t n = ::recv(from_browser_, buf, sizeof buf, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) {
            std::string tail = stderr_tail();
            throw gone("Chromium exited" + (tail.empty() ? "" : ": " + tail));
        }
        in_.append(buf, static_cast<size_t>(n));
    }
}

json Chromium::call(const std::string& method, const json& params, const std::string& session) {
    const long id = ++next_id_;
    json msg = {{"id", id}, {"method", method}, {"params", params}};
    if (!session.empty()) msg["sessionId"] = session;
    std::string text = msg.dump();
    text.push_back('\0');
    for (size_t sent = 0; sent < text.size();) {
        ssize_t n = ::send(to_browser_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw gone("Chromium exited: " + stderr_tail());
        sent += static_cast<size_t>(n);
    }
    for (;;) {
        json m;
        if (!read_message(deadline_, m))
            throw platform::Error(platform::Code::timeout,
                                  "browser: the page did not finish in time (" + method + ")");
        if (m.contains("id")) {
            if (m["id"] != id) continue;
            if (m.contains("error"))
                throw gone(method + ": " + m["error"].value("message", m["error"].dump()));
            return m.value("result", json::object());
        }
        keep(std::move(m));
    }
}

void Chromium::keep(json event) {
    events_.push_back(std::move(event));
    if (events_.size() > kMaxEvents) events_.pop_front();
}

bool Chromium::wait_event(const std::string& method, const std::string& session,
                          const std::function<bool(const json&)>& match) {
    auto fits = [&](const json& e) {
        return e.value("method", "") == method && e.value("sessionId", "") == session &&
               match(e.value("params", json::object()));
    };
    for (const auto& e : events_)
        if (fits(e)) return true;
    for (;;) {
        json m;
        if (!read_message(deadline_, m)) return false;
        if (m.contains("id")) continue;
        keep(std::move(m));
        if (fits(events_.back())) return true;
    }
}

void Chromium::pump(int ms) {
    auto until = std::min(deadline_, Clock::now() + std::chrono::milliseconds(ms));
    json m;
    while (read_message(until, m))
        if (!m.contains("id")) keep(std::move(m));
}

}  // namespace browser
