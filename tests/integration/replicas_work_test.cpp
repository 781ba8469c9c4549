// Work across host replicas (support/replicas.hpp; the kubernetes profile's providers): the agent
// runs each job through model-openai against the scripted fake model server
// (support/fake_model_server.hpp), which records every prompt, so a job that ran twice shows as
// two requests carrying its marker.
//
// - 200 jobs submitted across both replicas (100 through each, four accounts) run exactly once
//   each: every one ends done after one attempt, and the model saw each job's prompt once.
// - A replica SIGKILLed while both run jobs (held inside the model) loses no acknowledged job:
//   once the other carries on, every job a submit acknowledged reaches a final state — done, or
//   failed "interrupted" — never run twice, never stuck. That is plugins/work's runner leases
//   (decision 73): the surviving replica fails the dead runner's jobs and runs its queue.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <csignal>
#include <future>
#include <map>
#include <set>
#include <thread>

#include "fake_model_server.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "replicas.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

using Clock = std::chrono::steady_clock;
using M = FakeModelServer;

constexpr int kAccounts = 4;

struct Job {
    std::string id, owner, marker;
    int via = 0;  // the replica that acknowledged it
};

class ReplicasWork : public ::testing::Test {
protected:
    void SetUp() override {
        if (auto why = replicas_skip_reason(); !why.empty()) GTEST_SKIP() << why;
        ReplicaSet::Options o;
        o.extra = "outbound:\n  allow: [\"" + model_.allow_entry() + "\"]\n";
        o.env["OPENAI_BASE_URL"] = model_.url("/v1");
        o.env["OPENAI_API_KEY"] = "test-key";
        o.env["OPENAI_MODEL"] = "gpt-test";
        o.env["ANTHROPIC_API_KEY"] = "";
        // lease_ms: how long a silent runner's work waits before another replica fails it
        // (runner leases, decision 73); short, so the kill test takes seconds, not the default 30.
        o.plugin_config.push_back({"work", "workers: 2\nlease_ms: 3000"});
        o.lift_rate_limits = true;  // 200 submits in seconds, from four accounts
        set_ = std::make_unique<ReplicaSet>(o);
        set_->start(0);
        set_->start(1);
        for (int i = 0; i < 2; ++i)
            api_.push_back(std::make_unique<HttpClient>("127.0.0.1", (*set_)[i].api_port()));
        const std::string admin = access_token(*api_[0], "admin", ReplicaSet::kAdminSecret);
        for (int i = 0; i < kAccounts; ++i) {
            const std::string id = "worker-" + std::to_string(i), secret = id + "-secret-1";
            auto r = api_[0]->post_json("/auth/createAccount", {{"id", id}, {"secret", secret}},
                                        bearer(admin));
            ASSERT_EQ(r.status, 200) << r.body;
            tokens_[id] = access_token(*api_[i % 2], id, secret);
        }
    }

    // Submits jobs first..first+count-1 through replica `via` on its own connection, each as
    // account (n % kAccounts); answers the acknowledged ones.
    std::vector<Job> submit(int via, int first, int count) {
        HttpClient c("127.0.0.1", (*set_)[via].api_port());
        std::vector<Job> out;
        for (int n = first; n < first + count; ++n) {
            Job j;
            j.owner = "worker-" + std::to_string(n % kAccounts);
            j.marker = "replica-job-" + std::to_string(n) + "-end";
            j.via = via;
            auto r = c.post_json("/api/v1/work/submit",
                                 {{"prompt", "Reply with one word. Job " + j.marker}},
                                 bearer(tokens_[j.owner]));
            if (r.status != 200) {
                ADD_FAILURE() << "submit " << n << " via replica " << via << ": " << r.status << " "
                              << r.body;
                continue;
            }
            j.id = r.json()["data"].value("id", "");
            out.push_back(j);
        }
        return out;
    }

    // Submits `per_replica` jobs through each replica at once (two threads).
    std::vector<Job> submit_across(int per_replica) {
        auto on_a = std::async(std::launch::async, [&] { return submit(0, 0, per_replica); });
        auto on_b =
            std::async(std::launch::async, [&] { return submit(1, per_replica, per_replica); });
        std::vector<Job> jobs = on_a.get();
        for (auto& j : on_b.get()) jobs.push_back(j);
        return jobs;
    }

    // Each account's work by status, read through replica `via` (work/list, one page each).
    std::map<std::string, json> records(int via) {
        std::map<std::string, json> out;
        for (const auto& [owner, token] : tokens_) {
            for (int offset = 0;; offset += 100) {
                auto r = api_[via]->get(
                    "/api/v1/work/list?limit=100&offset=" + std::to_string(offset), bearer(token));
                if (r.status != 200) {
                    ADD_FAILURE() << "work/list: " << r.status << " " << r.body;
                    return out;
                }
                const json page = r.json()["data"]["work"];
                for (const auto& w : page) out[w.value("id", "")] = w;
                if (page.size() < 100) break;
            }
        }
        return out;
    }

