// The reading methods of Mail (mail.hpp): inbox, read, search, markread, source and sources.
#include <algorithm>

#include "mail.hpp"

using platform::json;

namespace {

// The byte where UTF-8 character `n` of `s` starts (s.size() when it has no more).
size_t byte_of_char(const std::string& s, size_t n) {
    size_t chars = 0;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == n) return i;
    return s.size();
}

// offset..offset+limit of `all`, as a JSON array.
json slice(std::vector<json> all, int64_t offset, int64_t limit) {
    json out = json::array();
    for (size_t i = static_cast<size_t>(offset); i < all.size() && out.size() < size_t(limit); ++i)
        out.push_back(std::move(all[i]));
    return out;
}

bool holds(const std::string& text, const std::string& lowered_query) {
    return platform::lower(text).find(lowered_query) != std::string::npos;
}

}  // namespace

json Mail::inbox(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string tag = tag_arg(r);
    const int64_t offset = r.integer("offset", 0, 0, 1000000),
                  limit = r.integer("limit", 10, 1, 100);
    std::vector<json> all = box_.entries(me, tag);
    const size_t total = all.size();
    return {{"messages", slice(std::move(all), offset, limit)}, {"total", total}};
}

json Mail::read(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string id = r.str("id");
    if (id.empty()) {  // the legacy summary
        std::vector<json> all = box_.entries(me);
        const auto unread = std::count_if(all.begin(), all.end(),
                                          [](const json& e) { return !e.value("read", false); });
        const size_t total = all.size();
        return {{"unread", unread}, {"total", total}, {"messages", slice(std::move(all), 0, 10)}};
    }
    const auto letter = box_.letter(me, id);
    if (!letter) throw platform::not_found("id: no letter " + id + " in your mailbox");
    const std::string body = letter->value("body", "");
    const auto length = static_cast<int64_t>(platform::utf8_length(body));
    const int64_t offset = r.integer("offset", 0, 0, mail::kMaxBody);
    const int64_t limit = r.integer("limit", mail::kPage, 1, mail::kPage);
    if (offset > length)
        throw platform::invalid_argument("offset: past the end of the body (" +
                                         std::to_string(length) + " characters)");
    const int64_t end = std::min(length, offset + limit);
    const size_t from = byte_of_char(body, size_t(offset));
    const size_t to = byte_of_char(body, size_t(end));
    json out = {{"id", id},
                {"subject", letter->value("subject", "")},
                {"from", letter->value("from", "")},
                {"to", letter->value("to", "")},
                {"date", letter->value("date", "")},
                {"tag", letter->value("tag", json(nullptr))},
                {"body", body.substr(from, to - from)},
                {"offset", offset},
                {"length", length},
                {"attachments", letter->value("attachments", json::array())},
                {"dkim", letter->value("dkim", json(nullptr))},
                {"dkim_domain", letter->value("dkim_domain", json(nullptr))}};
    if (letter->contains("thread")) out["thread"] = (*letter)["thread"];
    if (end < length) out["next_offset"] = end;
    return out;
}

json Mail::attachment(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string id = r.str("id");
    const int64_t n = r.integer("n", 1, 1, 1000);
    auto a = box_.attachment(me, id, n);
    if (!a)
        throw platform::not_found("id, n: no attachment " + std::to_string(n) + " of a letter " +
                                  id + " in your mailbox");
    (*a)["id"] = id;
    (*a)["n"] = n;
    return *a;
}

json Mail::search(platform::Request& r) {
    const std::string& me = caller(r);
    const std::string tag = tag_arg(r), query = platform::lower(r.str("query"));
    const int64_t offset = r.integer("offset", 0, 0, 1000000),
                  limit = r.integer("limit", 10, 1, 100);
    std::vector<json> found;
    for (json& entry : box_.entries(me, tag)) {
        if (!query.empty()) {
            const auto letter = box_.letter(me, entry.value("id", ""));
            if (!holds(entry.value("subject", ""), query) &&
                !holds(entry.value("from", ""), query) &&
                !(letter && holds(letter->value("body", ""), query)))
                continue;
        }
        found.push_back(std::move(entry));
    }
    const size_t total = found.size();
    return {{"messages", slice(std::move(found), offset, limit)}, {"total", total}};
}

json Mail::markread(platform::Request& r) {
    const std::string& me = caller(r);
    const json& args = r.args();
    const bool all = args.value("all", false);
    const json ids = args.value("ids", json::array());
    if (!all && ids.empty())
        throw platform::invalid_argument("ids: give the ids of letters to mark read, or all: true");
    size_t marked = 0;
    json unknown = json::array();
    if (all) {
        for (const json& e : box_.entries(me))
            if (!e.value("read", false) && box_.mark_read(me, e.value("id", ""))) ++marked;
    } else {
        for (const json& id : ids) {
            const std::string s = id.is_string() ? id.get<std::string>() : "";
            if (box_.mark_read(me, s))
                ++marked;
            else
                unknown.push_back(id);
        }
    }
    return {{"marked", marked}, {"unknown", unknown}};
}

json Mail::source(platform::Request& r) {
    const std::string id = r.str("id");
    const auto letter = box_.sent(caller(r)).get(id);
    if (!letter) throw platform::not_found("id: no letter " + id + " sent by you");
    return *letter;
}

json Mail::sources(platform::Request& r) {
    const std::string& me = caller(r);
    platform::ScanOptions o;
    o.descending = true;
    o.offset = static_cast<uint32_t>(r.integer("offset", 0, 0, 1000000));
    o.limit = static_cast<uint32_t>(r.integer("limit", 20, 1, 100));
    json ids = json::array();
    for (const auto& [id, letter] : box_.sent(me).list(o)) ids.push_back(id);
    return {{"sources", ids}, {"total", box_.sent_total(me)}};
}
