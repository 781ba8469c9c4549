// The CLI's retry rule (docs/cli.md, "Retries"): a 500 or 408 answer is
// sent again (twice at most) only for calls that are not submissions — verb GET, or flagged
// read_only/idempotent — and never for anything else. A tiny loopback HTTP server in the test
// plays the RPC proxy: it answers scripted statuses and counts the requests per method.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "command.hpp"
#include "host_process.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

json descriptor() {
    auto endpoint = [](const std::string& method, const std::string& verb,
                       const std::string& flags) {
        return json{
            {"name", "Things." + method},
            {"metadata",
             {{"path", "/things/" + std::string(1, static_cast<char>(std::tolower(method[0]))) +
                           method.substr(1)},
              {"verb", verb},
              {"flags", flags},
              {"access", "public"}}},
            {"schema", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}};
    };
    return {{"services",
             json::array({{{"name", "go.core.api.things"},
                           {"endpoints",
                            json::array({endpoint("Get", "GET", ""), endpoint("Add", "POST", ""),
                                         endpoint("Put", "POST", "idempotent")})}}})}};
}

// Answers POST /rpc: registry descriptors always, anything else with the next scripted status.
class FlakyProxy {
public:
    FlakyProxy() {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
        listen(fd_, 16);
        socklen_t len = sizeof a;
        getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
        port_ = ntohs(a.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~FlakyProxy() {
        shutdown(fd_, SHUT_RDWR);
        close(fd_);
        thread_.join();
    }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    void script(std::deque<int> statuses, json ok = {{"ok", true}}) {
        std::lock_guard<std::mutex> g(m_);
        statuses_ = std::move(statuses);
        ok_ = std::move(ok);
        counts_.clear();
    }
    int count(const std::string& method) {
        std::lock_guard<std::mutex> g(m_);
        return counts_[method];
    }
    std::string last_headers() {
        std::lock_guard<std::mutex> g(m_);
        return headers_;
    }

private:
    void serve() {
        for (;;) {
            int c = accept(fd_, nullptr, nullptr);
            if (c < 0) return;
            answer(c);
            close(c);
        }
    }
    void answer(int c) {
        std::string in;
        char buf[4096];
        size_t head_end = std::string::npos, need = 0;
        while (true) {
            ssize_t n = read(c, buf, sizeof buf);
            if (n <= 0) return;
            in.append(buf, static_cast<size_t>(n));
            if (head_end == std::string::npos &&
                (head_end = in.find("\r\n\r\n")) != std::string::npos) {
                std::string lower = in.substr(0, head_end);
                for (auto& ch : lower)
                    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                auto cl = lower.find("content-length:");
                need = cl == std::string::npos ? 0 : std::stoul(lower.substr(cl + 15));
            }
            if (head_end != std::string::npos && in.size() >= head_end + 4 + need) break;
        }
        json body = json::parse(in.substr(head_end + 4), nullptr, false);
        const std::string method = body.is_object() ? body.value("method", "") : "";
        int status = 200;
        json reply;
        {
            std::lock_guard<std::mutex> g(m_);
            if (method == "Registry.GetService") {
                reply = descriptor();
            } else {
                ++counts_[method];
                headers_ = in.substr(0, head_end);
                if (!statuses_.empty()) {
                    status = statuses_.front();
                    statuses_.pop_front();
                }
                reply = status == 200 ? ok_
                                      : json{{"Id", "things"},
                                             {"Code", status},
                                             {"Detail", "flaky"},
                                             {"Status", "error"}};
            }
        }
        const std::string text = reply.dump();
        const std::string out = "HTTP/1.1 " + std::to_string(status) +
                                " X\r\nContent-Type: application/json\r\nContent-Length: " +
                                std::to_string(text.size()) + "\r\nConnection: close\r\n\r\n" +
                                text;
        for (size_t off = 0; off < out.size();) {
            ssize_t n = write(c, out.data() + off, out.size() - off);
            if (n <= 0) return;
            off += static_cast<size_t>(n);
        }
    }
    int fd_ = -1, port_ = 0;
    std::thread thread_;
    std::mutex m_;
    std::deque<int> statuses_;
    json ok_;
    std::map<std::string, int> counts_;
    std::string headers_;
};

class CliRetry : public ::testing::Test {
protected:
    CommandResult platform(std::vector<std::string> args) {
        args.insert(args.begin(), HostProcess::binary());
        return run_command(args, {{"PLATFORM_HOME", home_.path()},
                                  {"PLATFORM_PROXY", proxy_.address()},
                                  {"PLATFORM_TOKEN", "t"},
                                  {"PLATFORM_ENV", ""}});
    }
    FlakyProxy proxy_;
    TempDir home_;
};

TEST_F(CliRetry, ReadsAreRetriedOn500And408) {
    proxy_.script({500, 200});
    EXPECT_EQ(platform({"things", "get"}).code, 0);
    EXPECT_EQ(proxy_.count("Things.Get"), 2);
    proxy_.script({408, 200});
    EXPECT_EQ(platform({"things", "get", "--name", "x"}).code, 0);
    EXPECT_EQ(proxy_.count("Things.Get"), 2);
    proxy_.script({500, 200});
    EXPECT_EQ(platform({"things", "put"}).code, 0);  // POST, but flagged idempotent
    EXPECT_EQ(proxy_.count("Things.Put"), 2);
}

TEST_F(CliRetry, RetriesAreBounded) {
    proxy_.script({500, 500, 500, 500, 500});
    auto r = platform({"things", "get"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("flaky"), std::string::npos) << r.err;
    EXPECT_EQ(proxy_.count("Things.Get"), 3);  // the call and two retries
}

TEST_F(CliRetry, OtherStatusesAreNotRetried) {
    for (int status : {503, 502, 429, 404, 400}) {
        proxy_.script({status, 200});
        EXPECT_NE(platform({"things", "get"}).code, 0) << status;
        EXPECT_EQ(proxy_.count("Things.Get"), 1) << status;
    }
}

TEST_F(CliRetry, SubmissionsAreNeverRetried) {
    proxy_.script({500, 200});
    EXPECT_EQ(platform({"things", "add", "--name", "x"}).code, 1);
    EXPECT_EQ(proxy_.count("Things.Add"), 1);
    proxy_.script({500, 200});
    EXPECT_EQ(platform({"call", "things", "Things.Add", "{}"}).code, 1);
    EXPECT_EQ(proxy_.count("Things.Add"), 1);
    proxy_.script({500, 200});  // `call` looks the endpoint up: a GET is retried
    EXPECT_EQ(platform({"call", "things", "Things.Get", "{}"}).code, 0);
    EXPECT_EQ(proxy_.count("Things.Get"), 2);
    proxy_.script({408, 200});
    EXPECT_EQ(platform({"config", "set", "a", "b"}).code, 1);
    EXPECT_EQ(proxy_.count("Config.Set"), 1);
    proxy_.script({500, 200});
    EXPECT_EQ(platform({"store", "write", "k", "v"}).code, 1);
    EXPECT_EQ(proxy_.count("Store.Write"), 1);
}

TEST_F(CliRetry, PlatformReadsAreRetried) {
    proxy_.script({500, 200}, {{"value", "v"}});
    auto r = platform({"config", "get", "a"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "v\n");
    EXPECT_EQ(proxy_.count("Config.Get"), 2);
    proxy_.script({408, 200}, {{"records", json::array({{{"key", "k"}, {"value", "v"}}})}});
    EXPECT_EQ(platform({"store", "read", "k"}).out, "v\n");
    EXPECT_EQ(proxy_.count("Store.Read"), 2);
}

TEST_F(CliRetry, CallSendsMetadataAndTimeoutHeaders) {
    proxy_.script({200});
    auto r = platform({"call", "--metadata", "X-Trace=abc", "--request_timeout=1m30s", "things",
                       "Things.Get", "{}"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string h = proxy_.last_headers();
    EXPECT_NE(h.find("X-Trace: abc"), std::string::npos) << h;
    EXPECT_NE(h.find("Timeout: 90"), std::string::npos) << h;
}

}  // namespace
