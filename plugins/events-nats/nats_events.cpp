// events-nats — connect, append, read, wait and the topic list over JetStream.
#include "nats_events.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <platform/sdk/error.hpp>

#include "envelope.hpp"

namespace events_nats {

namespace {

constexpr const char* kName = "events-nats";

platform_str_t bytes(std::string_view s) {
    return platform_str_t{s.empty() ? "" : s.data(), s.size()};
}

struct MsgFree {
    void operator()(natsMsg* m) const { natsMsg_Destroy(m); }
};
using MsgPtr = std::unique_ptr<natsMsg, MsgFree>;
struct InfoFree {
    void operator()(jsStreamInfo* i) const { jsStreamInfo_Destroy(i); }
};
using InfoPtr = std::unique_ptr<jsStreamInfo, InfoFree>;
struct SubFree {
    void operator()(natsSubscription* s) const {
        natsSubscription_Unsubscribe(s);
        natsSubscription_Destroy(s);
    }
};
using SubPtr = std::unique_ptr<natsSubscription, SubFree>;

std::string string_setting(const platform::json& config, const char* key, std::string fallback) {
    auto it = config.find(key);
    if (it == config.end() || it->is_null()) return fallback;
    if (!it->is_string())
        throw std::runtime_error(std::string(kName) + ": config `" + key + "` must be a string");
    // Empty is the default: a profile's "${PLATFORM_NATS_URL}" with the variable unset.
    return it->get<std::string>().empty() ? fallback : it->get<std::string>();
}

int64_t int_setting(const platform::json& config, const char* key, int64_t fallback) {
    auto it = config.find(key);
    if (it == config.end()) return fallback;
    if (!it->is_number_integer() || it->get<int64_t>() < 1)
        throw std::runtime_error(std::string(kName) + ": config `" + key +
                                 "` must be a positive integer");
    return it->get<int64_t>();
}

bool transient(natsStatus s) {
    return s == NATS_TIMEOUT || s == NATS_CONNECTION_CLOSED || s == NATS_NO_SERVER ||
           s == NATS_NO_RESPONDERS || s == NATS_NOT_YET_CONNECTED || s == NATS_IO_ERROR ||
           s == NATS_STALE_CONNECTION || s == NATS_CONNECTION_DISCONNECTED;
}

}  // namespace

NatsEvents::NatsEvents(const platform::Host& host, const platform::json& config) : host_(host) {
    const char* env = std::getenv("PLATFORM_NATS_URL");
    url_ = string_setting(config, "url",
                          env && *env ? std::string(env) : std::string("nats://127.0.0.1:4222"));
    stream_prefix_ = string_setting(config, "stream_prefix", "PLATFORM_EVENTS");
    subject_prefix_ = string_setting(config, "subject_prefix", "platform.events");
    replicas_ = int_setting(config, "replicas", 1);
    timeout_ms_ = int_setting(config, "timeout_ms", 5000);
    natsOptions* opts = nullptr;
    natsStatus s = natsOptions_Create(&opts);
    if (s == NATS_OK) s = natsOptions_SetURL(opts, url_.c_str());
    if (s == NATS_OK) s = natsOptions_SetName(opts, kName);
    if (s == NATS_OK) s = natsOptions_SetTimeout(opts, timeout_ms_);
    if (s == NATS_OK) s = natsOptions_SetMaxReconnect(opts, -1);  // forever, once connected
    if (s == NATS_OK) s = natsConnection_Connect(&nc_, opts);
    natsOptions_Destroy(opts);
    if (s != NATS_OK)
        throw std::runtime_error(std::string(kName) + ": cannot connect to '" + url_ +
                                 "': " + natsStatus_GetText(s));
    jsOptions jo;
    jsOptions_Init(&jo);
    jo.Wait = timeout_ms_;
    s = natsConnection_JetStream(&js_, nc_, &jo);
    if (s != NATS_OK) {
        natsConnection_Destroy(nc_);
        throw std::runtime_error(std::string(kName) + ": JetStream context on '" + url_ +
                                 "': " + natsStatus_GetText(s));
    }
    host_.info(std::string(kName) + ": connected to '" + url_ + "' (JetStream, file storage)");
}

NatsEvents::~NatsEvents() {
    jsCtx_Destroy(js_);
    natsConnection_Close(nc_);
    natsConnection_Destroy(nc_);
}

[[noreturn]] void NatsEvents::fail(const char* op, natsStatus s, jsErrCode code) const {
    std::string msg = std::string(kName) + ": " + op + " failed: " + natsStatus_GetText(s);
    if (code) msg += " (JetStream error " + std::to_string(static_cast<int>(code)) + ")";
    const char* last = nats_GetLastError(nullptr);
    if (last && *last) msg += ": " + std::string(last);
    if (s == NATS_MAX_PAYLOAD) throw platform::Error(platform::Code::payload_too_large, msg);
    if (transient(s)) throw platform::unavailable(msg);
    host_.error(msg);
    throw platform::internal(msg);
}

// The topic's name in stream names and subjects: its hex when that is short, else "h" and the
// hex of its SHA-256 (stream names become file names). The topic itself is in the description.
std::string NatsEvents::name_of(std::string_view topic) {
    if (topic.size() <= kHexTopicBytes) return hex(topic);
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(topic.data()), topic.size(), digest);
    return "h" + hex(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::string NatsEvents::stream_of(std::string_view topic) const {
    return stream_prefix_ + "_" + name_of(topic);
}

std::string NatsEvents::subject_of(std::string_view topic) const {
    return subject_prefix_ + "." + name_of(topic);
}

uint64_t NatsEvents::last_seq(const std::string& stream, uint64_t* first) {
    jsStreamInfo* raw = nullptr;
    jsErrCode jerr = jsErrCode(0);
    natsStatus s = js_GetStreamInfo(&raw, js_, stream.c_str(), nullptr, &jerr);
    InfoPtr info(raw);
    if (s == NATS_NOT_FOUND || jerr == JSStreamNotFoundErr) return 0;
    if (s != NATS_OK) fail("stream info", s, jerr);
    if (first) *first = info->State.FirstSeq;
    return info->State.Msgs ? info->State.LastSeq : 0;
}

void NatsEvents::ensure_stream(std::string_view topic, const std::string& stream,
                               const std::string& subject) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (created_.count(stream)) return;
    }
    jsStreamConfig cfg;
    jsStreamConfig_Init(&cfg);
    cfg.Name = stream.c_str();
    const std::string description = kDescriptionPrefix + hex(topic);
    cfg.Description = description.c_str();
    const char* subjects[1] = {subject.c_str()};
    cfg.Subjects = subjects;
    cfg.SubjectsLen = 1;
    cfg.Storage = js_FileStorage;
    cfg.Retention = js_LimitsPolicy;
    cfg.Replicas = replicas_;
    cfg.DenyDelete = true;  // offsets stay gapless
    jsStreamInfo* raw = nullptr;
    jsErrCode jerr = jsErrCode(0);
    natsStatus s = js_AddStream(&raw, js_, &cfg, nullptr, &jerr);
    InfoPtr info(raw);
    // Another process (or thread) created it first: the same config is accepted by the server,
    // an existing stream with another config answers "name in use" — both mean it exists. Two
    // replicas creating it at the same moment may get another JetStream error from the loser's
    // request: the stream being there afterwards means the same.
    if (s != NATS_OK && jerr != JSStreamNameExistErr && !transient(s)) {
        jsStreamInfo* found = nullptr;
        jsErrCode info_err = jsErrCode(0);
        const bool exists =
            js_GetStreamInfo(&found, js_, stream.c_str(), nullptr, &info_err) == NATS_OK;
        InfoPtr release(found);
        if (!exists) fail("create stream", s, jerr);
    } else if (s != NATS_OK && jerr != JSStreamNameExistErr) {
        fail("create stream", s, jerr);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    created_.insert(stream);
}

uint64_t NatsEvents::append(const platform_event_t& e) {
    const std::string_view topic = platform::view(e.topic);
    if (topic.empty()) throw platform::invalid_argument("topic: must not be empty");
    if (topic.size() > kMaxTopicBytes)
        throw platform::invalid_argument("topic: at most " + std::to_string(kMaxTopicBytes) +
                                         " bytes");
    const std::string_view metadata =
        e.metadata_json.len ? platform::view(e.metadata_json) : std::string_view("{}");
    const std::string data =
        encode({platform::view(e.id), e.timestamp_ms, metadata, platform::view(e.payload)});
    const int64_t max = natsConnection_GetMaxPayload(nc_);
    if (max > 0 && static_cast<int64_t>(data.size()) > max)
        throw platform::Error(platform::Code::payload_too_large,
                              "payload: the event is " + std::to_string(data.size()) +
                                  " bytes stored, over the NATS server's max_payload " +
                                  std::to_string(max));
    const std::string stream = stream_of(topic), subject = subject_of(topic);
    for (int attempt = 0;; ++attempt) {
        ensure_stream(topic, stream, subject);
        jsPubOptions po;
        jsPubOptions_Init(&po);
        po.ExpectStream = stream.c_str();
        po.MaxWait = timeout_ms_;
        jsPubAck* ack = nullptr;
        jsErrCode jerr = jsErrCode(0);
        natsStatus s = js_Publish(&ack, js_, subject.c_str(), data.data(),
                                  static_cast<int>(data.size()), &po, &jerr);
        if (s == NATS_OK) {
            uint64_t seq = ack->Sequence;
            jsPubAck_Destroy(ack);
            return seq;
        }
        jsPubAck_Destroy(ack);
        // The stream was removed behind our back: forget it, create it again, publish once more.
        if (s == NATS_NO_RESPONDERS && attempt == 0) {
            std::lock_guard<std::mutex> lock(mutex_);
            created_.erase(stream);
            continue;
        }
        fail("append", s, jerr);
    }
}

void NatsEvents::read(std::string_view topic, uint64_t from_offset, uint32_t limit,
                      const EventFn& fn) {
    if (topic.empty() || topic.size() > kMaxTopicBytes) return;  // no such stream
    const std::string stream = stream_of(topic);
    uint64_t first = 1;
    const uint64_t last = last_seq(stream, &first);
    uint64_t seq = std::max<uint64_t>({from_offset, first, 1});
    uint32_t given = 0;
    for (; seq <= last && (!limit || given < limit); ++seq) {
        natsMsg* raw = nullptr;
        jsErrCode jerr = jsErrCode(0);
        natsStatus s = js_GetMsg(&raw, js_, stream.c_str(), seq, nullptr, &jerr);
        MsgPtr msg(raw);
        if (s == NATS_NOT_FOUND || jerr == JSNoMessageFoundErr) continue;  // removed by limits
        if (s != NATS_OK) fail("read", s, jerr);
        Envelope env;
        std::string_view data(natsMsg_GetData(msg.get()),
                              static_cast<size_t>(natsMsg_GetDataLength(msg.get())));
        if (!decode(data, env)) {
            host_.warn(std::string(kName) + ": stream '" + stream + "' sequence " +
                       std::to_string(seq) + " is not an events-nats envelope; skipped");
            continue;
        }
        platform_event_t ev{};
        ev.struct_size = sizeof ev;
        ev.id = bytes(env.id);
        ev.topic = bytes(topic);
        ev.offset = seq;
        ev.timestamp_ms = env.timestamp_ms;
        ev.metadata_json = bytes(env.metadata);
        ev.payload = bytes(env.payload);
        ++given;
        if (!fn(ev)) break;
    }
}

bool NatsEvents::wait(std::string_view topic, uint64_t after_offset, int32_t timeout_ms) {
    using Clock = std::chrono::steady_clock;
    auto stopped = [&] {
        if (stopping_) throw platform::unavailable("events-nats: the provider is stopping");
    };
    stopped();
    if (topic.empty() || topic.size() > kMaxTopicBytes)
        throw platform::invalid_argument("topic: 1 to " + std::to_string(kMaxTopicBytes) +
                                         " bytes");
    const std::string stream = stream_of(topic), subject = subject_of(topic);
    if (last_seq(stream) > after_offset) return true;
    if (timeout_ms <= 0) return false;
    const auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
    // Subscribe first, then check again: an append in between is seen by one or the other.
    natsSubscription* raw = nullptr;
    natsStatus s = natsConnection_SubscribeSync(&raw, nc_, subject.c_str());
    if (s != NATS_OK) fail("wait", s);
    SubPtr sub(raw);
    bool recheck = true, seen = false;
    for (;;) {
        stopped();
        if (recheck) {
            if (last_seq(stream) > after_offset) return true;
            recheck = false;
        }
        const auto now = Clock::now();
        if (now >= end) return false;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - now).count();
        natsMsg* m = nullptr;
        s = natsSubscription_NextMsg(&m, sub.get(), std::min<int64_t>(left, kStopSliceMs) + 1);
        if (s == NATS_OK) {
            natsMsg_Destroy(m);
            recheck = seen = true;  // something was published on the subject: is it stored?
        } else if (s == NATS_TIMEOUT) {
            // A message's core delivery may come a moment before the stream has stored it: once
            // one was seen, every slice looks again.
            recheck = seen;
        } else {
            fail("wait", s);
        }
        if (s == NATS_TIMEOUT && Clock::now() >= end) return last_seq(stream) > after_offset;
    }
}

