#include "host_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "build_tree.hpp"

namespace platform::test {

TempDir::TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "platform-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::string HostProcess::binary() {
    return ::platform::test::platform_binary();
}
std::string HostProcess::build_dir() {
    return ::platform::test::build_dir();
}

HostProcess::HostProcess() : HostProcess(Options{}) {}

HostProcess::HostProcess(Options options) : options_(std::move(options)) {
    if (options_.home.empty()) {
        temp_home_ = std::make_unique<TempDir>();
        options_.home = temp_home_->path();
    }
}

HostProcess::~HostProcess() {
    if (pid_ > 0 && status_ < 0) stop(SIGKILL);
    if (reader_.joinable()) reader_.join();
}

void HostProcess::launch() {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::vector<std::string> argv = {binary(),          "server",        "--profile",
                                     options_.profile,  "--api_address", "127.0.0.1:0",
                                     "--proxy_address", "127.0.0.1:0"};
    argv.insert(argv.end(), options_.args.begin(), options_.args.end());
    pid_ = fork();
    if (pid_ == 0) {
        dup2(fds[1], 2);
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        setenv("PLATFORM_HOME", options_.home.c_str(), 1);
        unsetenv("PLATFORM_PLUGIN_PATH");
        unsetenv("PLATFORM_PROFILE");
        // A host with a mail domain listens for SMTP too: on a free port, never :2525.
        setenv("PLATFORM_SMTP_ADDRESS", "127.0.0.1:0", 1);
        // The developer's model keys would choose the model (model_choice.hpp): tests set them.
        for (const char* v :
             {"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"})
            unsetenv(v);
        for (auto& [k, v] : options_.env) setenv(k.c_str(), v.c_str(), 1);
        std::vector<char*> cargs;
        for (auto& a : argv) cargs.push_back(a.data());
        cargs.push_back(nullptr);
        execv(cargs[0], cargs.data());
        _exit(127);
    }
    close(fds[1]);
    stderr_fd_ = fds[0];
    status_ = -1;
    {
        std::lock_guard<std::mutex> g(m_);
        log_.clear();
        eof_ = false;
    }
    if (reader_.joinable()) reader_.join();
    reader_ = std::thread([this] {
        char buf[4096];
        for (;;) {
            ssize_t n = read(stderr_fd_, buf, sizeof buf);
            if (n <= 0) break;
            std::lock_guard<std::mutex> g(m_);
            log_.append(buf, static_cast<size_t>(n));
            cv_.notify_all();
        }
        close(stderr_fd_);
        std::lock_guard<std::mutex> g(m_);
        eof_ = true;
        cv_.notify_all();
    });
}

void HostProcess::start() {
    launch();
    std::unique_lock<std::mutex> lock(m_);
    static const std::regex listening("listening api=[^ :]+:([0-9]+) proxy=[^ :]+:([0-9]+)");
    std::smatch m;
    bool ok = cv_.wait_for(lock, std::chrono::seconds(30),
                           [&] { return std::regex_search(log_, m, listening) || eof_; });
    if (!ok || eof_ || m.empty()) {
        std::string log = log_;
        lock.unlock();
        stop(SIGKILL);
        throw std::runtime_error("host did not start:\n" + log);
    }
    api_port_ = std::stoi(m[1]);
    proxy_port_ = std::stoi(m[2]);
}

int HostProcess::run_to_exit(int timeout_seconds) {
    launch();
    bool closed;
    {
        std::unique_lock<std::mutex> lock(m_);
        closed = cv_.wait_for(lock, std::chrono::seconds(timeout_seconds), [&] { return eof_; });
    }
    if (!closed) {
        stop(SIGKILL);
        throw std::runtime_error("host did not exit within the timeout:\n" + log());
    }
    // Its output is closed: the process is exiting, so a blocking wait is bounded.
    int st = 0;
    waitpid(pid_, &st, 0);
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (reader_.joinable()) reader_.join();
    return status_;
}

int HostProcess::stop(int sig) {
    if (pid_ <= 0 || status_ >= 0) return status_;
    kill(pid_, sig);
    int st = 0;
    waitpid(pid_, &st, 0);
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (reader_.joinable()) reader_.join();
    return status_;
}

std::string HostProcess::log() const {
    std::lock_guard<std::mutex> g(m_);
    return log_;
}

bool HostProcess::wait_for_log(const std::string& text, int timeout_ms) const {
    std::unique_lock<std::mutex> lock(m_);
    return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
        return log_.find(text) != std::string::npos || eof_;
    }) && log_.find(text) != std::string::npos;
}

}  // namespace platform::test
