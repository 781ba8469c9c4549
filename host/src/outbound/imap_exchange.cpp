#include "imap_exchange.hpp"

#include <curl/curl.h>

#include <memory>
#include <platform/sdk/text.hpp>
#include <sstream>

#include "hop_guard.hpp"

namespace platform::host::outbound {

namespace {

constexpr size_t kMaxCommands = 8, kMaxCommand = 1000;

struct Transcript {
    std::string text;
    uint64_t cap = 0;
    bool over = false;
};

// Every line the server sends reaches curl's header callback (its "pingpong" responses).
size_t on_line(char* data, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transcript*>(user);
    const size_t len = size * n;
    if (t->text.size() + len > t->cap) {
        t->over = true;
        return 0;
    }
    t->text.append(data, len);
    return len;
}

size_t discard(char*, size_t size, size_t n, void*) {
    return size * n;  // the untagged lines again, already in the transcript
}

// The URL with an explicit port, as http(s) so parse_url can check it.
std::string as_http(const std::string& url, bool& tls) {
    const size_t colon = url.find(':');
    tls = platform::lower(url.substr(0, colon)) == "imaps";
    std::string rest = url.substr(colon + 3);
    const size_t end = rest.find_first_of("/?#");
    const std::string authority = rest.substr(0, end);
    const bool has_port =
        authority.find(':', authority.rfind(']') == std::string::npos ? 0 : authority.rfind(']')) !=
        std::string::npos;
    if (!has_port) rest.insert(end == std::string::npos ? rest.size() : end, tls ? ":993" : ":143");
    return std::string(tls ? "https" : "http") + "://" + rest;
}

// The commands of `body`: 1-8 lines of 1-1000 printable characters.
std::optional<Reply> read_commands(const std::string& body, std::vector<std::string>& out) {
    std::istringstream in(body);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        for (unsigned char c : line)
            if (c < 0x20 || c == 0x7F)
                return failure(PLATFORM_INVALID_ARGUMENT,
                               "body: IMAP commands must not hold control characters");
        if (line.size() > kMaxCommand)
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "body: an IMAP command is at most 1000 characters");
        out.push_back(std::move(line));
    }
    if (out.empty() || out.size() > kMaxCommands)
        return failure(PLATFORM_INVALID_ARGUMENT,
                       "body: give 1 to 8 IMAP commands, one a line (such as EXAMINE INBOX)");
    return std::nullopt;
}

// user and password from "Authorization: Basic ..."; the only header an IMAP fetch takes.
std::optional<Reply> read_login(const Hop& hop, std::string& user, std::string& password) {
    for (const auto& [name, value] : hop.headers) {
        if (platform::lower(name) != "authorization")
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "headers: an imap fetch takes only Authorization (Basic)");
        auto decoded =
            value.rfind("Basic ", 0) == 0 ? platform::base64_decode(value.substr(6)) : std::nullopt;
        const size_t colon = decoded ? decoded->find(':') : std::string::npos;
        if (colon == std::string::npos)
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "headers: Authorization must be Basic base64(user:password)");
        user = decoded->substr(0, colon);
        password = decoded->substr(colon + 1);
    }
    if (user.empty())
        return failure(PLATFORM_INVALID_ARGUMENT,
                       "headers: an imap fetch needs Authorization: Basic base64(user:password)");
    return std::nullopt;
}

// The server's last tagged NO or BAD line, without its CRLF (curl logs out after a failure, so
// the very last line is the logout's OK); the last line when there is none.
std::string refusal(const std::string& t) {
    std::string last;
    std::istringstream in(t);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '*' || line[0] == '+') continue;
        const size_t sp = line.find(' ');
        const std::string word = sp == std::string::npos ? "" : line.substr(sp + 1, 4);
        if (word.rfind("NO ", 0) == 0 || word.rfind("BAD ", 0) == 0 || word == "NO" ||
            word == "BAD")
            last = line;
    }
    if (!last.empty()) return last;
    std::string s = t;
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    return s.substr(s.rfind('\n') == std::string::npos ? 0 : s.rfind('\n') + 1);
}

Reply answered(int32_t http, Transcript& t, std::string error, const std::string& url) {
    Reply r;
    r.http = http;
    r.body = std::move(t.text);
    r.error = std::move(error);
    r.final_url = url;
    return r;
}

}  // namespace

