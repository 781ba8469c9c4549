// events — consume: the streaming loop, plain or as a member of a consumer group.
//
// A consumer blocks its worker thread, never forever: it waits in slices of kSliceMs through the
// host's events_wait, and ends after wait_ms without a new event, kDeadlineMarginMs before the
// call's deadline (so what was sent is delivered rather than turned into a 504), when the client
// goes away (respond_chunk fails), after `limit` events, or when the plugin stops.
#include <algorithm>
#include <chrono>
#include <climits>

#include "codec.hpp"
#include "events.hpp"

using platform::json;
using namespace events_service;

namespace {

int64_t mono_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

uint64_t Events::start_group(const std::string& topic, const std::string& group,
                             std::optional<uint64_t> offset) {
    std::lock_guard<std::mutex> lock(groups_mutex_);
    auto g = load_group(topic, group);
    if (offset) {
        if (g)
            g->seek(*offset);
        else
            g = GroupState::starting_at(*offset);
    } else if (!g) {
        g = GroupState::starting_at(last_offset(topic) + 1);  // a new group sees only new events
    } else {
        return g->next;
    }
    save_group(topic, group, *g);
    groups_changed_.notify_all();
    return g->next;
}

Events::Claim Events::claim(const std::string& topic, const std::string& group, int64_t ack_ms) {
    std::lock_guard<std::mutex> lock(groups_mutex_);
    auto g = load_group(topic, group);
    if (!g) g = GroupState::starting_at(last_offset(topic) + 1);  // deleted meanwhile: start afresh
    Claim c;
    const int64_t now = host_.now_ms();
    const int64_t due = ack_ms > INT64_MAX - now ? INT64_MAX : now + ack_ms;
    // Redeliveries first, oldest offset first.
    while (uint64_t offset = g->due(now)) {
        auto found = host_.read_events(topic, offset, 1);
        if (found.empty() ||
            found[0].offset != offset) {  // gone from the provider: nothing to redeliver
            g->ack(offset);
            continue;
        }
        c.deliveries = g->deliver(offset, due);
        c.event = std::move(found[0]);
        break;
    }
    if (!c.event && !g->window_full()) {
        auto found = host_.read_events(topic, g->next, 1);
        if (!found.empty()) {
            c.deliveries = g->deliver(found[0].offset, due);
            c.event = std::move(found[0]);
        }
    }
    c.next = g->next;
    c.full = g->window_full();
    if (c.event) save_group(topic, group, *g);
    return c;
}

void Events::release(const std::string& topic, const std::string& group, uint64_t offset) {
    std::lock_guard<std::mutex> lock(groups_mutex_);
    auto g = load_group(topic, group);
    if (!g) return;
    g->release(offset);
    save_group(topic, group, *g);
    groups_changed_.notify_all();
}

void Events::consume(platform::Request& r, platform::Responder out) {
    const json& a = r.args();
    auto topic_it = a.find("topic");
    if (topic_it == a.end()) throw platform::invalid_argument("topic: is required");
    check_name(*topic_it, "topic");
    const std::string topic = topic_it->get<std::string>();
    std::string group;
    if (auto it = a.find("group"); it != a.end() && !it->is_null()) {
        check_name(*it, "group");
        group = it->get<std::string>();
    }
    const auto offset_arg = integer_arg(a, "offset", 1, INT64_MAX);
    const int64_t limit = integer_arg(a, "limit", 1, 1000000).value_or(0);  // 0 = unlimited
    const int64_t wait_ms = integer_arg(a, "wait_ms", 0, kMaxWaitMs).value_or(kDefaultWaitMs);
    const int64_t ack_ms = integer_arg(a, "ack_ms", 1, kMaxAckMs).value_or(kDefaultAckMs);
    std::optional<uint64_t> offset;
    if (offset_arg) offset = static_cast<uint64_t>(*offset_arg);

    platform_call_info_t info{};
    info.struct_size = sizeof info;
    host_.api()->call_info(r.call(), &info);
    const int64_t hard_end =
        info.deadline_ms > 0 ? info.deadline_ms - kDeadlineMarginMs : INT64_MAX;

    // Chunks go through the host table directly: its status tells when the client went away.
    auto send = [&](const json& event) {
        const std::string text = event.dump(-1, ' ', false, json::error_handler_t::replace);
        return host_.api()->respond_chunk(r.call(), platform::view(text)) == PLATFORM_OK;
    };

    // Start positions are computed before the first wait, so "only new events" means those
    // published after this call began.
    uint64_t pos = 0;
    if (group.empty())
        pos = offset ? *offset : last_offset(topic) + 1;
    else
        start_group(topic, group, offset);

    try {
        int64_t sent = 0, idle_end = mono_ms() + wait_ms;
        while ((!limit || sent < limit) && !stopping_) {
            bool delivered = false, gone = false;
            uint64_t after = 0;
            bool full = false;
            if (group.empty()) {
                const int64_t want = limit ? std::min<int64_t>(limit - sent, 100) : 100;
                for (const auto& e : host_.read_events(topic, pos, static_cast<uint32_t>(want))) {
                    if (!send(event_json(e))) {
                        gone = true;
                        break;
                    }
                    ++sent;
                    pos = e.offset + 1;
                    delivered = true;
                }
                after = pos - 1;
            } else {
                Claim c = claim(topic, group, ack_ms);
                if (c.event) {
                    json e = event_json(*c.event);
                    e["group"] = group;
                    e["delivery"] = c.deliveries;
                    if (!send(e)) {
                        release(topic, group, c.event->offset);
                        gone = true;
                    } else {
                        ++sent;
                        delivered = true;
                    }
                }
                after = c.next - 1;
                full = c.full;
            }
            if (gone) break;
            const int64_t now = mono_ms();
            if (delivered) {
                idle_end = now + wait_ms;
                if (now >= hard_end) break;
                continue;
            }
            const int64_t end = std::min(idle_end, hard_end);
            if (now >= end) break;
            const auto slice = static_cast<int32_t>(std::min<int64_t>(end - now, kSliceMs));
            if (full) {  // only an ack, a nack or time can help: wait for the group to change
                std::unique_lock<std::mutex> lock(groups_mutex_);
                groups_changed_.wait_for(lock, std::chrono::milliseconds(slice));
            } else {
                host_.wait_events(topic, after, slice);
            }
        }
    } catch (const platform::Error& e) {
        return out.end(e.code(), e.what());
    } catch (const std::exception& e) {
        return out.end(platform::Code::internal, e.what());
    }
    out.end();
}
