// threads — the caller's conversations with the assistant, shared by every channel (web, mail,
// cli), in the agent plugin's store, owner-scoped (Request::owned): another account's
// thread id reads as absent.
//
// Record layout (three owner-scoped collections; keys are under "<collection>/<owner>/"):
//
//   threads/<id>            the thread's header, one small record:
//       {"id", "title" (the first prompt's first line, <= 80 characters), "channel" (where it
//        began: web | mail | cli), "agent" (the agent it began with), "created", "updated"
//        (RFC 3339 UTC, business clock), "created_ms", "updated_ms", "messages" (how many),
//        "unread" (assistant replies not yet read; inbox mark_read sets 0, mark_unread 1),
//        "last": {"role", "text" (<= 200 characters), "at", "channel"}}
//   messages/<id>/<seq>     one message; <seq> is 1, 2, 3... zero-padded to 10 digits, so a
//                           prefix scan in ascending order is the conversation and a descending
//                           scan with a limit is its latest messages:
//       {"seq", "role": "user" | "assistant", "text", "at", "at_ms", "channel", "agent",
//        "steps" (assistant: [{"tool", "arguments", "outcome": "ok" | "error", "seconds",
//                              "error"?}]), "model"? (assistant: the model that answered)}
//   recent/<updated_ms>-<id>  the activity index: {"thread", "channel"}; <updated_ms> is
//                           zero-padded to 15 digits, so a descending scan lists threads most
//                           recently active first (inbox list, recall list). Rewritten (old key
//                           deleted) whenever the thread changes.
//
// Thread ids are time-ordered ("th-<12 hex ms>-<6 hex>", see new_id). The header is
// changed by compare-and-set (two replies to one thread at once both land, with distinct
// sequence numbers); its messages and index entry are then written in one batch.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace agent {

class Threads {
public:
    explicit Threads(const platform::Request& r);

    // A free id for a new thread begun at now_ms with `seed` (its first prompt):
    // "th-<12 hex ms>-<6 hex of the seed's hash>", the hash moved on while the caller has that id.
    // Time-ordered, and a function of what is asked and when, so the same first ask made by two
    // fresh accounts answers the same (MCP/HTTP parity).
    std::string new_id(const std::string& seed, int64_t now_ms) const;

    // The caller's thread header, or nullopt (absent or someone else's).
    std::optional<platform::json> find(const std::string& id) const;
    // As find, but 404 "thread: no such conversation" when absent.
    platform::json open(const std::string& id) const;

    // The thread's latest `limit` messages (0 = all), oldest first.
    std::vector<platform::json> messages(const std::string& id, size_t limit = 0) const;

    // Appends `added` (each {role, text, channel, agent, steps?, model?}; seq and at are set
    // here) to thread `id`, creating it from `fresh` ({title, channel, agent}) when it does not
    // exist, and adds `unread_delta` to its unread count. Returns the new header.
    platform::json append(const std::string& id, const platform::json& fresh,
                          std::vector<platform::json> added, int unread_delta,
                          int64_t now_ms) const;

    // Headers of the most recently active threads first, at most `limit` (0 = all), only those
    // that began on `channel` when it is not empty.
    std::vector<platform::json> recent(size_t limit, const std::string& channel = "") const;

    // Sets the unread count; 404 for a thread that is not the caller's.
    platform::json set_unread(const std::string& id, int unread) const;

private:
    static std::string message_key(const std::string& id, int64_t seq);
    static std::string recent_key(int64_t updated_ms, const std::string& id);

    platform::Collection threads_, messages_, recent_;
};

// The first line of `text`, at most `chars` UTF-8 characters ("…" appended when cut).
std::string excerpt(const std::string& text, size_t chars);

}  // namespace agent