bool is_imap_url(const std::string& url) {
    const std::string l = platform::lower(url.substr(0, 8));
    return l.rfind("imap://", 0) == 0 || l.rfind("imaps://", 0) == 0;
}

Reply imap_exchange(const platform_http_request_t& req, const Hop& hop, const Limits& limits,
                    const OutboundSettings& s) {
    bool tls = false, denied = false;
    std::string error;
    auto u = parse_url(as_http(text(req.url), tls), &error, &denied);
    if (!u) return failure(denied ? PLATFORM_PERMISSION_DENIED : PLATFORM_INVALID_ARGUMENT, error);
    const std::string url = std::string(tls ? "imaps://" : "imap://") + u->host_for_url() + ":" +
                            std::to_string(u->port) + u->target;
    std::vector<std::string> commands;
    std::string user, password;
    if (auto bad = read_commands(hop.body, commands)) return *bad;
    if (auto bad = read_login(hop, user, password)) return *bad;
    const Decision d = decide(*u, (req.flags & PLATFORM_HTTP_OPERATOR_URL) != 0, s);
    if (d.status != PLATFORM_OK) return failure(d.status, d.error, url);

    std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
    if (!h) return failure(PLATFORM_INTERNAL, "could not create an IMAP client handle");
    CURL* c = h.get();
    Transcript t;
    t.cap = limits.max_response_bytes;
    char errbuf[CURL_ERROR_SIZE] = {0};
    curl_slist* resolve = nullptr;
    if (!d.pins.empty()) {
        std::string all;
        for (const auto& p : d.pins) all += (all.empty() ? "" : ",") + p;
        resolve = curl_slist_append(nullptr,
                                    (u->host + ":" + std::to_string(u->port) + ":" + all).c_str());
        curl_easy_setopt(c, CURLOPT_RESOLVE, resolve);
    }
    std::unique_ptr<curl_slist, void (*)(curl_slist*)> owned(resolve, curl_slist_free_all);
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "imap,imaps");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, CURLPROTO_IMAP | CURLPROTO_IMAPS);
#endif
    curl_easy_setopt(c, CURLOPT_USERNAME, user.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, password.c_str());
    if (!tls) curl_easy_setopt(c, CURLOPT_USE_SSL, long(CURLUSESSL_TRY));
    curl_easy_setopt(c, CURLOPT_PROXY, "");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_line);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    for (size_t i = 0; i < commands.size(); ++i) {
        const long left = long(
            std::chrono::duration_cast<std::chrono::milliseconds>(limits.deadline - Clock::now())
                .count());
        if (left <= 0)
            return failure(PLATFORM_TIMEOUT,
                           "no complete IMAP answer from " + u->host_for_url() + " within " +
                               std::to_string(limits.timeout_ms) + " ms (timeout_ms)",
                           url);
        curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, left);
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, commands[i].c_str());
        errbuf[0] = 0;
        const CURLcode rc = curl_easy_perform(c);
        long connects = 0;
        curl_easy_getinfo(c, CURLINFO_NUM_CONNECTS, &connects);
        if (rc == CURLE_OK && i > 0 && connects > 0)
            return failure(
                PLATFORM_BAD_GATEWAY,
                "the IMAP connection to " + u->host_for_url() + " was not kept between commands",
                url);
        if (rc == CURLE_OK) continue;
        if (t.over)
            return failure(PLATFORM_PAYLOAD_TOO_LARGE,
                           "IMAP answer larger than " + std::to_string(limits.max_response_bytes) +
                               " bytes (max_response_bytes)",
                           url);
        if (rc == CURLE_OPERATION_TIMEDOUT)
            return failure(PLATFORM_TIMEOUT,
                           "no complete IMAP answer from " + u->host_for_url() + " within " +
                               std::to_string(limits.timeout_ms) + " ms (timeout_ms)",
                           url);
        if (rc == CURLE_LOGIN_DENIED)
            return answered(401, t, "the IMAP server refused the login: " + refusal(t.text), url);
        if (rc == CURLE_QUOTE_ERROR)
            return answered(
                502, t, "the IMAP server refused '" + commands[i] + "': " + refusal(t.text), url);
        return failure(PLATFORM_BAD_GATEWAY,
                       "IMAP " + url + ": " + (errbuf[0] ? errbuf : curl_easy_strerror(rc)), url);
    }
    return answered(200, t, "", url);
}

}  // namespace platform::host::outbound
