// events — the descriptor, publish, read, ack/nack and topics. consume is in consume.cpp.
#include "events.hpp"

#include <climits>

#include "codec.hpp"

namespace schema = platform::schema;

using platform::json;
using namespace events_service;

namespace {

constexpr const char* kTopicPrefix = "topic/";
constexpr const char* kGroupPrefix = "group/";

// Topic and consumer group names: 1-200 letters, digits, '.', '_' or '-'.
schema::Value name_arg(const char* doc) {
    return schema::string().min_len(1).max_len(200).pattern("^[A-Za-z0-9._-]+$").doc(doc);
}
schema::Value topic_arg() {
    return name_arg("The topic: 1-200 letters, digits, '.', '_' or '-'");
}
schema::Value group_arg() {
    return name_arg("A consumer group: 1-200 letters, digits, '.', '_' or '-'");
}

const schema::Object kEventSchema =
    schema::object()
        .open()
        .str("id")
        .doc("Unique id of the event")
        .str("topic")
        .integer("offset")
        .doc("Position in its topic, from 1")
        .str("timestamp")
        .date_time()
        .doc("Business time of the event (RFC 3339)")
        .prop("metadata", schema::map_of(schema::string()))
        .prop("payload", schema::any().doc("The JSON value that was published"));

const schema::Object kSettleSchema = schema::object()
                                         .prop("topic", topic_arg())
                                         .required()
                                         .prop("group", group_arg())
                                         .required()
                                         .integer("offset")
                                         .min(1)
                                         .required()
                                         .doc("Offset of the delivered event");

const json& required(const json& args, const char* name) {
    auto it = args.find(name);
    if (it == args.end()) throw platform::invalid_argument(std::string(name) + ": is required");
    return *it;
}

std::string group_key(const std::string& topic, const std::string& group) {
    return std::string(kGroupPrefix) + topic + "/" + group;
}

}  // namespace

void Events::describe(platform::ServiceSpec<Events>& s) {
    s.id("events").version("1.0.0").service("events").summary(
        "Ordered, persistent event streams per topic: publish, read, consume live or from an "
        "offset, consumer groups with acks");
    s.post("publish")
        .title("Publish an event")
        .description(
            "Appends an event to a topic and answers its id, offset (its position in the topic, "
            "from 1) and "
            "timestamp. The payload is any JSON value; metadata is a map of strings; timestamp "
            "overrides the "
            "event's business time (default: now).")
        .schema(schema::object()
                    .prop("topic", topic_arg())
                    .required()
                    .prop("payload",
                          schema::any().doc("The event's payload: any JSON value, stored as its "
                                            "JSON text and given back as the same value"))
                    .required()
                    .prop("metadata", schema::map_of(schema::string().max_len(4096))
                                          .max_props(50)
                                          .doc("Up to 50 string key/values kept with the event"))
                    .prop("timestamp", schema::types({"string", "integer"})
                                           .date_time()
                                           .min(1)
                                           .max(253402300799999)
                                           .doc("The event's time, RFC 3339 (2026-01-01T10:00:00Z) "
                                                "or Unix milliseconds; default now")))
        .output(schema::object()
                    .open()
                    .str("id")
                    .str("topic")
                    .integer("offset")
                    .str("timestamp")
                    .date_time())
        .access(platform::Access::account)
        .handler(&Events::publish);
    s.get("read")
        .title("Read events")
        .description(
            "Stored events of a topic in offset (publication) order, from `offset`, at most "
            "`limit`. "
            "`next_offset` is where the next page starts. An unknown topic has no events.")
        .schema(schema::object()
                    .prop("topic", topic_arg())
                    .required()
                    .integer("offset")
                    .min(1)
                    .def(1)
                    .doc("First offset to return (1 = the start)")
                    .prop("limit", schema::limit(1000, 100, "Most events to return (1-1000)")))
        .output(schema::object().open().array("events", kEventSchema).integer("next_offset"))
        .access(platform::Access::account)
        .read_only()
        .idempotent()
        .handler(&Events::read);
    s.get("consume")
        .title("Consume a topic")
        .description(
            "Streams events of a topic, one event per message (Server-Sent Events over HTTP), live "
            "or replayed from "
            "`offset`. Without `offset` only events published after the call starts are sent (for "
            "a group: from its "
            "committed position). The stream ends after `limit` events, after `wait_ms` without a "
            "new event, shortly "
            "before the call's deadline, or when the client goes away. With `group`, the consumers "
            "of the group share "
            "the stream: each event goes to one of them and stays in flight until `ack`; an event "
            "nacked, or not "
            "acked within `ack_ms` of business time, is delivered again (its `delivery` count "
            "grows). Giving `offset` "
            "with a group moves the group there, forgetting its in-flight events.")
        .schema(schema::object()
                    .prop("topic", topic_arg())
                    .required()
                    .integer("offset")
                    .min(1)
                    .doc("Replay from this offset (1 = the start); default: only new events, or "
                         "the group's committed position")
                    .prop("group", group_arg())
                    .prop("limit", schema::limit(1000000, 0,
                                                 "Stop after this many events; default unlimited"))
                    .integer("wait_ms")
                    .min(0)
                    .max(300000)
                    .def(30000)
                    .doc("End the stream after this long without a new event (milliseconds, at "
                         "most 300000)")
                    .integer("ack_ms")
                    .min(1)
                    .max(86400000)
                    .def(30000)
                    .doc("Group consumers: redeliver an event not acked within this many "
                         "milliseconds of business time"))
        .output(kEventSchema)
        .access(platform::Access::account)
        .streaming()
        .async(&Events::consume);
    s.post("ack")
        .title("Acknowledge an event")
        .description(
            "Marks an event delivered to a consumer group as processed. The group's committed "
            "offset advances "
            "over the acknowledged prefix. 404 for an unknown group or an offset the group was not "
            "given.")
        .schema(kSettleSchema)
        .output(schema::object().open().integer("acked").integer("committed"))
        .access(platform::Access::account)
        .idempotent()
        .handler(&Events::ack);
    s.post("nack")
        .title("Reject an event")
        .description(
            "Hands an event delivered to a consumer group back: it is delivered again to the next "
            "consumer of "
            "the group. 404 for an unknown group or an offset the group was not given; 409 once "
            "acknowledged.")
        .schema(kSettleSchema)
        .output(schema::object().open().integer("nacked"))
        .access(platform::Access::account)
        .idempotent()
        .handler(&Events::nack);
    s.get("topics")
        .title("List topics")
        .description(
            "The topics published through this service, with their event count and last offset.")
        .output(schema::object().open().array(
            "topics",
            schema::object().open().str("topic").integer("events").integer("last_offset")))
        .access(platform::Access::account)
        .read_only()
        .idempotent()
        .handler(&Events::topics);
}

