#include <chrono>
#include <cstdio>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/status.hpp>

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

}  // namespace

void Histogram::observe(double seconds) {
    size_t i = 0;
    while (i < bounds.size() && seconds > bounds[i]) ++i;
    counts[i]++;
    sum += seconds;
    count++;
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
    std::lock_guard<std::mutex> g(m_);
    requests_[{std::string(method_label(method)), status}]++;
    http_duration_.observe(seconds);
}

void Metrics::call(const std::string& service, const std::string& endpoint, std::string_view code,
                   double seconds) {
    std::lock_guard<std::mutex> g(m_);
    calls_[{service, endpoint, std::string(code)}]++;
    call_duration_[service].observe(seconds);
}

void Metrics::model_call(const std::string& provider, std::string_view code) {
    std::lock_guard<std::mutex> g(m_);
    model_calls_[{provider, std::string(code)}]++;
}

std::string Metrics::exposition() const {
    std::string out;
    std::lock_guard<std::mutex> g(m_);
    family(out, "platform_http_requests_total", "counter",
           "HTTP requests answered, by method and status.");
    for (const auto& [k, n] : requests_)
        out += "platform_http_requests_total{method=\"" + prometheus_escape(k.first) +
               "\",status=\"" + std::to_string(k.second) + "\"} " + std::to_string(n) + "\n";
    family(out, "platform_http_request_duration_seconds", "histogram",
           "Time from a request's arrival to its answer being handed to the connection.");
    histogram(out, "platform_http_request_duration_seconds", "", http_duration_);
    family(out, "platform_http_in_flight", "gauge", "Requests read and not yet answered.");
    out += "platform_http_in_flight " + std::to_string(in_flight_.load()) + "\n";
    family(out, "platform_http_connections", "gauge", "Open client connections on both ports.");
    out += "platform_http_connections " + std::to_string(connections_.load()) + "\n";
    family(out, "platform_http_rate_limited_total", "counter",
           "Requests refused with 429 by the per-address rate limit.");
    out += "platform_http_rate_limited_total " + std::to_string(rate_limited_.load()) + "\n";
    family(out, "platform_calls_total", "counter",
           "Plugin calls, by service, endpoint and outcome code.");
    for (const auto& [k, n] : calls_)
        out += "platform_calls_total{service=\"" + prometheus_escape(std::get<0>(k)) +
               "\",endpoint=\"" + prometheus_escape(std::get<1>(k)) + "\",code=\"" +
               prometheus_escape(std::get<2>(k)) + "\"} " + std::to_string(n) + "\n";
    family(out, "platform_call_duration_seconds", "histogram", "Plugin call duration, by service.");
    for (const auto& [service, h] : call_duration_)
        histogram(out, "platform_call_duration_seconds",
                  "service=\"" + prometheus_escape(service) + "\"", h);
    family(out, "platform_model_calls_total", "counter",
           "Model completions (model_complete), by provider and outcome code.");
    for (const auto& [k, n] : model_calls_)
        out += "platform_model_calls_total{provider=\"" + prometheus_escape(k.first) +
               "\",code=\"" + prometheus_escape(k.second) + "\"} " + std::to_string(n) + "\n";
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