std::string NatsEvents::topics() {
    jsStreamInfoList* list = nullptr;
    jsErrCode jerr = jsErrCode(0);
    natsStatus s = js_Streams(&list, js_, nullptr, &jerr);
    std::map<std::string, std::pair<uint64_t, uint64_t>> found;
    if (s == NATS_OK) {
        const std::string prefix = stream_prefix_ + "_";
        for (int i = 0; i < list->Count; ++i) {
            const jsStreamInfo* si = list->List[i];
            if (!si || !si->Config || !si->Config->Name || !si->Config->Description) continue;
            std::string_view name(si->Config->Name), description(si->Config->Description);
            std::string topic;
            if (name.substr(0, prefix.size()) != prefix ||
                description.substr(0, std::strlen(kDescriptionPrefix)) != kDescriptionPrefix ||
                !unhex(description.substr(std::strlen(kDescriptionPrefix)), topic) ||
                topic.empty() || stream_of(topic) != name)
                continue;
            found[topic] = {si->State.Msgs, si->State.Msgs ? si->State.LastSeq : 0};
        }
        jsStreamInfoList_Destroy(list);
    } else if (s != NATS_NOT_FOUND) {
        fail("topics", s, jerr);
    }
    platform::json out = platform::json::array();
    for (const auto& [topic, counts] : found)
        out.push_back({{"topic", topic}, {"events", counts.first}, {"last_offset", counts.second}});
    return out.dump(-1, ' ', false, platform::json::error_handler_t::replace);
}

void NatsEvents::stop() {
    stopping_ = true;
}

}  // namespace events_nats
