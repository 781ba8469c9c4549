#include "notify.hpp"

#include "subscription.hpp"
#include "web_push.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

std::string hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) out += {digits[c >> 4], digits[c & 15]};
    return out;
}

}  // namespace

void Notify::describe(platform::ServiceSpec<Notify>& s) {
    s.id("notify")
        .version("1.0.0")
        .service("v1.notify")
        .summary("Web Push notifications to the caller's own devices");
    s.get("devices")
        .title("List notification devices")
        .description(
            "Whether the account can be notified and where: its subscribed browsers (id, name, "
            "push service, created, last success and failure), and the VAPID public key a "
            "browser subscribes with (applicationServerKey).")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Notify::devices);
    s.post("subscribe")
        .title("Register a browser for notifications")
        .description(
            "Registers a browser's PushSubscription (PushSubscription.toJSON(): endpoint and "
            "keys) made with the VAPID public key of notify/devices. The same endpoint again "
            "replaces its device. At most 20 devices per account.")
        .schema(schema::object()
                    .object("subscription",
                            schema::object()
                                .str("endpoint")
                                .max_len(2000)
                                .required()
                                .doc("The push service URL (https)")
                                .prop("expirationTime", schema::types({"number", "null"}))
                                .object("keys", schema::object()
                                                    .str("p256dh")
                                                    .max_len(100)
                                                    .required()
                                                    .doc("The browser's P-256 key, base64url")
                                                    .str("auth")
                                                    .max_len(40)
                                                    .required()
                                                    .doc("The 16-byte auth secret, base64url"))
                                .required())
                    .required()
                    .doc("The browser's PushSubscription")
                    .str("name")
                    .min_len(1)
                    .max_len(kMaxName)
                    .doc("What to call this device (default: browser)"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Notify::subscribe);
    s.post("unsubscribe")
        .title("Forget a notification device")
        .description("Forgets the device with this id; 404 when the caller has none.")
        .schema(schema::id_object("The device's id (from notify/devices)"))
        .access(platform::Access::owner)
        .destructive()
        .idempotent()
        .handler(&Notify::unsubscribe);
    s.post("send")
        .title("Notify my devices")
        .description(
            "Sends a notification (title, body, url) to every device of the caller and to the "
            "caller's live web sessions. Answers {sent, failed, devices: [{id, name, status}]}; "
            "a device whose push service says the subscription is gone (404, 410) is removed.")
        .schema(schema::object()
                    .str("title")
                    .min_len(1)
                    .max_len(kMaxTitle)
                    .required()
                    .doc("A short title, 1-100 characters")
                    .str("body")
                    .max_len(kMaxBody)
                    .doc("The text, at most 300 characters")
                    .str("url")
                    .max_len(kMaxUrl)
                    .doc("Where a tap goes: an http(s) URL"))
        .access(platform::Access::owner)
        .action()
        .handler(&Notify::send);
}

const notify::Vapid& Notify::vapid() {
    std::lock_guard<std::mutex> g(vapid_m_);
    if (!vapid_.loaded()) vapid_.load(host_);
    return vapid_;
}

const platform_secrets_api_t& Notify::secrets() const {
    auto* s = host_.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!s)
        throw platform::unavailable(
            "notify: sealing subscriptions needs the host's \"secrets\" sub-table: list notify "
            "under privileged: in the profile");
    return *s;
}

std::string Notify::seal(const std::string& plain) const {
    std::string out;
    platform::check(secrets().seal(host_.ctx(), platform::view(plain), platform::append_sink, &out),
                    "notify: sealing the subscription failed");
    return out;
}

std::string Notify::open(const std::string& sealed) const {
    std::string out;
    platform::check(
        secrets().open(host_.ctx(), platform::view(sealed), platform::append_sink, &out),
        "notify: the stored subscription cannot be opened (was the host's secret key changed?)");
    return out;
}

std::vector<std::string> Notify::trusted_endpoints() const {
    std::vector<std::string> out;
    const json list = host_.config("trusted_endpoints");
    if (list.is_array())
        for (const auto& e : list)
            if (e.is_string()) out.push_back(platform::lower(e.get<std::string>()));
    return out;
}

json Notify::shown(const json& device) {
    json out = json::object();
    for (const char* k :
         {"id", "name", "service", "created", "last_success", "last_failure", "last_error"})
        out[k] = device.value(k, json());
    return out;
}

json Notify::devices(platform::Request& r) {
    json list = json::array();
    for (auto& [id, device] : r.owned(kCollection).list()) list.push_back(shown(device));
    return {{"notifiable", !list.empty()},
            {"devices", list},
            {"vapid_public_key", vapid().public_key()}};
}

json Notify::subscribe(platform::Request& r) {
    const json& sub = r.args().at("subscription");
    const std::string endpoint = sub.value("endpoint", "");
    const notify::WebUrl url = notify::push_endpoint(endpoint, trusted_endpoints());
    const json keys = sub.value("keys", json::object());
    const std::string p256dh =
        notify::key_bytes("subscription.keys.p256dh", keys.value("p256dh", ""), 65);
    if (!notify::is_p256_point(p256dh))
        throw platform::invalid_argument(
            "subscription.keys.p256dh: must be an uncompressed P-256 point (65 bytes, 0x04 first)");
    const std::string auth =
        notify::key_bytes("subscription.keys.auth", keys.value("auth", ""), 16);
    vapid();  // the key the browser subscribed with must exist before it is used

    auto devices = r.owned(kCollection);
    const std::string hash = hex(notify::hmac_sha256("notify endpoint", endpoint));
    const auto existing = devices.list();
    json device;
    for (const auto& [id, d] : existing)
        if (d.value("endpoint_hash", "") == hash) device = d;
    if (device.is_null() && existing.size() >= kMaxDevices)
        throw platform::conflict("subscription: at most " + std::to_string(kMaxDevices) +
                                 " devices per account; unsubscribe one first");
    const std::string now = platform::rfc3339(host_.now_ms());
    if (device.is_null())
        device = {{"id", "dev-" + platform::random_hex(8)},
                  {"created", now},
                  {"last_success", nullptr},
                  {"last_failure", nullptr},
                  {"last_error", nullptr}};
    device["name"] = r.str("name", "browser");
    device["service"] = url.host;
    device["endpoint_hash"] = hash;
    device["sealed"] = seal(json{{"endpoint", endpoint},
                                 {"p256dh", platform::base64url_encode(p256dh)},
                                 {"auth", platform::base64url_encode(auth)}}
                                .dump());
    devices.put(device["id"].get<std::string>(), device);
    return shown(device);
}

json Notify::unsubscribe(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kCollection).erase(id)) throw platform::not_found("id: no device '" + id + "'");
    return {{"deleted", id}};
}

PLATFORM_SERVICE(Notify)
