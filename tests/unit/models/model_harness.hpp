// model_harness.hpp — a model provider plugin (linked in) driven through the SDK's fake host:
// its settings come from FakeHost::on_call ("config" Config.Get), the profile config and the
// environment; its upstream is FakeHost::on_fetch, scripted here as a queue of answers, and every
// request it made is recorded.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "../support/model_completion.hpp"
#include "../support/plugin_under_test.hpp"

namespace models_test {

using namespace plugin_test;

// One request the provider sent through the host.
struct Sent {
    std::string method, url;
    json headers, body;
    uint32_t flags = 0;
    int32_t timeout_ms = 0;
};

class ModelHarness {
public:
    // `env_prefix`: OPENAI or ANTHROPIC; its variables are cleared for the test and restored after.
    explicit ModelHarness(std::string env_prefix) : prefix_(std::move(env_prefix)) {
        for (const char* v : {"_BASE_URL", "_API_KEY", "_MODEL"}) {
            const std::string name = prefix_ + v;
            if (const char* old = std::getenv(name.c_str())) saved_.emplace_back(name, old);
            ::unsetenv(name.c_str());
        }
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string&) {
            platform::testing::Reply r;
            r.code = PLATFORM_NOT_FOUND;
            if (service != "config" || method != "Config.Get")
                return r;  // NOT_FOUND, empty: no such service
            const std::string path = req.value("path", "");
            const json* node = &config_service;
            for (size_t start = 0; start <= path.size();) {
                const size_t dot = std::min(path.find('.', start), path.size());
                const std::string seg = path.substr(start, dot - start);
                if (!node->is_object() || !node->contains(seg)) {
                    r.body = "path: nothing is set at '" + path + "'";
                    return r;
                }
                node = &(*node)[seg];
                start = dot + 1;
            }
            r.code = PLATFORM_OK;
            r.body = json{{"value", *node}}.dump();
            return r;
        };
        host.on_fetch = [this](const platform_http_request_t& req) {
            Sent s;
            s.method = platform::copy(req.method);
            s.url = platform::copy(req.url);
            s.headers = json::parse(platform::view(req.headers_json), nullptr, false);
            s.body = json::parse(platform::view(req.body), nullptr, false);
            s.flags = req.flags;
            s.timeout_ms = req.timeout_ms;
            sent.push_back(s);
            FakeHost::FakeHttp r;
            if (answers.empty()) {
                r.code = PLATFORM_BAD_GATEWAY;
                r.error = "nothing scripted";
                return r;
            }
            r = answers.front();
            answers.pop_front();
            return r;
        };
    }

    ~ModelHarness() {
        if (inst_ && desc_->on_destroy) desc_->on_destroy(inst_);
        for (const auto& [name, value] : saved_) ::setenv(name.c_str(), value.c_str(), 1);
        for (const char* v : {"_BASE_URL", "_API_KEY", "_MODEL"})
            if (std::none_of(saved_.begin(), saved_.end(),
                             [&](const auto& s) { return s.first == prefix_ + v; }))
                ::unsetenv((prefix_ + v).c_str());
    }

    void env(const std::string& suffix, const std::string& value) {
        ::setenv((prefix_ + suffix).c_str(), value.c_str(), 1);
    }

    // Loads the plugin with `profile_config` (once per harness).
    void load(const json& profile_config = json::object()) {
        char err[512] = {0};
        platform_entry_args_t args = plugin_test::entry_args(host.api(), err);
        desc_ = platform_plugin_entry(&args);
        ASSERT_NE(desc_, nullptr) << err;
        ASSERT_EQ(desc_->kind, PLATFORM_KIND_MODEL);
        const std::string cfg = profile_config.dump();
        inst_ = desc_->on_create(host.api(), host.ctx(), platform::view(cfg), err, sizeof err);
        ASSERT_NE(inst_, nullptr) << err;
    }

    Completion complete(const json& request) {
        if (!inst_) load();
        return complete_with(desc_, inst_, request.dump());
    }

    // Scripts the next upstream answer (a response with an HTTP status), or a host failure.
    void answer(int status, const json& body, json headers = json::object()) {
        FakeHost::FakeHttp r;
        r.code = PLATFORM_OK;
        r.status = status;
        r.body = body.dump();
        r.headers = std::move(headers);
        answers.push_back(r);
    }
    void answer_raw(int status, const std::string& body) {
        FakeHost::FakeHttp r;
        r.code = PLATFORM_OK;
        r.status = status;
        r.body = body;
        answers.push_back(r);
    }
    void fail(platform_status_t code, const std::string& error) {
        FakeHost::FakeHttp r;
        r.code = code;
        r.error = error;
        answers.push_back(r);
    }

    FakeHost host;
    json config_service = json::object();  // what Config.Get answers ({"model": {"openai": {...}}})
    std::deque<FakeHost::FakeHttp> answers;
    std::vector<Sent> sent;

private:
    std::string prefix_;
    std::vector<std::pair<std::string, std::string>> saved_;
    const platform_plugin_desc_t* desc_ = nullptr;
    void* inst_ = nullptr;
};

}  // namespace models_test
