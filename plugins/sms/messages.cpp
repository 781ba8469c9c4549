#include "messages.hpp"

#include <cstdio>
#include <platform/sdk/random.hpp>

namespace sms {

using platform::json;

namespace {

// An update() step adding `delta` to the integer `field` (never below 0).
auto add(const char* field, int64_t delta) {
    return [=](const std::optional<json>& cur) -> std::optional<json> {
        const int64_t n = (cur ? cur->value(field, int64_t{0}) : 0) + delta;
        return json{{field, n < 0 ? 0 : n}};
    };
}

}  // namespace

json Messages::keep(const std::string& account, json message) const {
    char seq[17];
    std::snprintf(seq, sizeof seq, "%016llx",
                  static_cast<unsigned long long>(platform::next_sequence(host_.now_ms())));
    const std::string id = "s" + std::string(seq) + platform::random_hex(4);
    message["id"] = id;
    message["date"] = platform::rfc3339(host_.now_ms());
    of(account).put(id, message);
    collection("counts", account).update("messages", add("total", 1));
    return message;
}

uint64_t Messages::total(const std::string& account) const {
    const auto c = collection("counts", account).get("messages");
    return c ? c->value("total", uint64_t{0}) : 0;
}

std::string Messages::today() const {
    return platform::rfc3339(host_.now_ms()).substr(0, 10);
}

bool Messages::reserve_daily(const std::string& account, int64_t cap) const {
    bool counted = false;
    collection("daily", account)
        .update(
            today(),
            [&](const std::optional<json>& cur) -> std::optional<json> {
                const int64_t sent = cur ? cur->value("sent", int64_t{0}) : 0;
                counted = sent < cap;
                return json{{"sent", counted ? sent + 1 : sent}};
            },
            2 * kDayMs);
    return counted;
}

void Messages::release_daily(const std::string& account) const {
    collection("daily", account).update(today(), add("sent", -1), 2 * kDayMs);
}

int64_t Messages::sent_today(const std::string& account) const {
    const auto d = collection("daily", account).get(today());
    return d ? d->value("sent", int64_t{0}) : 0;
}

bool Messages::conversation_open(const std::string& account, const std::string& number) const {
    const auto c = collection("conversations", account).get(number);
    return c && host_.now_ms() - c->value("opened", int64_t{0}) < kDayMs;
}

void Messages::open_conversation(const std::string& account, const std::string& number) const {
    collection("conversations", account).put(number, {{"opened", host_.now_ms()}}, kDayMs);
}

}  // namespace sms
