#include "threads.hpp"

#include <algorithm>
#include <cstdio>

using platform::json;

namespace agent {

namespace {
std::string padded(int64_t n, int width) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*lld", width, static_cast<long long>(n));
    return buf;
}
}  // namespace

std::string excerpt(const std::string& text, size_t chars) {
    const std::string line = platform::first_line(text);
    const std::string cut = platform::utf8_prefix(line, chars);
    return cut.size() < line.size() ? cut + "…" : line;
}

Threads::Threads(const platform::Request& r)
    : threads_(r.owned("threads")), messages_(r.owned("messages")), recent_(r.owned("recent")) {}

std::string Threads::new_id(const std::string& seed, int64_t now_ms) const {
    for (int attempt = 0;; ++attempt) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "th-%012llx-",
                      static_cast<unsigned long long>(std::max<int64_t>(now_ms, 0)));
        const std::string id = buf + platform::hash_id(seed, attempt).substr(0, 6);
        if (!find(id)) return id;
    }
}

std::string Threads::message_key(const std::string& id, int64_t seq) {
    return id + "/" + padded(seq, 10);
}

std::string Threads::recent_key(int64_t updated_ms, const std::string& id) {
    return padded(std::max<int64_t>(updated_ms, 0), 15) + "-" + id;
}

std::optional<json> Threads::find(const std::string& id) const {
    if (id.empty() || id.find('/') != std::string::npos) return std::nullopt;
    return threads_.get(id);
}

json Threads::open(const std::string& id) const {
    auto header = find(id);
    if (!header) throw platform::not_found("thread: no such conversation");
    return *header;
}

std::vector<json> Threads::messages(const std::string& id, size_t limit) const {
    platform::ScanOptions o;
    o.prefix = id + "/";
    o.descending = true;
    o.limit = static_cast<uint32_t>(limit);
    std::vector<json> out;
    for (auto& [key, message] : messages_.list(o)) out.push_back(std::move(message));
    std::reverse(out.begin(), out.end());
    return out;
}

json Threads::append(const std::string& id, const json& fresh, std::vector<json> added,
                     int unread_delta, int64_t now_ms) const {
    const std::string at = platform::rfc3339(now_ms);
    int64_t previous_ms = -1, first_seq = 1;
    auto header = threads_.update(id, [&](const std::optional<json>& cur) -> std::optional<json> {
        json h = cur ? *cur : fresh;
        if (!cur) {
            h["id"] = id;
            h["created"] = at;
            h["created_ms"] = now_ms;
            h["messages"] = 0;
            h["unread"] = 0;
        }
        previous_ms = cur ? h.value("updated_ms", int64_t(0)) : -1;
        first_seq = h.value("messages", int64_t(0)) + 1;
        h["messages"] = first_seq - 1 + static_cast<int64_t>(added.size());
        h["unread"] = std::max<int64_t>(0, h.value("unread", int64_t(0)) + unread_delta);
        h["updated"] = at;
        h["updated_ms"] = now_ms;
        if (!added.empty()) {
            const json& last = added.back();
            h["last"] = {{"role", last.value("role", "")},
                         {"text", excerpt(last.value("text", ""), 200)},
                         {"at", at},
                         {"channel", last.value("channel", "")}};
        }
        return h;
    });
    std::vector<platform::JsonWrite> writes;
    for (size_t i = 0; i < added.size(); ++i) {
        json& m = added[i];
        m["seq"] = first_seq + static_cast<int64_t>(i);
        m["at"] = at;
        m["at_ms"] = now_ms;
        writes.push_back(platform::JsonWrite::put(message_key(id, m["seq"].get<int64_t>()), m));
    }
    messages_.batch(writes);
    std::vector<platform::JsonWrite> index;
    if (previous_ms >= 0 && previous_ms != now_ms)
        index.push_back(platform::JsonWrite::erase(recent_key(previous_ms, id)));
    index.push_back(platform::JsonWrite::put(
        recent_key(now_ms, id), {{"thread", id}, {"channel", header->value("channel", "")}}));
    recent_.batch(index);
    return *header;
}

std::vector<json> Threads::recent(size_t limit, const std::string& channel) const {
    platform::ScanOptions o;
    o.descending = true;
    std::vector<json> out;
    for (auto& [key, entry] : recent_.list(o)) {
        if (!channel.empty() && entry.value("channel", "") != channel) continue;
        auto header = threads_.get(entry.value("thread", ""));
        if (!header || header->value("updated_ms", int64_t(-1)) != std::stoll(key.substr(0, 15)))
            continue;  // stale
        out.push_back(std::move(*header));
        if (limit && out.size() == limit) break;
    }
    return out;
}

json Threads::set_unread(const std::string& id, int unread) const {
    open(id);
    auto header = threads_.update(id, [&](const std::optional<json>& cur) -> std::optional<json> {
        if (!cur) throw platform::not_found("thread: no such conversation");
        json h = *cur;
        h["unread"] = unread;
        return h;
    });
    return *header;
}

}  // namespace agent
