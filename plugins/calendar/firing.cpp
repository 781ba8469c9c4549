#include "firing.hpp"

#include <array>
#include <cstdio>

using platform::json;

namespace calendar {

namespace {

// The HTTP status the host answers for each ABI code (host/src/core/status.cpp).
int http_status(platform::Code code) {
    static constexpr std::array<int, 16> kHttp{200, 400, 401, 402, 403, 404, 405, 408,
                                               409, 413, 429, 500, 501, 502, 503, 504};
    const auto i = static_cast<size_t>(code);
    return i < kHttp.size() ? kHttp[i] : 500;
}

std::string failure(const std::string& what, platform::Code code, const std::string& message) {
    return what + ": " + std::to_string(http_status(code)) + (message.empty() ? "" : " " + message);
}

}  // namespace

std::shared_ptr<const TimeZone> zone_from_me(const platform::Host::CallResult& me) {
    if (!me.ok()) return TimeZone::utc();
    const json body = json::parse(me.body, nullptr, false);
    const json md = body.is_object() && body.contains("account") && body["account"].is_object()
                        ? body["account"].value("metadata", json::object())
                        : json::object();
    if (md.is_object() && md.contains("timezone") && md["timezone"].is_string())
        if (auto zone = TimeZone::load(md["timezone"].get<std::string>())) return zone;
    return TimeZone::utc();
}

std::string local_time(int64_t utc_s, const TimeZone& zone) {
    namespace pt = common::time;
    const int64_t local = zone.to_local(utc_s), day = pt::day_of(local);
    const int secs = pt::seconds_into_day(local);
    const pt::CivilDate c = pt::civil_from_days(day);
    char clock[16];
    std::snprintf(clock, sizeof clock, "%02d:%02d", secs / 3600, secs / 60 % 60);
    return std::string(pt::kWeekdayNames[pt::weekday_of(day)]) + " " + std::to_string(c.day) + " " +
           pt::kMonthNames[c.month - 1] + " " + std::to_string(c.year) + ", " + clock + " (" +
           zone.name() + ")";
}

std::shared_ptr<const TimeZone> Firing::zone(const std::string& grant) const {
    if (grant.empty()) return TimeZone::utc();
    try {
        return zone_from_me(host_.call_granted(grant, "auth", "me", json::object()));
    } catch (const platform::Error&) {  // no `auth` service (auth-noop), or the grant is gone
        return TimeZone::utc();
    }
}

Outcome Firing::call(const std::string& grant, const std::string& method, const json& body) const {
    Outcome out;
    const std::string what = "agent/" + method;
    if (grant.empty()) {
        out.error =
            what +
            ": not called: the event has no grant to act for its owner (the host offers no grants, "
            "ABI 1.6); update the event on a newer host";
        return out;
    }
    try {
        const auto r = host_.call_granted(grant, "agent", method, body, kRunTimeoutMs);
        if (!r.ok()) {
            out.error = failure(what, r.code, r.body);
            return out;
        }
        const json answer = json::parse(r.body, nullptr, false);
        out.ok = true;
        if (answer.is_object() && answer.contains("text") && answer["text"].is_string())
            out.text = answer["text"];
        if (answer.is_object() && answer.contains("thread") && answer["thread"].is_string())
            out.thread = answer["thread"];
    } catch (const platform::Error& e) {
        out.error = failure(what, e.code(), e.what());
    }
    return out;
}

Outcome Firing::prepare(const json& event, const std::string& grant) const {
    std::string prompt = event.value("prompt", "");
    if (prompt.empty()) {
        prompt = "Prepare a short briefing for: " + event.value("title", "");
        if (!event.value("note", "").empty()) prompt += " " + event.value("note", "");
    }
    Outcome out = call(grant, "run",
                       {{"prompt", prompt},
                        {"title", event.value("title", "")},
                        {"channel", "web"},
                        {"read_only", true},
                        {"deliver", false}});
    if (out.ok && out.text.empty()) out = {false, "", "agent/run: the report came back empty", ""};
    return out;
}

Outcome Firing::remind(const json& event, const std::string& grant, int64_t occurrence,
                       const TimeZone& zone) const {
    const std::string title = event.value("title", "");
    std::string text = title + " \xE2\x80\x94 " + local_time(occurrence, zone);
    if (!event.value("note", "").empty()) text += "\n" + event.value("note", "");
    return deliver(grant, "Reminder: " + title, text);
}

Outcome Firing::deliver(const std::string& grant, const std::string& title,
                        const std::string& text) const {
    Outcome out = call(grant, "post", {{"title", title}, {"text", text}, {"channel", "web"}});
    if (out.ok) push(grant, title, text);
    return out;
}

Outcome Firing::answer(const json& event, const std::string& grant) const {
    const std::string title = event.value("title", "");
    Outcome out =
        call(grant, "run", {{"prompt", event["prompt"]}, {"title", title}, {"channel", "mail"}});
    if (out.ok) mail(grant, title, out.text, out.thread);
    return out;
}

void Firing::mail(const std::string& grant, const std::string& title, const std::string& text,
                  const std::string& thread) const {
    json letter = {{"subject", platform::utf8_prefix(title.empty() ? "Event" : title, 200)},
                   {"body", text.empty() ? "(no answer)" : text},
                   {"from", "agent"}};
    if (!thread.empty()) letter["thread"] = thread;
    try {
        const auto r = host_.call_granted(grant, "mail", "post", letter);
        if (!r.ok()) host_.warn("calendar: mailing an event's answer failed: " + r.body);
    } catch (const platform::Error&) {  // no mail service: the inbox has the answer
    }
}

void Firing::push(const std::string& grant, const std::string& title,
                  const std::string& text) const {
    try {
        const auto devices = host_.call_granted(grant, "notify", "devices", json::object());
        const json d = json::parse(devices.body, nullptr, false);
        if (!devices.ok() || !d.is_object() || !d.value("notifiable", false)) return;
        const auto sent = host_.call_granted(grant, "notify", "send",
                                             {{"title", platform::utf8_prefix(title, 100)},
                                              {"body", platform::utf8_prefix(text, 300)}});
        if (!sent.ok()) host_.warn("calendar: notify/send of a reminder failed: " + sent.body);
    } catch (const platform::Error&) {  // no notify service: the inbox has the reminder
    }
}

Outcome Firing::fire(const json& event, const std::string& grant, int64_t occurrence,
                     const TimeZone& zone) const {
    const std::string title = event.value("title", "");
    if (event.contains("advance") && event["advance"].is_object()) {
        const json& b = event.contains("briefing") ? event["briefing"] : json(nullptr);
        const auto for_s = b.is_object() ? parse_rfc3339(b.value("for", "")) : std::nullopt;
        if (for_s && for_s->utc_s == occurrence)
            return deliver(grant, "Briefing: " + title, b.value("text", ""));
        Outcome out = remind(event, grant, occurrence, zone);
        const std::string why = event.value("last_error", json(nullptr)).is_string()
                                    ? " (" + event["last_error"].get<std::string>() + ")"
                                    : "";
        if (out.ok)
            out = {false, "",
                   "briefing: none was prepared for this occurrence" + why +
                       "; the reminder was sent instead",
                   ""};
        return out;
    }
    if (!event.value("prompt", "").empty()) return answer(event, grant);
    return remind(event, grant, occurrence, zone);
}

}  // namespace calendar
