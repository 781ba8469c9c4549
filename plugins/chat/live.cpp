// chat — live: a room's new messages as a stream, read from the room's event topic.
//
// The worker thread is held, never forever: it waits in slices of kSliceMs through the host's
// events_wait and ends after idle_ms_ without a message, kDeadlineMarginMs before the call's
// deadline (what was sent is delivered rather than turned into a 504), when the client goes away
// (a chunk is refused) or when the plugin stops. A cursor past the topic's end means the topic
// started again (an events provider that keeps nothing across restarts): the stream then sends
// the whole new topic rather than wait for offsets that were already handed out.
//
// The caller's own notifications (what notify/send publishes on "notify:<account>") ride along as
// {"type":"notification"} chunks without a cursor: those published while the stream is open, seen
// within one slice. A resumed call starts at the topic's end again, so live delivery is best
// effort; Web Push is notify's durable route.
#include <algorithm>
#include <chrono>
#include <climits>

#include "chat.hpp"
#include "rooms.hpp"

using platform::json;

namespace {

int64_t mono_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

uint64_t Chat::last_offset(const std::string& topic) const {
    auto has = [&](uint64_t offset) {
        const auto found = host_.read_events(topic, offset, 1);
        return !found.empty() && found[0].offset == offset;
    };
    if (!has(1)) return 0;
    uint64_t lo = 1, step = 1, hi = 2;  // has(lo); !has(hi) once the loop ends
    while (has(hi)) {
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        (has(mid) ? lo : hi) = mid;
    }
    return lo;
}

void Chat::live(platform::Request& r, platform::Responder out) {
    const std::string room = r.str("room", chat::kDefaultRoom);
    const std::string topic = chat::room_topic(admit(r, room));
    const std::string notices = chat::notification_topic(r.account());

    platform_call_info_t info{};
    info.struct_size = sizeof info;
    host_.api()->call_info(r.call(), &info);
    const int64_t hard_end =
        info.deadline_ms > 0 ? info.deadline_ms - kDeadlineMarginMs : INT64_MAX;

    try {
        uint64_t notice_pos = last_offset(notices) + 1;
        uint64_t pos = 0;
        if (r.args().contains("after") && r.args()["after"].is_number_integer()) {
            pos = static_cast<uint64_t>(r.integer("after", 0, 0, INT64_MAX - 1)) + 1;
            if (pos > last_offset(topic) + 1) pos = 1;  // the topic started again: all of it
        } else {
            const uint64_t cursor = last_offset(topic);
            if (!out.chunk(json{{"type", "ready"}, {"room", room}, {"cursor", cursor}})) return;
            pos = cursor + 1;
        }
        int64_t idle_end = mono_ms() + idle_ms_;
        while (!stopping_) {
            bool delivered = false;
            for (const auto& e : host_.read_events(topic, pos, 100)) {
                json message = chat::seen_by(json::parse(e.payload, nullptr, false), r.account());
                if (!out.chunk(
                        json{{"type", "message"}, {"cursor", e.offset}, {"message", message}}))
                    return;  // the client went away
                pos = e.offset + 1;
                delivered = true;
            }
            for (const auto& e : host_.read_events(notices, notice_pos, 20)) {
                json notice = json::parse(e.payload, nullptr, false);
                if (!notice.is_object()) notice = json::object();
                if (!out.chunk(json{{"type", "notification"}, {"notification", notice}})) return;
                notice_pos = e.offset + 1;
                delivered = true;
            }
            const int64_t now = mono_ms();
            if (delivered) {
                idle_end = now + idle_ms_;
                if (now >= hard_end) break;
                continue;
            }
            const int64_t end = std::min(idle_end, hard_end);
            if (now >= end) break;
            host_.wait_events(topic, pos - 1,
                              static_cast<int32_t>(std::min<int64_t>(end - now, kSliceMs)));
        }
    } catch (const platform::Error& e) {
        return out.end(e.code(), e.what());
    } catch (const std::exception& e) {
        return out.end(platform::Code::internal, e.what());
    }
    out.end();
}
