// services.hpp — the other services the work plugin calls, as the unit tests play them through
// the fake host's `on_call`: agent/run (scripted answers, or held until the test releases it),
// agent/messages, agent/list and tasks/update. Header-only (included by a relative path).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace work_test {

using namespace plugin_test;

inline Reply answer(platform_status_t code, const std::string& body) {
    Reply r;
    r.code = code;
    r.body = body;
    return r;
}

// What the other services saw, and how agent/run answers. Thread-safe: workers call in.
struct Services {
    std::mutex m;
    std::condition_variable cv;
    std::vector<json> runs;          // agent/run requests, each with "_as": the account
    std::vector<json> task_updates;  // tasks/update requests, each with "_as"
    std::deque<Reply> scripted;      // next agent/run answers; default: ok
    bool holding = false;            // prompts containing "HOLD" wait for release()
    int held = 0;                    // agent/run calls waiting now

    Reply call(const std::string& service, const std::string& method, const json& req,
               const std::string& as) {
        std::unique_lock<std::mutex> lock(m);
        json seen = req;
        seen["_as"] = as;
        if (service == "agent" && method == "messages") {
            if (as == "ann" && req.value("id", "") == "th-ann")
                return answer(PLATFORM_OK, R"({"thread":{},"messages":[]})");
            return answer(PLATFORM_NOT_FOUND, "thread: no such conversation");
        }
        if (service == "agent" && method == "list")
            return answer(
                PLATFORM_OK,
                R"({"agents":[{"name":"assistant"},{"name":"keeper"}],"default":"assistant"})");
        if (service == "tasks" && method == "update") {
            task_updates.push_back(seen);
            cv.notify_all();
            return answer(PLATFORM_OK, json{{"id", req["id"]}}.dump());
        }
        if (service == "agent" && method == "run") {
            runs.push_back(seen);
            cv.notify_all();
            if (holding && req.value("prompt", "").find("HOLD") != std::string::npos) {
                ++held;
                cv.notify_all();
                cv.wait(lock, [&] { return !holding; });
                --held;
            }
            if (!scripted.empty()) {
                Reply r = scripted.front();
                scripted.pop_front();
                return r;
            }
            json steps = json::array({{{"tool", "notes_add"},
                                       {"arguments", {{"title", "t"}}},
                                       {"outcome", "ok"},
                                       {"seconds", 0.1}}});
            return answer(PLATFORM_OK, json{{"text", "did: " + req.value("prompt", "")},
                                            {"thread", req.value("thread", "th-new")},
                                            {"steps", steps},
                                            {"model", "fake"}}
                                           .dump());
        }
        return answer(PLATFORM_NOT_FOUND, "");
    }
    void hold() {
        std::lock_guard<std::mutex> g(m);
        holding = true;
    }
    void release() {
        std::lock_guard<std::mutex> g(m);
        holding = false;
        cv.notify_all();
    }
    // Waits until some agent/run is held.
    bool wait_held(int n = 1) {
        std::unique_lock<std::mutex> lock(m);
        return cv.wait_for(lock, std::chrono::seconds(5), [&] { return held >= n; });
    }
    size_t run_count() {
        std::lock_guard<std::mutex> g(m);
        return runs.size();
    }
};

}  // namespace work_test
