// host/src/acme/acme_session.cpp — directory, nonces, signed requests, problems, polling.
#include "acme_session.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <ctime>
#include <stdexcept>
#include <utility>

namespace platform::host::acme {
namespace {

constexpr const char* kBadNonce = "urn:ietf:params:acme:error:badNonce";

std::string prefix(const std::string& what, const HttpReply& r) {
    return "ACME " + what + ": " + std::to_string(r.status) + " ";
}

}  // namespace

AcmeSession::AcmeSession(const AcmeSettings& settings, const EcKey& account_key,
                         const std::atomic<bool>& cancelled, Counters& counters, Wait wait)
    : settings_(settings),
      key_(account_key),
      counters_(counters),
      wait_(std::move(wait)),
      http_(settings.ca_file, settings.request_timeout_ms, cancelled, counters) {}

std::string AcmeSession::endpoint(const std::string& name) {
    if (directory_.is_null()) {
        HttpReply r = http_.request("directory", "GET", settings_.directory_url);
        if (r.status != 200)
            throw std::runtime_error(
                prefix("directory", r) + "from " + settings_.directory_url +
                " (expected 200 and the ACME directory): " + describe_problem(r.body));
        auto dir = nlohmann::json::parse(r.body, nullptr, false);
        if (!dir.is_object() || !dir.contains("newNonce") || !dir.contains("newAccount") ||
            !dir.contains("newOrder"))
            throw std::runtime_error(
                "ACME directory: " + settings_.directory_url +
                " is not an ACME directory (no newNonce, newAccount, newOrder)");
        directory_ = std::move(dir);
        keep_nonce(r);
    }
    auto it = directory_.find(name);
    if (it == directory_.end() || !it->is_string() || it->get<std::string>().empty())
        throw std::runtime_error("ACME directory: no \"" + name + "\" URL in " +
                                 settings_.directory_url);
    return it->get<std::string>();
}

void AcmeSession::keep_nonce(const HttpReply& reply) {
    std::string n = reply.header("replay-nonce");
    if (!n.empty()) nonce_ = std::move(n);
}

std::string AcmeSession::take_nonce() {
    if (nonce_.empty()) {
        std::string url = endpoint("newNonce");
        HttpReply r = http_.request("newNonce", "HEAD", url);
        if (r.status != 200 && r.status != 204)
            throw std::runtime_error(prefix("newNonce", r) + "from HEAD " + url);
        keep_nonce(r);
        if (nonce_.empty())
            throw std::runtime_error("ACME newNonce: no Replay-Nonce header from " + url);
    }
    return std::exchange(nonce_, std::string());  // a nonce is good for one request
}

HttpReply AcmeSession::post(const std::string& what, const std::string& url,
                            const std::string& payload,
                            const std::vector<std::string>& extra_headers) {
    std::vector<std::string> headers = {"Content-Type: application/jose+json"};
    headers.insert(headers.end(), extra_headers.begin(), extra_headers.end());
    for (int attempt = 0;; ++attempt) {
        std::string body =
            jws_flattened(key_, acme_protected_header(key_, url, take_nonce(), kid_), payload);
        HttpReply r = http_.request(what, "POST", url, body, headers);
        keep_nonce(r);
        if (r.status < 400) return r;
        auto problem = nlohmann::json::parse(r.body, nullptr, false);
        bool bad_nonce = problem.is_object() && problem.value("type", "") == kBadNonce;
        if (bad_nonce && attempt < settings_.bad_nonce_retries) {
            counters_.bad_nonce_retries++;
            continue;  // the error carried a fresh Replay-Nonce, or the next take_nonce asks for
                       // one
        }
        throw std::runtime_error(prefix(what, r) + describe_problem(r.body));
    }
}

nlohmann::json AcmeSession::json_of(const std::string& what, const HttpReply& reply) {
    auto j = nlohmann::json::parse(reply.body, nullptr, false);
    if (!j.is_object())
        throw std::runtime_error(prefix(what, reply) + "the response is not a JSON object");
    return j;
}

nlohmann::json AcmeSession::poll(const std::string& what, const std::string& url,
                                 const std::vector<std::string>& waiting) {
    std::string status;
    for (int attempt = 1;; ++attempt) {
        HttpReply r = post(what, url, "");
        nlohmann::json j = json_of(what, r);
        status = j.value("status", "");
        if (std::find(waiting.begin(), waiting.end(), status) == waiting.end()) return j;
        if (attempt >= settings_.poll_attempts) break;
        std::chrono::milliseconds delay(settings_.poll_interval_ms);
        if (auto ra = retry_after(r))
            delay = std::max<std::chrono::milliseconds>(
                std::min<std::chrono::seconds>(*ra,
                                               std::chrono::seconds(settings_.max_retry_after_s)),
                std::chrono::milliseconds(100));
        if (!wait_(delay)) throw std::runtime_error("ACME " + what + ": cancelled");
    }
    throw std::runtime_error("ACME " + what + ": still \"" + status + "\" after " +
                             std::to_string(settings_.poll_attempts) + " polls of " + url);
}

std::optional<std::chrono::seconds> AcmeSession::retry_after(const HttpReply& reply) {
    std::string v = reply.header("retry-after");
    if (v.empty()) return std::nullopt;
    if (std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return v.size() > 9 ? std::chrono::seconds(1000000000) : std::chrono::seconds(std::stol(v));
    time_t at = curl_getdate(v.c_str(), nullptr);
    if (at < 0) return std::nullopt;
    return std::chrono::seconds(std::max<int64_t>(0, int64_t(at) - int64_t(std::time(nullptr))));
}

std::string AcmeSession::describe_problem(const std::string& body) {
    auto p = nlohmann::json::parse(body, nullptr, false);
    if (!p.is_object() || !p.contains("type")) {
        std::string start = body.substr(0, 200);
        std::replace(start.begin(), start.end(), '\n', ' ');
        return start.empty() ? "(empty body)" : start;
    }
    std::string out = p.value("type", "") + ": " + p.value("detail", "");
    auto subs = p.find("subproblems");
    if (subs != p.end() && subs->is_array() && !subs->empty()) {
        out += " (";
        for (size_t i = 0; i < subs->size(); ++i) {
            const auto& s = (*subs)[i];
            if (i) out += "; ";
            if (s.contains("identifier") && s["identifier"].is_object())
                out += s["identifier"].value("type", "") + " " +
                       s["identifier"].value("value", "") + ": ";
            out += s.value("type", "") + ": " + s.value("detail", "");
        }
        out += ")";
    }
    return out;
}

}  // namespace platform::host::acme