    // Until every job in `jobs` is done or failed (read through `via`), or `seconds` pass.
    bool all_final(const std::vector<Job>& jobs, int via, int seconds,
                   std::map<std::string, json>& seen) {
        const auto until = Clock::now() + std::chrono::seconds(seconds);
        for (;;) {
            seen = records(via);
            size_t final = 0;
            for (const auto& j : jobs) {
                const std::string s = seen[j.id].value("status", "");
                final += s == "done" || s == "failed" || s == "blocked";
            }
            if (final == jobs.size()) return true;
            if (Clock::now() >= until || ::testing::Test::HasFailure()) return false;
            // Paces the polls; the wait is for the statuses above.
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }

    // How many model requests carried each job's marker ("replica-job-<n>-end", counted once per
    // request). A plain search: the requests carry the agent's whole tool list.
    std::map<std::string, int> runs_per_marker() {
        std::map<std::string, int> out;
        const std::string head = "replica-job-", tail = "-end";
        for (const auto& req : model_.requests(M::kOpenAiPath)) {
            std::set<std::string> in_this;
            for (size_t at = req.text.find(head); at != std::string::npos;
                 at = req.text.find(head, at + head.size())) {
                size_t end = at + head.size();
                while (end < req.text.size() &&
                       std::isdigit(static_cast<unsigned char>(req.text[end])))
                    ++end;
                if (end > at + head.size() && req.text.compare(end, tail.size(), tail) == 0)
                    in_this.insert(req.text.substr(at, end + tail.size() - at));
            }
            for (const auto& m : in_this) ++out[m];
        }
        return out;
    }

    FakeModelServer model_;
    std::unique_ptr<ReplicaSet> set_;
    std::vector<std::unique_ptr<HttpClient>> api_;
    std::map<std::string, std::string> tokens_;
};

TEST_F(ReplicasWork, TwoHundredJobsSubmittedAcrossBothRunExactlyOnceEach) {
    for (int i = 0; i < 300; ++i)  // more answers than jobs: a second run would be answered too
        model_.enqueue(M::kOpenAiPath, M::ok(M::openai_text("done")));
    const auto began = Clock::now();
    const std::vector<Job> jobs = submit_across(100);
    ASSERT_EQ(jobs.size(), 200u);
    std::printf("[replicas] 200 jobs submitted in %.1f s\n",
                std::chrono::duration<double>(Clock::now() - began).count());
    std::map<std::string, json> seen;
    const bool finished = all_final(jobs, 1, 180, seen);
    const double took = std::chrono::duration<double>(Clock::now() - began).count();
    ASSERT_TRUE(finished) << "not every job finished in 180 s\n" << set_->logs();
    std::printf("[replicas] 200 jobs across two replicas done in %.1f s, %zu model requests\n",
                took, model_.requests(M::kOpenAiPath).size());

    // Read through the other replica too: the same records.
    std::map<std::string, json> via_a = records(0);
    const auto runs = runs_per_marker();
    int done = 0;
    for (const auto& j : jobs) {
        const json& w = seen[j.id];
        EXPECT_EQ(w.value("status", ""), "done") << w;
        EXPECT_EQ(w.value("attempts", 0), 1) << w;
        EXPECT_EQ(via_a[j.id].value("status", ""), "done") << via_a[j.id];
        auto it = runs.find(j.marker);
        EXPECT_EQ(it == runs.end() ? 0 : it->second, 1)
            << j.marker << " (job " << j.id << ", via replica " << j.via << ") ran that often";
        done += w.value("status", "") == "done";
    }
    EXPECT_EQ(done, 200);
    EXPECT_EQ(model_.requests(M::kOpenAiPath).size(), 200u);
}

TEST_F(ReplicasWork, KillingOneMidRunLosesNoAcknowledgedJob) {
    // Every model request waits until released: the four workers (two per replica) each hold one
    // job inside the model when the model has seen four requests.
    model_.hold(M::kOpenAiPath);
    for (int i = 0; i < 100; ++i) model_.enqueue(M::kOpenAiPath, M::ok(M::openai_text("done")));
    const std::vector<Job> jobs = submit_across(10);
    ASSERT_EQ(jobs.size(), 20u);
    ASSERT_TRUE(model_.wait_for_requests(M::kOpenAiPath, 4, 60000))
        << model_.requests(M::kOpenAiPath).size() << " jobs reached the model\n"
        << set_->logs();
    EXPECT_EQ(set_->kill9(0), 128 + SIGKILL);
    const auto killed = Clock::now();
    model_.release(M::kOpenAiPath);

    // Replica 1 carries on: every acknowledged job reaches a final state. (Runner leases: the jobs
    // replica 0 was running become failed "interrupted" once its 3 s lease lapses, and the todo
    // jobs it acknowledged are run by replica 1. Without leases they would stay doing.)
    std::map<std::string, json> seen;
    const bool finished = all_final(jobs, 1, 60, seen);
    const double took = std::chrono::duration<double>(Clock::now() - killed).count();
    std::map<std::string, int> states;
    for (const auto& j : jobs)
        ++states[seen[j.id].value("status", "") + " " + seen[j.id].value("error", json("")).dump()];
    std::string summary;
    for (const auto& [s, n] : states) summary += " " + std::to_string(n) + " x " + s + ";";
    std::printf("[replicas] after the SIGKILL of replica 0: %s (%.1f s)\n", summary.c_str(), took);
    EXPECT_TRUE(finished) << "jobs left unfinished 60 s after the kill:" << summary << "\n"
                          << set_->logs();

    const auto runs = runs_per_marker();
    int interrupted = 0;
    for (const auto& j : jobs) {
        const json& w = seen[j.id];
        const std::string status = w.value("status", "");
        auto it = runs.find(j.marker);
        const int ran = it == runs.end() ? 0 : it->second;
        EXPECT_LE(ran, 1) << j.marker << " reached the model " << ran << " times: " << w;
        if (status == "done") {
            EXPECT_EQ(ran, 1) << w;
        } else {
            EXPECT_EQ(status, "failed") << w;
            EXPECT_EQ(w.value("error", json("")), "interrupted") << w;
            ++interrupted;
        }
        EXPECT_EQ(w.value("attempts", 0), 1) << w;
    }
    // Replica 0's two workers held a job each in the model when it died.
    EXPECT_GE(interrupted, 2) << summary;
}

}  // namespace
