// recall — the caller's earlier conversations with the assistant, to look back at. Service
// `v1.recall`:
//
//   conversation  GET {id*, limit (1-1000, 50)} -> {conversation: summary, messages: [...]}: the
//                 latest `limit` messages (the most recent kept), oldest first
//   list          GET {client (web | mail | cli: the channel it began on), limit (1-100, 20)} ->
//                 {conversations: [summary...]}, most recently active first
//
// summary = {id, title, channel, agent, created, updated, messages (how many), last}; a message
// is {seq, role, text, at, channel, agent}. Nothing is stored here: the conversations are the
// agent plugin's, read through its internal endpoints as the caller (common/conversations),
// so another account's id is 404. Reading changes no unread count (the inbox's business).
#pragma once

#include <platform/sdk.hpp>

class Recall {
public:
    static void describe(platform::ServiceSpec<Recall>& s);

    platform::json conversation(platform::Request& r);
    platform::json list(platform::Request& r);

    // An agent thread header as a recall summary.
    static platform::json summary(const platform::json& header);
};
