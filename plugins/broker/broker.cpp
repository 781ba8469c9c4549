// broker — the platform's broker service, after micro's (README.md): publish a message on a topic,
// or subscribe and receive messages as a stream. Fire-and-forget through the profile's broker
// provider (host table broker_*): no persistence, no ordering guarantee.
#include <strings.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <platform/sdk.hpp>
#include <set>

namespace schema = platform::schema;

using platform::json;

namespace {

constexpr size_t kMaxPending = 1000;  // messages queued for one slow subscriber; later ones dropped

schema::Value topic_arg() {
    return schema::string().min_len(1).max_len(200).pattern("^\\S+$").doc(
        "Topic name (1-200 characters, no spaces)");
}

struct Message {
    std::string topic, body, headers;
};

// One subscribe call: the broker's callback queues messages, the handler thread streams them.
struct Subscription {
    std::mutex m;
    std::condition_variable cv;
    std::deque<Message> queue;
    uint64_t dropped = 0;
    bool stop = false;
};

void on_message(void* user, platform_str_t topic, platform_str_t body, platform_str_t headers) {
    auto* s = static_cast<Subscription*>(user);
    {
        std::lock_guard<std::mutex> g(s->m);
        if (s->queue.size() >= kMaxPending) {
            ++s->dropped;
            return;
        }
        s->queue.push_back({platform::copy(topic), platform::copy(body), platform::copy(headers)});
    }
    s->cv.notify_one();
}

// Sets headers[name] = value unless a header of that name (any case) is there already.
void set_default(json& headers, const std::string& name, const std::string& value) {
    if (value.empty()) return;
    for (auto& [k, v] : headers.items())
        if (strcasecmp(k.c_str(), name.c_str()) == 0) return;
    headers[name] = value;
}

}  // namespace

class Broker {
public:
    static void describe(platform::ServiceSpec<Broker>& s) {
        s.id("broker").version("1.0.0").service("broker").summary(
            "Fire-and-forget publish/subscribe on topics");
        s.post("publish")
            .title("Publish a message")
            .description(
                "Sends a message to every current subscriber of the topic (one member per queue "
                "group). "
                "The call's metadata (Content-Type, X-Request-Id, Platform-Namespace) is copied "
                "into the "
                "message headers not already given, and Platform-Account names the publisher. "
                "Nothing is "
                "kept: a message with no subscriber is dropped.")
            .schema(schema::object()
                        .prop("topic", topic_arg())
                        .required()
                        .str("body")
                        .max_len(1048576)
                        .required()
                        .doc("The message body")
                        .prop("headers", schema::map_of(schema::string().max_len(4096))
                                             .max_props(64)
                                             .doc("Message headers (name to string value)")))
            .output(schema::object().open().boolean("published").required())
            .access(platform::Access::account)
            .max_body(2u * 1024u * 1024u)
            .handler(&Broker::publish);
        s.get("subscribe")
            .title("Subscribe to a topic")
            .description(
                "Streams each message published on the topic as one chunk {topic, body, headers}. "
                "Ends after "
                "`limit` messages, after `wait_ms` without a message, at the call's deadline, or "
                "when the "
                "client goes away. Members of one queue group share the messages (each goes to "
                "one).")
            .schema(schema::object()
                        .prop("topic", topic_arg())
                        .required()
                        .str("queue")
                        .min_len(1)
                        .max_len(200)
                        .doc("Queue group: each message goes to one member of the group")
                        .prop("limit",
                              schema::limit(100000, 0,
                                            "Stop after this many messages (default: no limit)"))
                        .integer("wait_ms")
                        .min(100)
                        .max(300000)
                        .def(30000)
                        .doc("End the stream after this many milliseconds without a message "
                             "(100-300000)"))
            .output(schema::object()
                        .doc("Each chunk")
                        .open()
                        .str("topic")
                        .required()
                        .str("body")
                        .required()
                        .prop("headers", schema::map_of(schema::string()))
                        .required())
            .access(platform::Access::account)
            .read_only()
            .streaming()
            .withheld_from_agent()
            .async(&Broker::subscribe);
    }

    explicit Broker(const platform::Host& host) : host_(host) {}

    json publish(platform::Request& r) {
        const std::string topic = r.str("topic");
        if (topic.empty()) throw platform::invalid_argument("topic: must not be empty");
        if (!r.args().contains("body") || !r.args()["body"].is_string())
            throw platform::invalid_argument("body: must be a string");
        json headers = r.args().value("headers", json::object());
        if (!headers.is_object())
            throw platform::invalid_argument("headers: must be an object of strings");
        for (auto& [k, v] : headers.items())
            if (!v.is_string())
                throw platform::invalid_argument("headers." + k + ": must be a string");

        platform_call_info_t info{};
        info.struct_size = sizeof info;
        host_.api()->call_info(r.call(), &info);
        std::string request_id = platform::copy(info.request_id);
        if (request_id.empty()) request_id = r.header("x-request-id");
        set_default(headers, "Content-Type", r.header("content-type"));
        set_default(headers, "X-Request-Id", request_id);
        set_default(headers, "Platform-Namespace", r.header("platform-namespace"));
        for (auto it = headers.begin();
             it != headers.end();)  // the publisher is the caller, always
            it = strcasecmp(it.key().c_str(), "Platform-Account") == 0 ? headers.erase(it)
                                                                       : std::next(it);
        if (!r.account().empty()) headers["Platform-Account"] = r.account();

        const std::string body = r.str("body"),
                          text = headers.dump(-1, ' ', false, json::error_handler_t::replace);
        platform::check(host_.api()->broker_publish(host_.ctx(), platform::view(topic),
                                                    platform::view(body), platform::view(text)),
                        "broker: publishing on '" + topic + "' failed");
        return {{"published", true}};
    }