void Events::stop() {
    stopping_ = true;
    std::lock_guard<std::mutex> lock(groups_mutex_);
    groups_changed_.notify_all();
}

// ---- topics and offsets ------------------------------------------------------------------------

bool Events::has_event(const std::string& topic, uint64_t offset) const {
    bool found = false;
    auto sink = [](void* user, const platform_event_t*) -> bool {
        *static_cast<bool*>(user) = true;
        return false;
    };
    if (!PLATFORM_HAS_FIELD(platform_host_api_t, host_.api(), events_read))
        throw platform::Error(platform::Code::unsupported,
                              "the host does not offer events_read (ABI 1.2)");
    platform::check(
        host_.api()->events_read(host_.ctx(), platform::view(topic), offset, 1, sink, &found),
        "events read failed");
    return found;
}

// Offsets are gapless from 1, so the last one is found by galloping from a hint (the newest
// offset this process saw) and bisecting: O(log n) one-event reads, no payload copies.
uint64_t Events::last_offset(const std::string& topic) {
    uint64_t hint = 0;
    {
        std::lock_guard<std::mutex> lock(topics_mutex_);
        if (auto it = last_seen_.find(topic); it != last_seen_.end()) hint = it->second;
    }
    uint64_t lo = 0;  // has_event(lo) or lo == 0
    if (hint && has_event(topic, hint))
        lo = hint;
    else if (!has_event(topic, 1))
        return 0;
    else
        lo = 1;
    uint64_t step = 1, hi = lo + step;  // !has_event(hi) once the loop ends
    while (has_event(topic, hi)) {
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        (has_event(topic, mid) ? lo : hi) = mid;
    }
    std::lock_guard<std::mutex> lock(topics_mutex_);
    auto& seen = last_seen_[topic];
    seen = std::max(seen, lo);
    return lo;
}

void Events::remember_topic(const std::string& topic) {
    {
        std::lock_guard<std::mutex> lock(topics_mutex_);
        if (topics_seen_.count(topic)) return;
    }
    auto store = host_.store();
    const std::string key = kTopicPrefix + topic;
    if (!store.get(key))
        store.put(key, json{{"topic", topic}, {"created", rfc3339(host_.now_ms())}}.dump());
    std::lock_guard<std::mutex> lock(topics_mutex_);
    topics_seen_.insert(topic);
}

// ---- endpoints ---------------------------------------------------------------------------------

