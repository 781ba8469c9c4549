// broker-nats — connection, subjects, publish, subscribe and unsubscribe.
#include "broker.hpp"

#include <chrono>
#include <cstdlib>
#include <platform/sdk/error.hpp>

namespace broker_nats {

namespace {

constexpr const char* kName = "broker-nats";
constexpr const char* kHeader = "Platform-Headers";

// The subscription whose callback this thread is running, if any (see unsubscribe).
thread_local const Subscription* tl_running = nullptr;

// The closure handed to cnats: owns a reference until on_complete. Carries the broker for it.
struct Closure {
    SubscriptionPtr sub;
    NatsBroker* broker;
};

std::string setting(const platform::json& config, const char* key, std::string fallback) {
    auto it = config.find(key);
    if (it == config.end() || it->is_null()) return fallback;
    if (!it->is_string())
        throw std::runtime_error(std::string(kName) + ": config `" + key + "` must be a string");
    // Empty is the default: a profile's "${PLATFORM_NATS_URL}" with the variable unset.
    return it->get<std::string>().empty() ? fallback : it->get<std::string>();
}

bool plain_token_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

// Dot-separated, non-empty tokens of [A-Za-z0-9_-]: a literal NATS subject as it is.
bool readable(std::string_view topic) {
    if (topic.empty() || topic.front() == '.' || topic.back() == '.') return false;
    char prev = 0;
    for (char c : topic) {
        if (c == '.' ? prev == '.' : !plain_token_char(c)) return false;
        prev = c;
    }
    return true;
}

[[noreturn]] void fail(const char* op, natsStatus s) {
    std::string msg = std::string(kName) + ": " + op + " failed: " + natsStatus_GetText(s);
    if (s == NATS_MAX_PAYLOAD) throw platform::Error(platform::Code::payload_too_large, msg);
    if (s == NATS_INVALID_ARG || s == NATS_INVALID_SUBJECT) throw platform::invalid_argument(msg);
    throw platform::unavailable(msg);  // closed, reconnect buffer full, I/O
}

}  // namespace

NatsBroker::NatsBroker(const platform::Host& host, const platform::json& config) : host_(host) {
    const char* env = std::getenv("PLATFORM_NATS_URL");
    url_ = setting(config, "url",
                   env && *env ? std::string(env) : std::string("nats://127.0.0.1:4222"));
    subject_prefix_ = setting(config, "subject_prefix", "platform.broker");
    if (auto it = config.find("timeout_ms"); it != config.end()) {
        if (!it->is_number_integer() || it->get<int64_t>() < 1)
            throw std::runtime_error("broker-nats: config `timeout_ms` must be a positive integer");
        timeout_ms_ = it->get<int64_t>();
    }
    natsOptions* opts = nullptr;
    natsStatus s = natsOptions_Create(&opts);
    if (s == NATS_OK) s = natsOptions_SetURL(opts, url_.c_str());
    if (s == NATS_OK) s = natsOptions_SetName(opts, kName);
    if (s == NATS_OK) s = natsOptions_SetTimeout(opts, timeout_ms_);
    if (s == NATS_OK) s = natsOptions_SetMaxReconnect(opts, -1);  // forever, once connected
    if (s == NATS_OK) s = natsOptions_UseGlobalMessageDelivery(opts, true);
    if (s == NATS_OK) s = natsConnection_Connect(&nc_, opts);
    natsOptions_Destroy(opts);
    if (s != NATS_OK)
        throw std::runtime_error(std::string(kName) + ": cannot connect to '" + url_ +
                                 "': " + natsStatus_GetText(s));
    host_.info(std::string(kName) + ": connected to '" + url_ + "'");
}

NatsBroker::~NatsBroker() {
    std::unordered_map<uint64_t, SubscriptionPtr> subs;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        subs.swap(subs_);
    }
    for (auto& [id, s] : subs) close_subscription(s);
    natsConnection_Close(nc_);
    // Every cnats closure must be released before this object (and the plugin) goes. Not from a
    // callback of ours: that callback's own release comes after it returns.
    if (!tl_running) {
        std::unique_lock<std::mutex> lock(mutex_);
        released_.wait_for(lock, std::chrono::seconds(10), [&] { return closures_ == 0; });
    }
    natsConnection_Destroy(nc_);
}

std::string NatsBroker::subject_of(std::string_view topic) const {
    if (readable(topic)) return subject_prefix_ + ".t." + std::string(topic);
    static const char* digits = "0123456789abcdef";
    std::string out = subject_prefix_ + ".x.";
    for (unsigned char c : topic) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 15]);
    }
    return out;
}