    void subscribe(platform::Request& r, platform::Responder out) {
        using clock = std::chrono::steady_clock;
        const std::string topic = r.str("topic"), queue = r.str("queue");
        if (topic.empty())
            return out.fail(platform::Code::invalid_argument, "topic: must not be empty");
        const json& a = r.args();
        const int64_t limit =
            a.contains("limit") && a["limit"].is_number_integer() ? a["limit"].get<int64_t>() : 0;
        const int64_t wait_ms = a.contains("wait_ms") && a["wait_ms"].is_number_integer()
                                    ? a["wait_ms"].get<int64_t>()
                                    : 30000;
        if (limit < 0)
            return out.fail(platform::Code::invalid_argument, "limit: must be at least 1");
        if (wait_ms < 100 || wait_ms > 300000)
            return out.fail(platform::Code::invalid_argument,
                            "wait_ms: must be between 100 and 300000");

        platform_call_info_t info{};
        info.struct_size = sizeof info;
        host_.api()->call_info(r.call(), &info);
        // End cleanly just before the host's deadline (monotonic ms, the steady clock's epoch).
        const auto call_deadline =
            info.deadline_ms > 0
                ? clock::time_point(std::chrono::milliseconds(info.deadline_ms - 50))
                : clock::time_point::max();

        auto sub = std::make_shared<Subscription>();
        {
            std::lock_guard<std::mutex> g(mu_);
            if (stopping_) return out.fail(platform::Code::unavailable, "broker: shutting down");
            active_.insert(sub);
        }
        uint64_t id = 0;
        auto st = host_.api()->broker_subscribe(host_.ctx(), platform::view(topic),
                                                platform::view(queue), on_message, sub.get(), &id);
        if (st != PLATFORM_OK) {
            forget(sub);
            return out.fail(static_cast<platform::Code>(st),
                            "broker: subscribing to '" + topic + "' failed");
        }

        int64_t sent = 0;
        for (;;) {
            Message m;
            {
                std::unique_lock<std::mutex> lock(sub->m);
                auto until =
                    std::min(clock::now() + std::chrono::milliseconds(wait_ms), call_deadline);
                if (!sub->cv.wait_until(lock, until,
                                        [&] { return sub->stop || !sub->queue.empty(); }) ||
                    sub->stop)
                    break;
                m = std::move(sub->queue.front());
                sub->queue.pop_front();
            }
            json headers = json::parse(m.headers, nullptr, false);
            if (!headers.is_object()) headers = json::object();
            const std::string chunk =
                json{{"topic", m.topic}, {"body", m.body}, {"headers", headers}}.dump(
                    -1, ' ', false, json::error_handler_t::replace);
            if (host_.api()->respond_chunk(r.call(), platform::view(chunk)) != PLATFORM_OK)
                break;  // client gone
            if (limit && ++sent >= limit) break;
        }
        host_.api()->broker_unsubscribe(host_.ctx(),
                                        id);  // after it returns, on_message is done with sub
        uint64_t dropped = 0;
        {
            std::lock_guard<std::mutex> g(sub->m);
            dropped = sub->dropped;
        }
        if (dropped)
            host_.warn("subscription to '" + topic + "' dropped " + std::to_string(dropped) +
                       " messages (slow reader)");
        out.end();
        forget(sub);  // last: stop() may let the instance go once this returns
    }

    // Ends every open subscription and waits (bounded) for their handlers to return.
    void stop() {
        std::unique_lock<std::mutex> lock(mu_);
        stopping_ = true;
        for (auto& s : active_) {
            std::lock_guard<std::mutex> g(s->m);
            s->stop = true;
            s->cv.notify_all();
        }
        idle_.wait_for(lock, std::chrono::seconds(5), [&] { return active_.empty(); });
    }

private:
    void forget(const std::shared_ptr<Subscription>& sub) {
        std::lock_guard<std::mutex> g(mu_);
        active_.erase(sub);
        idle_.notify_all();
    }

    platform::Host host_;
    std::mutex mu_;
    std::condition_variable idle_;
    std::set<std::shared_ptr<Subscription>> active_;
    bool stopping_ = false;
};

PLATFORM_SERVICE(Broker)
