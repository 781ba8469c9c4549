#include <charconv>
#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/status.hpp>
#include <utility>
#include <vector>

namespace platform::host {

namespace {

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string bound(double b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", b);
    return buf;
}

std::string_view method_label(std::string_view m) {
    for (std::string_view known :
         {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"})
        if (m == known) return known;
    return "OTHER";
}

void family(std::string& out, const char* name, const char* type, const char* help) {
    out += "# HELP ";
    out += name;
    out += " ";
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += " ";
    out += type;
    out += "\n";
}

// `labels` is "" or `key="value",...` without braces.
void histogram(std::string& out, const std::string& name, const std::string& labels,
               const Histogram& h) {
    uint64_t cumulative = 0;
    const std::string sep = labels.empty() ? "" : ",";
    for (size_t i = 0; i < Histogram::bounds.size(); ++i) {
        cumulative += h.counts[i];
        out += name + "_bucket{" + labels + sep + "le=\"" + bound(Histogram::bounds[i]) + "\"} " +
               std::to_string(cumulative) + "\n";
    }
    cumulative += h.counts.back();
    out += name + "_bucket{" + labels + sep + "le=\"+Inf\"} " + std::to_string(cumulative) + "\n";
    const std::string braces = labels.empty() ? "" : "{" + labels + "}";
    out += name + "_sum" + braces + " " + number(h.sum) + "\n";
    out += name + "_count" + braces + " " + std::to_string(h.count) + "\n";
}

// The owner's entry for `key` in one of its shard's maps, added under the shard's lock if new.
template <class V>
V& slot(Metrics::Shard& s, std::map<std::string, V, std::less<>>& map, std::string_view key) {
    if (auto it = map.find(key); it != map.end()) return it->second;
    std::lock_guard<std::mutex> g(s.m);
    return map.try_emplace(std::string(key)).first->second;
}

constexpr char kSep = '\x1f';

std::string_view join(std::string& buf, std::initializer_list<std::string_view> parts) {
    buf.clear();
    bool first = true;
    for (auto p : parts) {
        if (!std::exchange(first, false)) buf += kSep;
        buf.append(p.data(), p.size());
    }
    return buf;
}

std::vector<std::string> split(std::string_view key) {
    std::vector<std::string> out;
    for (size_t at = 0;;) {
        size_t sep = key.find(kSep, at);
        out.emplace_back(key.substr(at, sep == std::string_view::npos ? sep : sep - at));
        if (sep == std::string_view::npos) return out;
        at = sep + 1;
    }
}

}  // namespace

void Histogram::observe(double seconds) {
    size_t i = 0;
    while (i < bounds.size() && seconds > bounds[i]) ++i;
    counts[i]++;
    sum += seconds;
    count++;
}

void Metrics::ShardHistogram::observe(double seconds) {
    size_t i = 0;
    while (i < Histogram::bounds.size() && seconds > Histogram::bounds[i]) ++i;
    counts[i].store(counts[i].load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    sum.store(sum.load(std::memory_order_relaxed) + seconds, std::memory_order_relaxed);
}

// `count` is the buckets' total as read, so it always equals the +Inf bucket.
void Metrics::ShardHistogram::add_to(Histogram& h) const {
    for (size_t i = 0; i < counts.size(); ++i) {
        const uint64_t n = counts[i].load(std::memory_order_relaxed);
        h.counts[i] += n;
        h.count += n;
    }
    h.sum += sum.load(std::memory_order_relaxed);
}

std::string prometheus_escape(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

void Metrics::http_request(std::string_view method, int status, double seconds) {
    Shard& s = shards_.local();
    char code[16];
    const auto end = std::to_chars(code, code + sizeof code, status).ptr;
    slot(s, s.requests, join(s.key, {method_label(method), std::string_view(code, end - code)}))
        .add();
    s.http_duration.observe(seconds);
}

void Metrics::call(const std::string& service, const std::string& endpoint, std::string_view code,
                   double seconds) {
    Shard& s = shards_.local();
    slot(s, s.calls, join(s.key, {service, endpoint, code})).add();
    slot(s, s.call_duration, service).observe(seconds);
}

void Metrics::model_call(const std::string& provider, std::string_view code) {
    Shard& s = shards_.local();
    slot(s, s.model_calls, join(s.key, {provider, code})).add();
}

std::string Metrics::exposition() const {
    // The shards summed, in label order.
    std::map<std::string, uint64_t> requests, calls, model_calls;
    std::map<std::string, Histogram> call_duration;
    Histogram http_duration;
    shards_.for_each([&](const Shard& s) {
        std::lock_guard<std::mutex> g(const_cast<std::mutex&>(s.m));
        for (const auto& [k, n] : s.requests) requests[k] += n.n.load(std::memory_order_relaxed);
        for (const auto& [k, n] : s.calls) calls[k] += n.n.load(std::memory_order_relaxed);
        for (const auto& [k, n] : s.model_calls)
            model_calls[k] += n.n.load(std::memory_order_relaxed);
        for (const auto& [k, h] : s.call_duration) h.add_to(call_duration[k]);
        s.http_duration.add_to(http_duration);
    });
    std::string out;
    family(out, "platform_http_requests_total", "counter",
           "HTTP requests answered, by method and status.");
    for (const auto& [k, n] : requests) {
        auto l = split(k);
        out += "platform_http_requests_total{method=\"" + prometheus_escape(l[0]) + "\",status=\"" +
               l[1] + "\"} " + std::to_string(n) + "\n";
    }
    family(out, "platform_http_request_duration_seconds", "histogram",
           "Time from a request's arrival to its answer being handed to the connection.");
    histogram(out, "platform_http_request_duration_seconds", "", http_duration);
    family(out, "platform_http_in_flight", "gauge", "Requests read and not yet answered.");
    out += "platform_http_in_flight " + std::to_string(in_flight_.load()) + "\n";
    family(out, "platform_http_connections", "gauge", "Open client connections on both ports.");
    out += "platform_http_connections " + std::to_string(connections_.load()) + "\n";
    family(out, "platform_http_rate_limited_total", "counter",
           "Requests refused with 429 by the per-address rate limit.");
    out += "platform_http_rate_limited_total " + std::to_string(rate_limited_.load()) + "\n";
    family(out, "platform_calls_total", "counter",
           "Plugin calls, by service, endpoint and outcome code.");
    for (const auto& [k, n] : calls) {
        auto l = split(k);
        out += "platform_calls_total{service=\"" + prometheus_escape(l[0]) + "\",endpoint=\"" +
               prometheus_escape(l[1]) + "\",code=\"" + prometheus_escape(l[2]) + "\"} " +
               std::to_string(n) + "\n";
    }
    family(out, "platform_call_duration_seconds", "histogram", "Plugin call duration, by service.");
    for (const auto& [service, h] : call_duration)
        histogram(out, "platform_call_duration_seconds",
                  "service=\"" + prometheus_escape(service) + "\"", h);
    family(out, "platform_model_calls_total", "counter",
           "Model completions (model_complete), by provider and outcome code.");
    for (const auto& [k, n] : model_calls) {
        auto l = split(k);
        out += "platform_model_calls_total{provider=\"" + prometheus_escape(l[0]) + "\",code=\"" +
               prometheus_escape(l[1]) + "\"} " + std::to_string(n) + "\n";
    }
    return out;
}

std::function<void(Outcome)> track_call(const std::string& service, const std::string& endpoint,
                                        std::function<void(Outcome)> done, Metrics& metrics) {
    const auto start = std::chrono::steady_clock::now();
    return [service, endpoint, done = std::move(done), start, &metrics](Outcome o) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        metrics.call(service, endpoint, status_info(o.code).name, seconds);
        done(std::move(o));
    };
}

}  // namespace platform::host