void NatsBroker::publish(std::string_view topic, std::string_view body, std::string_view headers) {
    if (topic.empty()) throw platform::invalid_argument("topic: must not be empty");
    std::string header;
    if (!headers.empty() && headers != "{}") {
        header = headers;
        if (header.find_first_of("\r\n") != std::string::npos) {  // a header value is one line
            auto parsed = platform::json::parse(header, nullptr, false);
            if (parsed.is_discarded() || !parsed.is_object())
                throw platform::invalid_argument("headers_json: must be a JSON object");
            header = parsed.dump();
        }
    }
    const std::string subject = subject_of(topic);
    natsMsg* m = nullptr;
    natsStatus s = natsMsg_Create(&m, subject.c_str(), nullptr, body.empty() ? "" : body.data(),
                                  static_cast<int>(body.size()));
    if (s == NATS_OK && !header.empty()) s = natsMsgHeader_Set(m, kHeader, header.c_str());
    if (s == NATS_OK) s = natsConnection_PublishMsg(nc_, m);
    natsMsg_Destroy(m);
    if (s != NATS_OK) fail("publish", s);
}

uint64_t NatsBroker::subscribe(std::string_view topic, std::string_view queue,
                               platform_message_fn fn, void* user) {
    if (topic.empty()) throw platform::invalid_argument("topic: must not be empty");
    if (!fn) throw platform::invalid_argument("fn: must not be NULL");
    if (queue.find_first_of(" \t\r\n") != std::string_view::npos)
        throw platform::invalid_argument("queue: must not contain white space");
    auto s = std::make_shared<Subscription>();
    s->id = next_id_.fetch_add(1);
    s->topic = topic;
    s->queue = queue;
    s->fn = fn;
    s->user = user;
    const std::string subject = subject_of(topic);
    auto* closure = new Closure{s, this};
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++closures_;
    }
    natsStatus st =
        s->queue.empty()
            ? natsConnection_Subscribe(&s->sub, nc_, subject.c_str(), &on_message, closure)
            : natsConnection_QueueSubscribe(&s->sub, nc_, subject.c_str(), s->queue.c_str(),
                                            &on_message, closure);
    if (st == NATS_OK) st = natsSubscription_SetOnCompleteCB(s->sub, &on_complete, closure);
    // A round trip: once subscribe returns, the server has the interest, so a message published
    // afterwards by any process reaches this subscription.
    if (st == NATS_OK) st = natsConnection_FlushTimeout(nc_, timeout_ms_);
    if (st != NATS_OK) {
        if (s->sub) {
            // Subscribed but without the on-complete hook: keep the closure (never released).
            natsSubscription_Unsubscribe(s->sub);
            natsSubscription_Destroy(s->sub);
        } else {
            delete closure;
        }
        std::lock_guard<std::mutex> lock(mutex_);
        --closures_;
        fail("subscribe", st);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    subs_.emplace(s->id, s);
    return s->id;
}

bool NatsBroker::unsubscribe(uint64_t id) {
    SubscriptionPtr s;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = subs_.find(id);
        if (it == subs_.end()) return false;
        s = std::move(it->second);
        subs_.erase(it);
    }
    close_subscription(s);
    return true;
}

void NatsBroker::close_subscription(const SubscriptionPtr& s) {
    natsSubscription_Unsubscribe(s->sub);  // cnats then releases the closure (on_complete)
    if (tl_running == s.get()) {
        s->active = false;  // called from its own callback: this thread already holds `running`
    } else {
        std::lock_guard<std::mutex> wait_for_callback(s->running);
        s->active = false;
    }
    natsSubscription_Destroy(s->sub);  // our reference; cnats keeps its own until complete
    s->sub = nullptr;
}

void NatsBroker::on_message(natsConnection*, natsSubscription*, natsMsg* msg, void* closure) {
    Subscription& s = *static_cast<Closure*>(closure)->sub;
    NatsBroker* self = static_cast<Closure*>(closure)->broker;
    {
        std::lock_guard<std::mutex> lock(s.running);
        if (s.active) {
            const char* header = nullptr;
            std::string_view headers = "{}";
            if (natsMsgHeader_Get(msg, kHeader, &header) == NATS_OK && header) headers = header;
            const char* data = natsMsg_GetData(msg);
            std::string_view body(data ? data : "",
                                  static_cast<size_t>(natsMsg_GetDataLength(msg)));
            tl_running = &s;
            try {
                s.fn(s.user, platform::view(s.topic), platform::view(body),
                     platform::view(headers));
            } catch (...) {
                self->host_.error("broker-nats: a subscriber callback threw on topic '" + s.topic +
                                  "'");
            }
            tl_running = nullptr;
        }
    }
    natsMsg_Destroy(msg);
}

void NatsBroker::on_complete(void* closure) {
    auto* c = static_cast<Closure*>(closure);
    NatsBroker* self = c->broker;
    delete c;
    std::lock_guard<std::mutex> lock(self->mutex_);  // notify under the lock: ~NatsBroker waits
    --self->closures_;
    self->released_.notify_all();
}

}  // namespace broker_nats
