// runtime_update_load_test.cpp — updates that drop no request (issue 32, docs/reliability.md).
//
// The real host on the `test` profile (access log off) serves the hello example in C, started with
// `platform run` from a copy of plugin-sdk/examples/hello-c (its Makefile builds it in a second,
// so the load run is a fixed 20 s; the swap does not depend on the plugin's language or build
// tool). Debian's wrk (scripts/deps.sh) sends GET /api/v1/<name>/greet for 20 s over 64
// keep-alive loopback connections (2 threads, wrk's 2 s request timeout) with update_load.lua,
// which counts every non-2xx answer and every greeting by its first word. Once all 64 connections
// are open the source is edited ("Hello" -> "Howdy") and `platform update` run; then edited again
// ("Howdy" -> "Hi") and updated again; both must be done, and the workers they replaced gone,
// before wrk's 20 s end. Passes when wrk saw 0 non-2xx answers and 0 socket errors (connect,
// read, write, timeout), every answer was one of the three greetings and each of them was served,
// each update changed the record's build, the answers after the second update are "Hi, Ada!",
// and the two replaced workers are gone.
//
// Why it holds (host/src/runtime/jobs.cpp, host/src/isolation/worker_supervisor.cpp): an update
// builds the new version while the old worker serves; WorkerPlugin::replace starts a worker on
// the new .so, brings it up (create, start) and only then makes it the current one, under the
// plugin's lock; the old one moves to the draining list. Every call picks the current worker when
// it is dispatched and is recorded as a flight of that worker, so a call dispatched before the
// swap finishes on the old version and every later one goes to the new one; the HTTP routes and
// the registry entry do not change (same id, service and endpoints). The supervisor (once a
// second) stops a draining worker only when it has no flight left — every call it took has
// answered and its handler returned — and retires it under the worker's lock first, so a call
// that picked it just before the swap either is already its flight (and the worker is not idle)
// or sees it retired and goes to the current worker (decision 85).
//
// Figures (2-core machine, wrk sharing it with the host and the two builds): see
// docs/reliability.md, "Drain and reload" ("Updates drop no request").
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "build_tree.hpp"
#include "command.hpp"
#include "eventually.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_files.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;
namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr int kBuildSeconds = 240;  // bounds the CLI's wait; a make of hello-c takes a second
constexpr int kConnections = 64;
constexpr int kLoadSeconds = 20;

bool process_exists(int pid) {
    return pid > 0 && (::kill(pid, 0) == 0 || errno != ESRCH);
}

// wrk in the background, its stdout and stderr in files; wait() reaps it.
class Wrk {
public:
    Wrk(const std::vector<std::string>& argv, const std::string& out, const std::string& err)
        : out_(out), err_(err) {
        pid_ = ::fork();
        if (pid_ == 0) {
            int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            int n = ::open("/dev/null", O_RDONLY);
            ::dup2(n, 0), ::dup2(o, 1), ::dup2(e, 2);
            std::vector<char*> args;
            for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            ::execv(args[0], args.data());
            _exit(127);
        }
    }
    ~Wrk() { stop_child(pid_); }
    bool running() {
        if (pid_ <= 0) return false;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) != pid_) return true;
        code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        pid_ = -1;
        return false;
    }
    // Waits `seconds` for wrk to end by itself, then SIGINT (wrk then prints its summary and runs
    // done()) and as long again; answers wrk's exit code (-1 when it had to be killed).
    int wait(int seconds) {
        if (!eventually([&] { return !running(); }, seconds) && running()) ::kill(pid_, SIGINT);
        if (!eventually([&] { return !running(); }, seconds)) stop_child(pid_);
        return code_;
    }
    std::string out() const { return read_text(out_); }
    std::string err() const { return read_text(err_); }

private:
    std::string out_, err_;
    int pid_ = -1, code_ = -1;
};

class UpdateUnderLoad : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile =
            test_profile_with(suite_dir() + "/update-load.yaml", "http: {access_log: false}");
        start_host(o);
    }
    CommandResult platform(std::vector<std::string> args) {
        return run_cli(*host, home_.path(), "admin", std::move(args), {}, kBuildSeconds + 60);
    }
    static json rpc(const std::string& method, const json& request) {
        HttpClient c("127.0.0.1", host->proxy_port());
        return c
            .post_json("/rpc", {{"service", "runtime"}, {"method", method}, {"request", request}},
                       {{"Authorization", "Bearer admin"}})
            .json();
    }
    static json record(const std::string& name) {
        json r = rpc("Runtime.Status", {{"name", name}});
        return r.contains("services") && !r["services"].empty() ? r["services"][0] : json();
    }
    static std::string logs(const std::string& name) {
        std::string out;
        for (const auto& l :
             rpc("Runtime.Logs", {{"name", name}, {"lines", 400}}).value("lines", json::array()))
            out += l.get<std::string>() + "\n";
        return out;
    }
    // The pid of the worker the runtime last started for `name` ("... (worker pid N)").
    static int worker_pid(const std::string& name) {
        const std::string text = logs(name);
        static const std::regex re("runtime: running \\S+ \\S+ \\(worker pid (\\d+)\\)");
        int pid = 0;
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            pid = std::stoi((*it)[1].str());
        return pid;
    }
    static std::string greet(const std::string& name) {
        HttpClient c("127.0.0.1", host->api_port());
        auto r = c.get("/api/v1/" + name + "/greet?name=Ada");
        return r.status == 200 ? r.json()["data"].value("message", "") : r.body;
    }
    TempDir home_, src_;
};

