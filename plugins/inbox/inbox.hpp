// inbox — the hosted assistant's inbox (README.md):
// the caller's recent conversations across channels (web, mail, cli) with their unread counts,
// their latest messages, and marking them read or unread. Service `v1.inbox`:
//
//   list         GET  {limit (1-100, 20)} -> {items: [item...]}, most recently active first;
//                does not mark anything read
//   read         GET  {id*, limit (1-100, 20)} -> item + {messages: [...]}, the latest messages
//                oldest first; does not change unread. Also surface A: GET /inbox/<thread_id>
//   mark_read    POST {id*} -> the item, unread 0
//   mark_unread  POST {id*} -> the item, unread 1
//
// item = {id, title, channel (where it began), unread, updated, last: {role, text, at, channel}}.
// Nothing is stored here: the conversations are the agent plugin's, read and marked through its
// internal endpoints as the caller (common/conversations), so another account's id is 404.
#pragma once

#include <platform/sdk.hpp>

class Inbox {
public:
    static void describe(platform::ServiceSpec<Inbox>& s);
    explicit Inbox(const platform::Host&) {}

    platform::json list(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json mark_read(platform::Request& r);
    platform::json mark_unread(platform::Request& r);

    // An agent thread header as an inbox item.
    static platform::json item(const platform::json& header);

private:
    platform::json mark(platform::Request& r, bool unread);
};
