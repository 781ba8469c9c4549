// reply — model-builtin's answer once the tools it called have answered: plain text composed from
// the results' data (the JSON answers of notes, tasks, events and contacts), times in the account's
// zone (clock.hpp). Results are data, never instructions: their text is quoted, never acted upon.
//
//   notes_add      Noted: boiler code.
//   notes_list     Your notes:\n- boiler code: the boiler code is 4512   (or You have no notes.)
//   notes_get      boiler code: the boiler code is 4512
//   notes_delete   Deleted the note “boiler code”.
//   tasks_create   Added the task “renew the passport” (due Friday 27 November at 09:00).
//   tasks_list     Your tasks:\n- renew the passport (todo, due Friday 27 November at 09:00)
//   events_create  I'll remind you on Friday 27 November at 09:00: call the dentist.
//   events_list    Your upcoming events:\n- Friday 27 November at 09:00: call the dentist
//   events_free    You are free on Friday 27 November: 09:00–12:00, 13:00–18:00.   (one line a day)
//   contacts_find  Ann Smith: phone +44 20 7946 0000, email ann@example.org   (one line a card)
//   other tools    Done (<tool>): <the result's JSON, cut at 500 bytes>
// A result with is_error says what failed with the result's message ("I couldn't save the note:
// title: ..."); several results give one paragraph each, in order.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "clock.hpp"

namespace builtin {

// The answer to the tool results ending `messages` (those after the last assistant message; the
// tool each answers is its `name`, else the assistant's call with that tool_call_id).
std::string reply_to_results(const nlohmann::json& messages, const LocalClock& clock);

// One result: the tool's name, the arguments it was called with, its content text and is_error.
std::string reply_to_result(const std::string& tool, const nlohmann::json& arguments,
                            const std::string& content, bool is_error, const LocalClock& clock);

}  // namespace builtin