TEST_F(UpdateUnderLoad, TwoUpdatesDropNoRequest) {
    const std::string wrk_binary = find_on_path("wrk");
    if (wrk_binary.empty()) GTEST_SKIP() << "wrk not found in PATH: install it (scripts/deps.sh)";
    const std::string name = "loadhello", dir = src_.path() + "/" + name;
    fs::create_directories(dir);
    for (const char* f : {"hello.c", "Makefile"})
        fs::copy_file(source_dir() + "/plugin-sdk/examples/hello-c/" + f, dir + "/" + f);
    const std::string file = dir + "/hello.c";
    auto edit = [&](const std::string& from, const std::string& to) {  // the greeting's first word
        replace_in(file, "\"{\\\"message\\\":\\\"" + from + ", \"",
                   "\"{\\\"message\\\":\\\"" + to + ", \"");
    };
    auto run = platform({"run", dir});
    ASSERT_EQ(run.code, 0) << run.err << logs(name);
    ASSERT_EQ(greet(name), "Hello, Ada!");
    const std::string build0 = record(name).value("build", "");
    const int pid0 = worker_pid(name);
    ASSERT_GT(pid0, 0) << logs(name);

    edit("Hello", "Howdy");
    const auto started = SteadyClock::now();
    auto at = [&] { return std::chrono::duration<double>(SteadyClock::now() - started).count(); };
    Wrk wrk({wrk_binary, "-t2", "-c" + std::to_string(kConnections),
             "-d" + std::to_string(kLoadSeconds) + "s", "-s",
             source_dir() + "/tests/integration/update_load.lua",
             "http://127.0.0.1:" + std::to_string(host->api_port()) + "/api/v1/" + name +
                 "/greet?name=Ada"},
            src_.path() + "/wrk.out", src_.path() + "/wrk.err");
    ASSERT_TRUE(
        eventually([&] { return held_connections(host->api_port(), true) >= kConnections; }, 30))
        << "wrk did not open its connections: " << wrk.err();
    const double loaded = at();

    // First update, under load.
    const double u1 = at();
    auto first = platform({"update", dir});
    ASSERT_EQ(first.code, 0) << first.err << logs(name);
    const double u1_done = at();
    EXPECT_EQ(greet(name), "Howdy, Ada!");
    const std::string build1 = record(name).value("build", "");
    EXPECT_NE(build1, build0);
    const int pid1 = worker_pid(name);
    EXPECT_NE(pid1, pid0);

    // Second update, under load.
    edit("Howdy", "Hi");
    const double u2 = at();
    auto second = platform({"update", dir});
    ASSERT_EQ(second.code, 0) << second.err << logs(name);
    const double u2_done = at();
    for (int i = 0; i < 10; ++i) EXPECT_EQ(greet(name), "Hi, Ada!");
    const json rec = record(name);
    EXPECT_EQ(rec.value("status", ""), "running") << rec;
    EXPECT_NE(rec.value("build", ""), build1);
    EXPECT_FALSE(rec["metadata"].contains("error")) << rec;
    const int pid2 = worker_pid(name);
    EXPECT_NE(pid2, pid1);
    EXPECT_TRUE(process_exists(pid2));

    // The replaced workers leave once drained, while the load goes on.
    EXPECT_TRUE(
        eventually([&] { return !process_exists(pid0) && !process_exists(pid1); }, kLoadSeconds))
        << "worker pids " << pid0 << " and " << pid1 << " still run\n"
        << logs(name);
    const double drained = at();
    ASSERT_TRUE(wrk.running()) << "wrk's " << kLoadSeconds
                               << " s ended before the updates and the drain did: " << wrk.err();
    const int code = wrk.wait(kLoadSeconds + 10);
    const double stopped = at();
    ASSERT_EQ(code, 0) << wrk.out() << wrk.err();

    const std::string out = wrk.out();
    const auto brace = out.rfind("\n{");
    const json figures =
        json::parse(out.substr(brace == std::string::npos ? 0 : brace + 1), nullptr, false);
    ASSERT_TRUE(figures.is_object()) << out << wrk.err();
    std::printf(
        "[ update under load ] %lld requests in %.1f s (%d connections), non-2xx %lld, socket "
        "errors connect %lld read %lld write %lld timeout %lld, p99 %.1f ms; greetings %s; "
        "load from %.1f s, update 1 %.1f-%.1f s, update 2 %.1f-%.1f s, old workers gone %.1f s, "
        "wrk stopped %.1f s\n",
        figures.value("requests", 0LL), figures.value("seconds", 0.0), kConnections,
        figures.value("non2xx", 0LL), figures.value("connect", 0LL), figures.value("read", 0LL),
        figures.value("write", 0LL), figures.value("timeout", 0LL), figures.value("p99_ms", 0.0),
        figures["greetings"].dump().c_str(), loaded, u1, u1_done, u2, u2_done, drained, stopped);
    EXPECT_GT(figures.value("requests", 0LL), 0) << out;
    EXPECT_EQ(figures.value("non2xx", -1LL), 0) << out;
    EXPECT_EQ(figures["statuses"], json::object()) << out;
    for (const char* e : {"connect", "read", "write", "timeout"})
        EXPECT_EQ(figures.value(e, -1LL), 0) << e << " errors\n" << out;
    const json& words = figures["greetings"];
    for (const char* w : {"Hello", "Howdy", "Hi"})
        EXPECT_GT(words.value(w, 0LL), 0) << w << " never answered: " << out;
    EXPECT_EQ(words.size(), 3u) << "answers other than the three greetings: " << out;
    EXPECT_EQ(host->log().find("calls failed"), std::string::npos) << host->log();
    EXPECT_EQ(platform({"kill", name}).code, 0);
}

}  // namespace
