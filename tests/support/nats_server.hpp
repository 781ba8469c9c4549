// nats_server.hpp — a nats-server with JetStream for the tests of the NATS providers (unit) and of
// hosts using them (integration), started through scripts/nats.sh (free loopback ports, file
// storage in a temporary folder, ready once /healthz answers ok) and stopped with its folder when
// the test process exits.
//
//   NatsServer* s = NatsServer::shared();   // nullptr when nats-server is not installed
//   s->url()                                 // nats://127.0.0.1:<port>
//   s->kill9(); s->restart();                // crash and restart on the same port and store
//
// shared() is the one server of the test process — or, when PLATFORM_NATS_DIR names the folder of
// a server a ctest fixture started (tests/integration/CMakeLists.txt, replicas-servers), that one,
// left running at exit for the fixture to stop. PostgreSQL's twin is postgres_server.hpp.
//
// Header-only. shared() is thread-safe; the rest is for one test thread.
#pragma once

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "build_tree.hpp"

namespace platform::test {

class NatsServer {
public:
    // True when nats-server is on PATH (the tests skip, saying so, when it is not).
    static bool installed() { return std::system("command -v nats-server >/dev/null 2>&1") == 0; }

    // The one server of this test process, started on first use; nullptr without nats-server.
    static NatsServer* shared() {
        static std::once_flag once;
        static std::unique_ptr<NatsServer> server;
        std::call_once(once, [] {
            if (const char* dir = std::getenv("PLATFORM_NATS_DIR"); dir && *dir) {
                // The fixture's server; when it could not start, the tests skip as without one.
                auto s = std::unique_ptr<NatsServer>(new NatsServer(Adopt{}));
                if (s->adopt(dir)) server = std::move(s);
                return;
            }
            if (installed()) server.reset(new NatsServer());
        });
        return server.get();
    }

    NatsServer() { apply(run("start")); }
    ~NatsServer() {
        if (!owned_) return;  // the fixture's: it stops it
        kill9();              // a graceful stop takes seconds; nothing here needs it
        if (!dir_.empty()) run("stop \"" + dir_ + "\"", /*check=*/false);
    }
    NatsServer(const NatsServer&) = delete;
    NatsServer& operator=(const NatsServer&) = delete;

    const std::string& url() const { return url_; }
    const std::string& dir() const { return dir_; }

    // SIGKILL, then reap: the server gets no chance to flush anything.
    void kill9() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        // The script's background child is not ours to reap: poll until it is gone or a zombie.
        while (alive(pid_)) ::usleep(10000);
        pid_ = -1;
    }
    // Starts again on the same folder: the same ports and JetStream store.
    void restart() { apply(run("start \"" + dir_ + "\"")); }

private:
    struct Adopt {};
    explicit NatsServer(Adopt) : owned_(false) {}
    // Takes the running server of `dir` (scripts/nats.sh env); false when there is none.
    bool adopt(const std::string& dir) {
        if (::access((dir + "/nats.conf").c_str(), R_OK) != 0) return false;
        try {
            apply(run("env \"" + dir + "\""));
        } catch (const std::exception&) {
            return false;
        }
        return true;
    }

    static bool alive(pid_t pid) {
        FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
        if (!f) return false;
        char buf[512] = {0};
        size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        std::string stat(buf, n);
        size_t paren = stat.rfind(')');  // "<pid> (<comm>) <state> ..."
        return paren == std::string::npos || paren + 2 >= stat.size() || stat[paren + 2] != 'Z';
    }

    static std::string script() { return platform::test::source_dir() + "/scripts/nats.sh"; }

    static std::string run(const std::string& args, bool check = true) {
        const std::string cmd = script() + " " + args + " 2>&1";
        FILE* p = ::popen(cmd.c_str(), "r");
        if (!p) throw std::runtime_error("nats_server: cannot run " + cmd);
        std::string out;
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        int rc = ::pclose(p);
        if (check && rc != 0)
            throw std::runtime_error("nats_server: `" + cmd + "` failed:\n" + out);
        return out;
    }

    void apply(const std::string& out) {
        std::map<std::string, std::string> kv;
        size_t pos = 0;
        while (pos < out.size()) {
            size_t nl = out.find('\n', pos);
            std::string line =
                out.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
            pos = nl == std::string::npos ? out.size() : nl + 1;
            size_t eq = line.find('=');
            if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
        }
        url_ = kv["PLATFORM_NATS_URL"];
        dir_ = kv["PLATFORM_NATS_DIR"];
        pid_ = kv["PLATFORM_NATS_PID"].empty() ? -1 : std::atoi(kv["PLATFORM_NATS_PID"].c_str());
        if (url_.empty() || dir_.empty())
            throw std::runtime_error("nats_server: no env in:\n" + out);
    }

    std::string url_, dir_;
    pid_t pid_ = -1;
    bool owned_ = true;  // started by this process (else a fixture's, left running)
};

// A fresh name for each test's streams and subjects on the shared server.
inline std::string unique_nats_name(const std::string& base) {
    static std::atomic<int> n{0};
    return base + std::to_string(::getpid()) + "_" + std::to_string(++n);
}

}  // namespace platform::test
