#include "workers.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>

#include "record.hpp"

namespace work {

using record::text;

namespace {

constexpr int64_t kWriteBackMs = 30000;        // tasks/update through the grant
constexpr int64_t kReplyGraceMs = 60000;       // beyond the call's own timeout, then give up
constexpr size_t kMaxTaskResultBytes = 10000;  // tasks' `result` limit

}  // namespace

struct Workers::Pending {
    std::mutex m;
    std::condition_variable cv;
    bool done = false, abandoned = false;
    platform_status_t code = PLATFORM_INTERNAL;
    std::string body;
};

std::string Workers::cut(const std::string& s, size_t bytes) {
    if (s.size() <= bytes) return s;
    size_t end = bytes;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    return s.substr(0, end);
}

std::string Workers::title(const std::string& prompt) {
    size_t start = prompt.find_first_not_of(" \t\r\n");
    std::string line =
        start == std::string::npos ? "" : prompt.substr(start, prompt.find('\n', start) - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.pop_back();
    return "Work: " + cut(line, 74);
}

void Workers::start(const Settings& settings) {
    settings_ = settings;
    std::vector<json> repair;
    try {
        jobs_.renew(settings_.lease_ms);  // before anything is claimed under this node's name
        repair = jobs_.recover();
    } catch (const std::exception& e) {
        host_.error(std::string("work: cannot recover the queue from the store: ") + e.what());
        throw;
    }
    {
        std::lock_guard<std::mutex> g(m_);
        stopping_ = false;
    }
    take_cleanup(std::move(repair));
    queued_.reopen();
    const platform_host_api_t* api = host_.api();
    auto message = [](void* user, platform_str_t, platform_str_t, platform_str_t) {
        static_cast<Workers*>(user)->queued_.bump();
    };
    if (PLATFORM_HAS_FIELD(platform_host_api_t, api, broker_subscribe) && api->broker_subscribe &&
        api->broker_subscribe(host_.ctx(), platform::view(kQueuedTopic), platform::view(""),
                              message, this, &subscription_) != PLATFORM_OK)
        subscription_ = 0;  // no broker: the keeper's wake-up alone
    for (int i = 0; i < settings_.workers; ++i)
        threads_.emplace_back([this, i] { loop(static_cast<size_t>(i)); });
    keeper_ = std::thread([this] { keep(); });
}

void Workers::stop() {
    {
        std::lock_guard<std::mutex> g(m_);
        stopping_ = true;
        for (const auto& p : inflight_) {
            std::lock_guard<std::mutex> pg(p->m);
            p->abandoned = true;
            p->cv.notify_all();
        }
    }
    keeper_cv_.notify_all();
    if (subscription_) {
        const platform_host_api_t* api = host_.api();
        if (api->broker_unsubscribe) api->broker_unsubscribe(host_.ctx(), subscription_);
        subscription_ = 0;
    }
    queued_.close();
    const bool started = keeper_.joinable();
    if (keeper_.joinable()) keeper_.join();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    threads_.clear();
    if (started) {
        try {
            jobs_.retire();  // what this process leaves doing is taken over at the next sweep
        } catch (const std::exception& e) {
            host_.warn(std::string("work: cannot end this node's lease: ") + e.what());
        }
    }
}

void Workers::wake() {
    queued_.bump();
    const platform_host_api_t* api = host_.api();
    if (PLATFORM_HAS_FIELD(platform_host_api_t, api, broker_publish) && api->broker_publish)
        api->broker_publish(host_.ctx(), platform::view(kQueuedTopic), platform::view("{}"),
                            platform::view("{}"));  // fire and forget: the keeper is the fallback
}

void Workers::take_cleanup(std::vector<json> records) {
    if (records.empty()) return;
    for (const auto& r : records)
        if (text(r, "error") == "interrupted" && text(r, "status") == "failed")
            host_.warn("work " + text(r, "id") +
                       " was interrupted (its process stopped or died): failed, retryable with "
                       "work/retry");
    {
        std::lock_guard<std::mutex> g(m_);
        for (auto& r : records) cleanup_.push_back(std::move(r));
    }
    queued_.bump();
}

void Workers::keep() {
    using std::chrono::milliseconds;
    using std::chrono::steady_clock;
    const int64_t renew_ms = std::min<int64_t>(5000, std::max<int64_t>(settings_.lease_ms / 4, 1));
    auto next_renew = steady_clock::now() + milliseconds(renew_ms);
    auto next_poll = steady_clock::now() + milliseconds(settings_.poll_ms);
    std::unique_lock<std::mutex> lock(m_);
    while (!stopping_) {
        keeper_cv_.wait_until(lock, std::min(next_renew, next_poll), [&] { return stopping_; });
        if (stopping_) return;
        lock.unlock();
        if (steady_clock::now() >= next_poll) {
            next_poll = steady_clock::now() + milliseconds(settings_.poll_ms);
            queued_.bump();  // work queued elsewhere (a lost message, or no broker)
        }
        if (steady_clock::now() >= next_renew) {
            next_renew = steady_clock::now() + milliseconds(renew_ms);
            try {
                jobs_.renew(settings_.lease_ms);
                take_cleanup(jobs_.sweep());
            } catch (const std::exception& e) {
                host_.warn(std::string("work: cannot renew the lease or sweep: ") + e.what());
            }
        }
        lock.lock();
    }
}

void Workers::loop(size_t) {
    for (;;) {
        const uint64_t seen = queued_.current();
        std::vector<json> repair;
        {
            std::lock_guard<std::mutex> g(m_);
            if (stopping_) return;
            repair.swap(cleanup_);
        }
        for (const auto& r : repair) {
            try {
                cleanup(r);
            } catch (const std::exception& e) {
                host_.error("work " + text(r, "id") + ": cleanup failed: " + e.what());
            }
        }
        std::optional<json> job;
        try {
            job = jobs_.claim();
        } catch (const std::exception& e) {
            host_.error(std::string("work: cannot take queued work: ") + e.what());
        }
        if (!job) {
            if (!queued_.wait(seen)) return;  // stopping
            continue;
        }
        try {
            run(*job);
        } catch (const std::exception& e) {  // the record stays doing; the next start fails it
            host_.error("work " + text(*job, "id") + ": " + e.what());
        }
    }
}

void Workers::run(const json& job) {
    const std::string grant = text(job, "grant"), task = text(job, "task"),
                      prompt = text(job, "prompt");
    if (!task.empty()) {
        Answer a =
            call(grant, "tasks", "update", {{"id", task}, {"status", "doing"}}, kWriteBackMs);
        if (a.abandoned) return;
    }
    const json& own = job.contains("call") ? job["call"] : json();
    const bool service_job = own.is_object();
    std::string service = "agent", method = "run";
    json request;
    if (service_job) {
        service = text(own, "service");
        method = text(own, "method");
        request = own.value("args", json::object());
    } else {
        const std::string channel = text(job, "channel");  // records from before it was kept
        request = {{"prompt", prompt},
                   {"channel", channel.empty() ? "web" : channel},
                   {"title", title(prompt)}};
        if (!text(job, "agent").empty()) request["agent"] = text(job, "agent");
        if (!text(job, "thread").empty()) request["thread"] = text(job, "thread");
    }
    Answer a = call(grant, service, method, request, settings_.timeout_ms);
    if (a.abandoned) return;  // stopping: left doing, failed as interrupted at the next start

    std::optional<json> finished;
    const std::string message = a.body.empty() ? service + "/" + method + " failed (status " +
                                                     std::to_string(static_cast<int>(a.code)) + ")"
                                               : a.body;
    if (a.code == platform::Code::ok) {
        const json out = json::parse(a.body, nullptr, false);
        if (service_job)  // the service's answer is the result, as it gave it
            finished = jobs_.finish(job, "done", out.is_discarded() ? json(a.body) : out, "",
                                    json::array(), "");
        else if (out.is_object())
            finished = jobs_.finish(job, "done", out.value("text", ""), "",
                                    out.value("steps", json::array()), text(out, "thread"));
        else
            finished =
                jobs_.finish(job, "failed", nullptr,
                             "agent/run answered something that is not JSON", json::array(), "");
    } else {
        const bool blocked = a.code == platform::Code::payment_required;
        finished =
            jobs_.finish(job, blocked ? "blocked" : "failed", nullptr, message, json::array(), "");
    }
    if (!finished) {
        host_.warn("work " + text(job, "id") +
                   ": its result came after the work stopped being doing; dropped");
        return;
    }
    cleanup(*finished);
}

void Workers::cleanup(const json& r) {
    const std::string grant = text(r, "grant"), task = text(r, "task"), status = text(r, "status");
    if (!task.empty() && !grant.empty()) {
        const std::string result = status == "done" ? text(r, "result") : text(r, "error");
        Answer a =
            call(grant, "tasks", "update",
                 {{"id", task}, {"status", status}, {"result", cut(result, kMaxTaskResultBytes)}},
                 kWriteBackMs);
        if (a.abandoned) return;  // stopping: the next start does it again
        if (a.code != platform::Code::ok)
            host_.warn("work " + text(r, "id") + ": task " + task + " not updated: " + a.body);
    }
    if (!grant.empty()) host_.revoke_grant(grant);
    jobs_.cleaned(r);
}

Workers::Answer Workers::call(const std::string& grant, const std::string& service,
                              const std::string& method, const json& request, int64_t timeout_ms) {
    const platform_host_api_t* api = host_.api();
    if (grant.empty())
        return {platform::Code::not_found, "this work has no grant to act with", false};
    if (!PLATFORM_HAS_FIELD(platform_host_api_t, api, grant_call_service) ||
        !api->grant_call_service)
        return {platform::Code::unsupported, "the host does not offer grants (ABI 1.6)", false};
    auto p = std::make_shared<Pending>();
    {
        std::lock_guard<std::mutex> g(m_);
        if (stopping_) return {platform::Code::unavailable, "stopping", true};
        inflight_.insert(p);
    }
    struct Forget {
        Workers* w;
        std::shared_ptr<Pending> p;
        ~Forget() {
            std::lock_guard<std::mutex> g(w->m_);
            w->inflight_.erase(p);
        }
    } forget{this, p};

    // The reply may come after stop() gave up waiting: it owns a reference to the state.
    auto* holder = new std::shared_ptr<Pending>(p);
    auto reply = [](void* user, platform_status_t code, platform_str_t body) {
        auto* h = static_cast<std::shared_ptr<Pending>*>(user);
        {
            std::lock_guard<std::mutex> g((*h)->m);
            (*h)->code = code;
            (*h)->body = platform::copy(body);
            (*h)->done = true;
        }
        (*h)->cv.notify_all();
        delete h;
    };
    const std::string body = request.dump(-1, ' ', false, json::error_handler_t::replace);
    const auto st = api->grant_call_service(host_.ctx(), platform::view(grant),
                                            platform::view(service), platform::view(method),
                                            platform::view(body), timeout_ms, reply, holder);
    if (st != PLATFORM_OK) {  // `reply` is not called
        delete holder;
        return {static_cast<platform::Code>(st),
                st == PLATFORM_NOT_FOUND
                    ? "no such grant, service or method: " + service + "/" + method
                    : "the host refused the call to " + service + "/" + method,
                false};
    }
    std::unique_lock<std::mutex> lock(p->m);
    const auto limit = std::chrono::milliseconds(timeout_ms + kReplyGraceMs);
    if (!p->cv.wait_for(lock, limit, [&] { return p->done || p->abandoned; }))
        return {platform::Code::deadline_exceeded,
                service + "/" + method + " did not answer in time", false};
    if (!p->done) return {platform::Code::unavailable, "stopping", true};
    return {static_cast<platform::Code>(p->code), p->body, false};
}

}  // namespace work
