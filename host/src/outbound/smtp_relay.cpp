#include "smtp_relay.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <platform/sdk/text.hpp>
#include <vector>

namespace platform::host::outbound {

namespace {

constexpr size_t kMaxRecipients = 50;

struct Relay {
    std::string url, user, password;  // url without credentials
    bool loopback = false;
};

std::string url_part(CURLU* u, CURLUPart part, unsigned flags = 0) {
    char* out = nullptr;
    if (curl_url_get(u, part, &out, flags) != CURLUE_OK || !out) return "";
    std::string s = out;
    curl_free(out);
    return s;
}

std::optional<Relay> parse_relay(const std::string& setting) {
    std::unique_ptr<CURLU, void (*)(CURLU*)> u(curl_url(), curl_url_cleanup);
    if (!u || curl_url_set(u.get(), CURLUPART_URL, setting.c_str(), CURLU_NON_SUPPORT_SCHEME) !=
                  CURLUE_OK)
        return std::nullopt;
    Relay r;
    const std::string scheme = platform::lower(url_part(u.get(), CURLUPART_SCHEME));
    std::string host = url_part(u.get(), CURLUPART_HOST), port = url_part(u.get(), CURLUPART_PORT);
    if ((scheme != "smtp" && scheme != "smtps") || host.empty()) return std::nullopt;
    r.user = url_part(u.get(), CURLUPART_USER, CURLU_URLDECODE);
    r.password = url_part(u.get(), CURLUPART_PASSWORD, CURLU_URLDECODE);
    r.url = scheme + "://" + host + (port.empty() ? "" : ":" + port);
    const std::string bare = host.front() == '[' ? host.substr(1, host.size() - 2) : host;
    r.loopback =
        platform::lower(bare) == "localhost" || bare == "::1" || bare.rfind("127.", 0) == 0;
    return r;
}

bool valid_address(const std::string& a) {
    if (a.size() < 3 || a.size() > 254 || a.find('@') == std::string::npos ||
        a.find('@') != a.rfind('@') || a.front() == '@' || a.back() == '@')
        return false;
    for (unsigned char c : a)
        if (c <= 0x20 || c >= 0x7F || c == '<' || c == '>' || c == ',' || c == '"') return false;
    return true;
}

// The envelope from the hop's headers (names compared case-insensitively).
std::optional<Reply> read_envelope(const Hop& hop, std::string& from,
                                   std::vector<std::string>& to) {
    for (const auto& [name, value] : hop.headers) {
        const std::string n = platform::lower(name);
        if (n == "mail-from") {
            from = trim(value);
        } else if (n == "rcpt-to") {
            for (size_t i = 0; i <= value.size();) {
                size_t comma = value.find(',', i);
                if (comma == std::string::npos) comma = value.size();
                const std::string a = trim(value.substr(i, comma - i));
                if (!a.empty()) to.push_back(a);
                i = comma + 1;
            }
        }
    }
    if (!valid_address(from))
        return failure(PLATFORM_INVALID_ARGUMENT,
                       "headers: 'Mail-From' must be one mail address (local@domain)");
    if (to.empty() || to.size() > kMaxRecipients)
        return failure(PLATFORM_INVALID_ARGUMENT,
                       "headers: 'Rcpt-To' must hold 1 to 50 mail addresses, comma-separated");
    for (const auto& a : to)
        if (!valid_address(a))
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "headers: 'Rcpt-To' holds '" + a + "', which is not a mail address");
    if (hop.body.empty()) return failure(PLATFORM_INVALID_ARGUMENT, "body: the message is empty");
    return std::nullopt;
}

struct Upload {
    const std::string& data;
    size_t at = 0;
    std::string reply;    // the reply being read
    std::string last;     // the last complete reply but QUIT's (221)
    std::string refusal;  // the last 4xx or 5xx reply
};

size_t on_read(char* buf, size_t size, size_t n, void* user) {
    auto* u = static_cast<Upload*>(user);
    const size_t len = std::min(size * n, u->data.size() - u->at);
    std::copy_n(u->data.data() + u->at, len, buf);
    u->at += len;
    return len;
}

// Server replies arrive here line by line ("250-..." continues, "250 ..." ends one).
size_t on_reply(char* data, size_t size, size_t n, void* user) {
    auto* u = static_cast<Upload*>(user);
    const std::string line = trim(std::string(data, size * n));
    u->reply += (u->reply.empty() ? "" : " ") + line;
    if (line.size() < 4 || line[3] != '-') {
        if (u->reply[0] == '4' || u->reply[0] == '5') u->refusal = u->reply;
        if (u->reply.rfind("221", 0) != 0) u->last = u->reply;
        u->reply.clear();
    }
    return size * n;
}

struct Slist {
    curl_slist* list = nullptr;
    ~Slist() { curl_slist_free_all(list); }
};

Reply answered(int32_t http, std::string body) {
    Reply r;
    r.http = http;
    r.headers = "{\"content-type\":\"text/plain\"}";
    r.body = std::move(body);
    return r;
}

}  // namespace

