#include <algorithm>
#include <platform/host/acme/http_challenges.hpp>

namespace platform::host {
namespace {

bool token_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

}  // namespace

void HttpChallenges::put(const std::string& token, const std::string& key_authorization) {
    std::lock_guard<std::mutex> lock(mu_);
    answers_[token] = key_authorization;
}

void HttpChallenges::erase(const std::string& token) {
    std::lock_guard<std::mutex> lock(mu_);
    answers_.erase(token);
}

std::optional<std::string> HttpChallenges::find(const std::string& token) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = answers_.find(token);
    if (it == answers_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string> HttpChallenges::answer(const std::string& path) const {
    static const std::string prefix = kPrefix;
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0)
        return std::nullopt;
    std::string token = path.substr(prefix.size());
    // Tokens are base64url (RFC 8555 §8.3): anything else (a '/', '%', '?') is not ours.
    if (!std::all_of(token.begin(), token.end(), token_char)) return std::nullopt;
    return find(token);
}

size_t HttpChallenges::size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return answers_.size();
}

}  // namespace platform::host
