// notify — send: the notification as JSON {title, body, url}, encrypted for each device of the
// caller (RFC 8291) and POSTed to its push service with a VAPID JWT (RFC 8292), then published on
// the caller's live topic for open web sessions.
//
// A push service's 201 (or any 2xx) is delivered; 404 or 410 mean the subscription is gone and
// the device is removed; any other status, or a request the host refused or could not make, is
// a failure reported for that device (and kept as its last_error). One device's failure never
// stops the others.
#include <algorithm>

#include "notify.hpp"
#include "subscription.hpp"
#include "web_push.hpp"

using platform::json;

namespace {

constexpr const char* kDefaultSubject = "mailto:postmaster@localhost";
constexpr int32_t kTimeoutMs = 10000;
constexpr int64_t kDefaultTtlSeconds = 24 * 3600;

// The short reason of a failed delivery: the push service's status and the start of its answer.
std::string reason(const platform::HttpResponse& resp) {
    std::string text = platform::utf8_prefix(platform::first_line(resp.body), 200);
    return "push service answered " + std::to_string(resp.status) +
           (text.empty() ? std::string() : ": " + text);
}

}  // namespace

json Notify::send(platform::Request& r) {
    const std::string title = r.str("title"), body = r.str("body"), link = r.str("url");
    if (platform::utf8_length(title) == 0) throw platform::invalid_argument("title: is required");
    if (!link.empty()) notify::web_url("url", link, kMaxUrl);
    json message = {{"title", title}, {"body", body}};
    if (!link.empty()) message["url"] = link;
    const std::string payload = message.dump(-1, ' ', false, json::error_handler_t::replace);
    if (payload.size() > notify::kMaxPlaintext)
        throw platform::invalid_argument("title, body, url: together at most " +
                                         std::to_string(notify::kMaxPlaintext) +
                                         " bytes as JSON (one Web Push message)");

    auto devices = r.owned(kCollection);
    const auto list = devices.list();
    const std::vector<std::string> trusted = trusted_endpoints();
    const std::string subject = [&] {
        const json s = host_.config("subject");
        return s.is_string() && !s.get<std::string>().empty() ? s.get<std::string>()
                                                              : std::string(kDefaultSubject);
    }();
    const json ttl_setting = host_.config("ttl_seconds");
    const int64_t ttl = ttl_setting.is_number_integer() && ttl_setting.get<int64_t>() >= 0
                            ? ttl_setting.get<int64_t>()
                            : kDefaultTtlSeconds;
    const notify::Vapid* key = list.empty() ? nullptr : &vapid();

    int sent = 0, failed = 0;
    json results = json::array();
    for (auto [id, device] : list) {
        json result = {{"id", id}, {"name", device.value("name", "")}};
        std::string error;
        bool gone = false;
        try {
            const json sub = json::parse(open(device.value("sealed", "")));
            const std::string endpoint = sub.at("endpoint").get<std::string>();
            const notify::WebUrl url = notify::web_url("endpoint", endpoint, 2000);
            const auto p256dh = platform::base64url_decode(sub.at("p256dh").get<std::string>());
            const auto auth = platform::base64url_decode(sub.at("auth").get<std::string>());
            if (!p256dh || !auth) throw platform::internal("the stored keys do not decode");
            platform::HttpRequest req;
            req.method = "POST";
            req.url = endpoint;
            req.body = notify::encrypt(payload, *p256dh, *auth);
            req.headers = {
                {"Authorization", key->authorization(url.origin, host_.now_ms(), subject)},
                {"TTL", std::to_string(ttl)},
                {"Urgency", "normal"},
                {"Content-Encoding", "aes128gcm"},
                {"Content-Type", "application/octet-stream"}};
            req.timeout_ms = kTimeoutMs;
            req.max_bytes = 64 * 1024;
            req.follow_redirects = false;
            req.operator_url =
                std::find(trusted.begin(), trusted.end(), url.host_port) != trusted.end();
            const platform::HttpResponse resp = host_.fetch(req);
            result["http_status"] = resp.status;
            if (resp.status >= 200 && resp.status < 300) {
                // delivered
            } else if (resp.status == 404 || resp.status == 410) {
                gone = true;
            } else {
                error = reason(resp);
            }
        } catch (const std::exception& e) {
            error = e.what();
        }
        const std::string now = platform::rfc3339(host_.now_ms());
        if (gone) {
            devices.erase(id);
            result["status"] = "gone";
            result["error"] = "the push service no longer knows this subscription; device removed";
            ++failed;
        } else if (error.empty()) {
            device["last_success"] = now;
            devices.put(id, device);
            result["status"] = "delivered";
            ++sent;
        } else {
            device["last_failure"] = now;
            device["last_error"] = error;
            devices.put(id, device);
            result["status"] = "failed";
            result["error"] = error;
            ++failed;
        }
        results.push_back(std::move(result));
    }

    json live = {
        {"title", title}, {"body", body}, {"url", link}, {"at", platform::rfc3339(host_.now_ms())}};
    bool published = false;
    try {
        host_.publish_event(live_topic(r.account()), live.dump());
        published = true;
    } catch (const std::exception& e) {
        host_.warn(std::string("notify: not published for live sessions: ") + e.what());
    }
    json out = {{"sent", sent}, {"failed", failed}, {"devices", results}, {"live", published}};
    if (list.empty()) out["note"] = "no device registered: subscribe one with notify/subscribe";
    return out;
}