Reply relay_mail(const std::string& relay_url, const std::string& ehlo, const Hop& hop,
                 int32_t timeout_ms) {
    if (relay_url.empty())
        return answered(503,
                        "PLATFORM_SMTP_RELAY is not set: this host has no outbound SMTP relay");
    std::string from;
    std::vector<std::string> to;
    if (auto refused = read_envelope(hop, from, to)) return *refused;
    const auto relay = parse_relay(relay_url);
    if (!relay)
        return failure(PLATFORM_UNAVAILABLE, "PLATFORM_SMTP_RELAY is not a usable smtp[s]:// URL");
    std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
    if (!h) return failure(PLATFORM_INTERNAL, "could not create an SMTP client handle");
    CURL* c = h.get();
    Slist rcpt;
    for (const auto& a : to) rcpt.list = curl_slist_append(rcpt.list, ("<" + a + ">").c_str());
    const std::string mail_from = "<" + from + ">";
    Upload up{hop.body, 0, {}, {}, {}};
    char errbuf[CURL_ERROR_SIZE] = {0};
    const std::string url = relay->url + "/" + ehlo;  // the path is the EHLO name
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, CURLPROTO_SMTP | CURLPROTO_SMTPS);
#endif
    curl_easy_setopt(c, CURLOPT_USE_SSL, relay->loopback ? CURLUSESSL_TRY : CURLUSESSL_ALL);
    if (!relay->user.empty()) {
        curl_easy_setopt(c, CURLOPT_USERNAME, relay->user.c_str());
        curl_easy_setopt(c, CURLOPT_PASSWORD, relay->password.c_str());
    }
    curl_easy_setopt(c, CURLOPT_PROXY, "");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
    curl_easy_setopt(c, CURLOPT_MAIL_FROM, mail_from.c_str());
    curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt.list);
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
    curl_easy_setopt(c, CURLOPT_READDATA, &up);
    curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(hop.body.size()));
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_reply);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &up);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    const CURLcode rc = curl_easy_perform(c);
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    if (rc == CURLE_OK) return answered(200, up.last.empty() ? std::to_string(code) : up.last);
    if (!up.refusal.empty()) return answered(502, up.refusal);
    if (code >= 400) return answered(502, std::to_string(code));
    if (rc == CURLE_OPERATION_TIMEDOUT)
        return failure(PLATFORM_TIMEOUT, "the SMTP relay " + relay->url +
                                             " did not answer within " +
                                             std::to_string(timeout_ms) + " ms");
    return failure(PLATFORM_BAD_GATEWAY, "the SMTP relay " + relay->url + ": " +
                                             (errbuf[0] ? errbuf : curl_easy_strerror(rc)));
}

}  // namespace platform::host::outbound
