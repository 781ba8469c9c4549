#include "mailbox.hpp"

#include <cstdio>
#include <platform/sdk/random.hpp>

namespace mail {

using platform::json;

std::string Mailbox::new_id() const {
    char seq[17];
    std::snprintf(seq, sizeof seq, "%016llx",
                  static_cast<unsigned long long>(platform::next_sequence(host_.now_ms())));
    return "m" + std::string(seq) + platform::random_hex(4);
}

json Mailbox::deliver(const std::string& account, const Incoming& in) const {
    const std::string id = new_id(), date = platform::rfc3339(host_.now_ms());
    const json tag = in.tag.empty() ? json(nullptr) : json(in.tag);
    json letter = {
        {"id", id},        {"from", in.from}, {"to", in.to}, {"subject", in.subject},
        {"body", in.body}, {"date", date},    {"tag", tag},  {"attachments", in.attachments},
        {"via", in.via}};
    if (!in.message_id.empty()) letter["message_id"] = in.message_id;
    if (!in.in_reply_to.empty()) letter["in_reply_to"] = in.in_reply_to;
    if (!in.thread.empty()) letter["thread"] = in.thread;
    if (in.via == "smtp") {
        auto text = [](const std::string& v) { return v.empty() ? json(nullptr) : json(v); };
        letter["mail_from"] = in.mail_from;
        letter["dkim"] = in.dkim.empty() ? "none" : in.dkim;
        letter["dkim_domain"] = text(in.dkim_domain);
        letter["sent"] = text(in.sent);
    }
    for (std::size_t n = 0; n < in.files.size(); ++n) {
        const Attachment& a = in.files[n];
        attachments(account).put(id + "." + std::to_string(n + 1),
                                 {{"name", a.name},
                                  {"type", a.type},
                                  {"size", a.data.size()},
                                  {"data", platform::base64_encode(a.data)}});
    }
    letters(account).put(id, letter);
    json entry = {{"id", id},     {"from", in.from}, {"to", in.to}, {"subject", in.subject},
                  {"date", date}, {"read", false},   {"tag", tag}};
    index(account).put(id, entry);
    return entry;
}

json Mailbox::keep_sent(const std::string& account, json letter) const {
    const std::string id = new_id();
    letter["id"] = id;
    letter["date"] = platform::rfc3339(host_.now_ms());
    sent(account).put(id, letter);
    counts(account).update("sent", [](const std::optional<json>& cur) -> std::optional<json> {
        return json{{"sent", (cur ? cur->value("sent", uint64_t{0}) : 0) + 1}};
    });
    return letter;
}

std::vector<json> Mailbox::entries(const std::string& account, const std::string& tag) const {
    platform::ScanOptions o;
    o.descending = true;
    std::vector<json> out;
    for (auto& [id, entry] : index(account).list(o))
        if (tag.empty() || entry.value("tag", json(nullptr)) == tag)
            out.push_back(std::move(entry));
    return out;
}

std::vector<json> Mailbox::page(const std::string& account, uint32_t offset, uint32_t limit) const {
    platform::ScanOptions o;
    o.descending = true;
    o.offset = offset;
    o.limit = limit;
    std::vector<json> out;
    for (auto& [id, entry] : index(account).list(o)) out.push_back(std::move(entry));
    return out;
}

std::optional<json> Mailbox::letter(const std::string& account, const std::string& id) const {
    if (!index(account).get(id)) return std::nullopt;
    return letters(account).get(id);
}

std::optional<json> Mailbox::attachment(const std::string& account, const std::string& id,
                                        int64_t n) const {
    if (!index(account).get(id)) return std::nullopt;
    return attachments(account).get(id + "." + std::to_string(n));
}

bool Mailbox::mark_read(const std::string& account, const std::string& id) const {
    if (!index(account).get(id)) return false;
    bool found = false;
    index(account).update(id, [&](const std::optional<json>& cur) -> std::optional<json> {
        found = cur.has_value();
        if (!cur) return std::nullopt;  // never: entries are not deleted
        json next = *cur;
        next["read"] = true;
        return next;
    });
    return found;
}

uint64_t Mailbox::sent_total(const std::string& account) const {
    auto c = counts(account).get("sent");
    return c ? c->value("sent", uint64_t{0}) : 0;
}

}  // namespace mail