json Events::publish(platform::Request& r) {
    const json& a = r.args();
    check_name(required(a, "topic"), "topic");
    const std::string topic = a.at("topic").get<std::string>();
    const std::string payload =
        required(a, "payload").dump(-1, ' ', false, json::error_handler_t::replace);
    json metadata = json::object();
    if (auto it = a.find("metadata"); it != a.end() && !it->is_null()) {
        if (!it->is_object())
            throw platform::invalid_argument("metadata: must be an object of strings");
        if (it->size() > 50)
            throw platform::invalid_argument("metadata: must have at most 50 keys");
        for (const auto& [k, v] : it->items())
            if (!v.is_string())
                throw platform::invalid_argument("metadata." + k + ": must be a string");
        metadata = *it;
    }
    int64_t ts = 0;
    if (auto it = a.find("timestamp"); it != a.end() && !it->is_null()) ts = timestamp_arg(*it);
    if (ts == 0) ts = host_.now_ms();

    if (!PLATFORM_HAS_FIELD(platform_host_api_t, host_.api(), events_publish))
        throw platform::Error(platform::Code::unsupported,
                              "the host does not offer events_publish (ABI 1.2)");
    // The host table directly rather than Host::publish_event, which cannot carry the id we answer.
    const std::string id = new_id();
    const std::string md = metadata.dump(-1, ' ', false, json::error_handler_t::replace);
    platform_event_t e{};
    e.struct_size = sizeof e;
    e.id = platform::view(id);
    e.topic = platform::view(topic);
    e.timestamp_ms = ts;
    e.metadata_json = platform::view(md);
    e.payload = platform::view(payload);
    uint64_t offset = 0;
    platform::check(host_.api()->events_publish(host_.ctx(), &e, &offset), "events publish failed");

    remember_topic(topic);
    {
        std::lock_guard<std::mutex> lock(topics_mutex_);
        auto& seen = last_seen_[topic];
        seen = std::max(seen, offset);
    }
    return {{"id", id}, {"topic", topic}, {"offset", offset}, {"timestamp", rfc3339(ts)}};
}

json Events::read(platform::Request& r) {
    const json& a = r.args();
    check_name(required(a, "topic"), "topic");
    const std::string topic = a.at("topic").get<std::string>();
    const auto offset = static_cast<uint64_t>(integer_arg(a, "offset", 1, INT64_MAX).value_or(1));
    const auto limit = static_cast<uint32_t>(integer_arg(a, "limit", 1, 1000).value_or(100));
    json events = json::array();
    uint64_t next = offset;
    for (const auto& e : host_.read_events(topic, offset, limit)) {
        events.push_back(event_json(e));
        next = e.offset + 1;
    }
    return {{"events", std::move(events)}, {"next_offset", next}};
}

json Events::topics(platform::Request&) {
    json out = json::array();
    for (const auto& rec : host_.store().scan({kTopicPrefix, false, 0, 0})) {
        const std::string topic = rec.key.substr(std::char_traits<char>::length(kTopicPrefix));
        const uint64_t last = last_offset(topic);
        out.push_back({{"topic", topic}, {"events", last}, {"last_offset", last}});
    }
    return {{"topics", std::move(out)}};
}

std::optional<GroupState> Events::load_group(const std::string& topic,
                                             const std::string& group) const {
    auto raw = host_.store().get(group_key(topic, group));
    if (!raw) return std::nullopt;
    try {
        return GroupState::from_json(json::parse(*raw));
    } catch (const std::exception& e) {
        throw platform::internal("group '" + group + "' of topic '" + topic +
                                 "': unreadable record: " + e.what());
    }
}

void Events::save_group(const std::string& topic, const std::string& group,
                        const GroupState& g) const {
    host_.store().put(group_key(topic, group), g.to_json().dump());
}

json Events::settle(platform::Request& r, bool is_ack) {
    const json& a = r.args();
    check_name(required(a, "topic"), "topic");
    check_name(required(a, "group"), "group");
    const std::string topic = a.at("topic").get<std::string>(),
                      group = a.at("group").get<std::string>();
    required(a, "offset");
    const auto offset = static_cast<uint64_t>(*integer_arg(a, "offset", 1, INT64_MAX));
    GroupState::Outcome outcome;
    uint64_t committed = 0;
    {
        std::lock_guard<std::mutex> lock(groups_mutex_);
        auto g = load_group(topic, group);
        if (!g)
            throw platform::not_found("group: no consumer group '" + group + "' on topic '" +
                                      topic + "'");
        outcome = is_ack ? g->ack(offset) : g->nack(offset);
        if (outcome == GroupState::Outcome::done) save_group(topic, group, *g);
        committed = g->committed;
        groups_changed_.notify_all();
    }
    const std::string which =
        "offset: event " + std::to_string(offset) + " of topic '" + topic + "'";
    if (outcome == GroupState::Outcome::unknown)
        throw platform::not_found(which + " was not delivered to group '" + group + "'");
    if (is_ack) return {{"acked", offset}, {"committed", committed}};
    if (outcome == GroupState::Outcome::already_acked)
        throw platform::conflict(which + " is already acknowledged by group '" + group + "'");
    return {{"nacked", offset}};
}

json Events::ack(platform::Request& r) {
    return settle(r, true);
}
json Events::nack(platform::Request& r) {
    return settle(r, false);
}

PLATFORM_SERVICE(Events)
