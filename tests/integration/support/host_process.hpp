// host_process.hpp — start the real `platform server` on free loopback ports for a test.
//
//   HostProcess host({.profile = "test"});
//   host.start();                          // waits for "listening api=... proxy=..."
//   HttpClient api("127.0.0.1", host.api_port());
//
// Stderr is collected (wait_for_log waits on a condition, never a fixed sleep). The destructor
// sends SIGTERM and reaps the process; stop() returns its exit status.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace platform::test {

// A fresh temporary directory, removed by the destructor.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

class HostProcess {
public:
    struct Options {
        std::string profile = "test";
        std::string home;  // PLATFORM_HOME; a temp dir when empty
        std::vector<std::string> args;
        std::map<std::string, std::string> env;
    };

    HostProcess();
    explicit HostProcess(Options options);
    ~HostProcess();

    // Starts and waits for the listening line; throws with the log if it exits or times out.
    void start();
    // Starts and waits for the process to exit on its own (for start-up failures).
    int run_to_exit(int timeout_seconds = 30);
    // Sends `sig` and waits; returns the exit code (128+signal when killed).
    int stop(int sig = 15);

    int api_port() const { return api_port_; }
    int proxy_port() const { return proxy_port_; }
    const std::string& home() const { return options_.home; }
    std::string log() const;
    bool wait_for_log(const std::string& text, int timeout_ms = 10000) const;

    static std::string binary();     // path of the built `platform`
    static std::string build_dir();  // the build tree

private:
    void launch();
    void reap();

    Options options_;
    std::unique_ptr<TempDir> temp_home_;
    int pid_ = -1, status_ = -1, api_port_ = 0, proxy_port_ = 0;
    int stderr_fd_ = -1;
    std::thread reader_;
    mutable std::mutex m_;
    mutable std::condition_variable cv_;
    std::string log_;
    bool eof_ = false;
};

}  // namespace platform::test
