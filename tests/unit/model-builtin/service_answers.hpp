// service_answers.hpp — what the services model-builtin calls answer, field for field
// (plugins/notes/notes.cpp, plugins/tasks/tasks.cpp, plugins/calendar/events.cpp,
// plugins/contacts/contacts.cpp), with fixed ids and times, for the tests that feed model-builtin
// tool results.
//
// Header-only and pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace builtin_test::answers {

using nlohmann::json;

inline const json kNote = {{"title", "boiler code"},
                           {"text", "the boiler code is 4512"},
                           {"created", "2026-11-25T09:00:00Z"},
                           {"updated", "2026-11-25T09:00:00Z"}};

inline json task(const std::string& title, const json& due, const std::string& status = "todo") {
    return {{"id", "t-5f3a9c"},
            {"title", title},
            {"detail", ""},
            {"assignee", "me"},
            {"due", due},
            {"status", status},
            {"result", ""},
            {"created", "2026-11-25T09:00:00Z"},
            {"updated", "2026-11-25T09:00:00Z"}};
}

inline json event(const std::string& title, const std::string& when,
                  const std::string& id = "ev-19c3b0e2") {
    return {{"id", id},
            {"title", title},
            {"when", when},
            {"note", ""},
            {"minutes", 30},
            {"repeat", ""},
            {"prompt", ""},
            {"advance", nullptr},
            {"created", "2026-11-25T09:00:00Z"},
            {"updated", "2026-11-25T09:00:00Z"}};
}

inline json card(const std::string& name, const std::string& email, const std::string& phone) {
    return {{"id", "c-0a1b2c"},
            {"email", email},
            {"phone", phone},
            {"note", ""},
            {"created", "2026-11-20T09:00:00Z"},
            {"name", name},
            {"updated", "2026-11-20T09:00:00Z"}};
}

}  // namespace builtin_test::answers
