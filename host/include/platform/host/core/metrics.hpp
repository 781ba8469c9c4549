// platform/host/core/metrics.hpp — the host's Prometheus metrics (text exposition format 0.0.4),
// served at GET /metrics on the api port. One set per Runtime (Runtime::metrics()): the
// dispatcher counts calls on it, the HTTP server its requests and connections.
//
//   platform_http_requests_total{method,status}          counter (method: GET... or OTHER)
//   platform_http_request_duration_seconds               histogram
//   platform_http_in_flight                              gauge: requests read, not yet answered
//   platform_http_connections                            gauge: open client connections
//   platform_http_rate_limited_total                     counter: 429s from the rate limiter
//   platform_calls_total{service,endpoint,code}          counter: plugin calls by outcome code
//   platform_call_duration_seconds{service}              histogram
//   platform_model_calls_total{provider,code}            counter: model_complete calls (ABI 1.5)
// Histogram buckets (seconds): .005 .01 .025 .05 .1 .25 .5 1 2.5 5 10 +Inf. Thread-safe.
//
// Counting takes no lock shared between threads: each thread counts in its own shard
// (per_thread.hpp) and exposition() sums the shards. A thread takes its shard's own lock only to
// add a label set it has not counted before; the scrape takes each shard's lock to read it.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/per_thread.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

namespace platform::host {

struct Histogram {
    static constexpr std::array<double, 11> bounds{0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                   0.5,   1,    2.5,   5,    10};
    std::array<uint64_t, bounds.size() + 1> counts{};  // per bucket, not cumulative; last = +Inf
    double sum = 0;
    uint64_t count = 0;
    void observe(double seconds);
};

class Metrics {
public:
    void http_request(std::string_view method, int status, double seconds);
    void in_flight_add(int64_t delta) { in_flight_ += delta; }
    void connections_add(int64_t delta) { connections_ += delta; }
    void rate_limited() { rate_limited_++; }
    void call(const std::string& service, const std::string& endpoint, std::string_view code,
              double seconds);
    // provider: the plugin id, or "none" when no provider could be chosen.
    void model_call(const std::string& provider, std::string_view code);

    int64_t in_flight() const { return in_flight_; }
    // The exposition text, with `# HELP` and `# TYPE` for every family.
    std::string exposition() const;

    // One thread's counts. Only the owning thread writes; it changes a map only under `m`, and
    // the scrape reads under `m`, so the owner's look-ups need no lock. Counts are atomics written
    // by the owner alone (a load and a store, no read-modify-write).
    struct Count {
        std::atomic<uint64_t> n{0};
        void add() { n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
    };
    struct ShardHistogram {
        std::array<std::atomic<uint64_t>, Histogram::bounds.size() + 1> counts{};
        std::atomic<double> sum{0};
        void observe(double seconds);
        void add_to(Histogram& h) const;
    };
    struct Shard {
        std::mutex m;
        // Keys are the label values joined with '\x1f'; looked up by string_view (std::less<>).
        std::map<std::string, Count, std::less<>> requests, calls, model_calls;
        std::map<std::string, ShardHistogram, std::less<>> call_duration;
        ShardHistogram http_duration;
        std::string key;  // the owner's scratch for building a key without allocating
    };

private:
    PerThread<Shard> shards_;
    std::atomic<int64_t> in_flight_{0}, connections_{0};
    std::atomic<uint64_t> rate_limited_{0};
};

// Prometheus label value escaping: backslash, double quote and newline.
std::string prometheus_escape(std::string_view value);

// Wraps a call's `done` so its outcome and duration (from now) are counted on `metrics`.
std::function<void(Outcome)> track_call(const std::string& service, const std::string& endpoint,
                                        std::function<void(Outcome)> done, Metrics& metrics);

}  // namespace platform::host
