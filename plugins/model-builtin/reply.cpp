#include "reply.hpp"

#include <map>
#include <vector>

#include "common/model/neutral.hpp"
#include "outside_replies.hpp"

namespace builtin {

using nlohmann::json;

namespace {

std::string str(const json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : "";
}

// One line, at most `max` bytes (never cutting a UTF-8 character), "…" when cut.
std::string one_line(std::string s, size_t max = 200) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (s.size() <= max) return s;
    size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n) + "…";
}

std::string quoted(const std::string& s) {
    return "“" + one_line(s) + "”";
}

std::string with_stop(std::string s) {
    if (!s.empty() && s.back() != '.' && s.back() != '!' && s.back() != '?') s += '.';
    return s;
}

// "Friday 27 November at 09:00" for an RFC 3339 text; the text itself when it is not one.
std::string moment(const std::string& rfc3339, const LocalClock& clock) {
    int64_t at = 0;
    return parse_instant(rfc3339, at) ? clock.moment_text(at) : rfc3339;
}

json array_at(const json& data, const char* key) {
    return data.is_object() && data.contains(key) && data[key].is_array() ? data[key]
                                                                          : json::array();
}

std::string list(const std::string& header, const std::vector<std::string>& lines,
                 const std::string& none) {
    if (lines.empty()) return none;
    std::string out = header;
    for (const auto& l : lines) out += "\n- " + l;
    return out;
}

using Format = std::string (*)(const json& data, const json& args, const LocalClock& clock);

std::string note_line(const json& n) {
    return one_line(str(n, "title")) + ": " + one_line(str(n, "text"));
}

std::string notes_add(const json& d, const json& a, const LocalClock&) {
    const std::string title = str(d, "title").empty() ? str(a, "title") : str(d, "title");
    return "Noted: " + with_stop(one_line(title));
}
std::string notes_get(const json& d, const json&, const LocalClock&) {
    return note_line(d);
}
std::string notes_delete(const json& d, const json& a, const LocalClock&) {
    return "Deleted the note " +
           quoted(str(d, "deleted").empty() ? str(a, "title") : str(d, "deleted")) + ".";
}
std::string notes_list(const json& d, const json&, const LocalClock&) {
    std::vector<std::string> lines;
    for (const auto& n : array_at(d, "notes")) lines.push_back(note_line(n));
    return list("Your notes:", lines, "You have no notes.");
}

std::string task_line(const json& t, const LocalClock& clock) {
    std::string out =
        one_line(str(t, "title")) + " (" + (str(t, "status").empty() ? "todo" : str(t, "status"));
    if (!str(t, "due").empty()) out += ", due " + moment(str(t, "due"), clock);
    return out + ")";
}
std::string tasks_create(const json& d, const json&, const LocalClock& clock) {
    std::string out = "Added the task " + quoted(str(d, "title"));
    if (!str(d, "due").empty()) out += " (due " + moment(str(d, "due"), clock) + ")";
    return out + ".";
}
std::string tasks_list(const json& d, const json&, const LocalClock& clock) {
    std::vector<std::string> lines;
    for (const auto& t : array_at(d, "tasks")) lines.push_back(task_line(t, clock));
    return list("Your tasks:", lines, "You have no tasks.");
}
std::string task_one(const json& d, const json&, const LocalClock& clock) {
    return d.contains("task") && d["task"].is_null()
               ? "There is no task for the agent."
               : "Task: " + task_line(d.contains("task") ? d["task"] : d, clock) + ".";
}

std::string event_line(const json& e, const LocalClock& clock) {
    const std::string at = str(e, "next").empty() ? str(e, "when") : str(e, "next");
    std::string out = moment(at, clock) + ": " + one_line(str(e, "title"));
    if (!str(e, "repeat").empty()) out += " (repeats " + str(e, "repeat") + ")";
    return out;
}
std::string events_create(const json& d, const json&, const LocalClock& clock) {
    return "I'll remind you on " + moment(str(d, "when"), clock) + ": " +
           with_stop(one_line(str(d, "title")));
}
std::string events_list(const json& d, const json&, const LocalClock& clock) {
    std::vector<std::string> lines;
    for (const auto& e : array_at(d, "events")) lines.push_back(event_line(e, clock));
    return list("Your upcoming events:", lines, "You have no upcoming events.");
}
std::string events_free(const json& d, const json&, const LocalClock& clock) {
    std::vector<std::pair<int64_t, std::string>> days;  // local day, "09:00–12:00, 13:00–18:00"
    for (const auto& s : array_at(d, "slots")) {
        int64_t from = 0, to = 0;
        if (!parse_instant(str(s, "start"), from) || !parse_instant(str(s, "end"), to)) continue;
        const int64_t day = clock.day_of(from);
        std::string range = clock.time_text(from) + "–" + clock.time_text(to);
        if (clock.day_of(to) != day && clock.time_text(to) != "00:00")
            range += " " + clock.day_text(clock.day_of(to));
        if (days.empty() || days.back().first != day)
            days.emplace_back(day, range);
        else
            days.back().second += ", " + range;
    }
    if (days.empty()) {
        const auto minutes = d.is_object() && d.contains("minutes") && d["minutes"].is_number()
                                 ? d["minutes"].dump()
                                 : "30";
        std::string out = "You have no free time of at least " + minutes + " minutes";
        if (!str(d, "from").empty() && !str(d, "to").empty())
            out +=
                " between " + moment(str(d, "from"), clock) + " and " + moment(str(d, "to"), clock);
        return out + ".";
    }
    if (days.size() == 1)
        return "You are free on " + clock.day_text(days[0].first) + ": " + days[0].second + ".";
    std::vector<std::string> lines;
    for (const auto& [day, ranges] : days) lines.push_back(clock.day_text(day) + ": " + ranges);
    return list("You are free:", lines, "");
}

std::string contact_line(const json& c) {
    std::vector<std::string> parts;
    if (!str(c, "phone").empty()) parts.push_back("phone " + one_line(str(c, "phone")));
    if (!str(c, "email").empty()) parts.push_back("email " + one_line(str(c, "email")));
    std::string out = one_line(str(c, "name")) + ": ";
    if (parts.empty()) return out + "no phone or email";
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
    return out;
}
std::string contacts_find(const json& d, const json& a, const LocalClock&) {
    std::vector<std::string> lines;
    for (const auto& c : array_at(d, "contacts")) lines.push_back(contact_line(c));
    if (lines.size() == 1) return lines[0];
    const std::string none = str(a, "query").empty()
                                 ? "You have no contacts."
                                 : "No contact matches " + quoted(str(a, "query")) + ".";
    return list("Contacts:", lines, none);
}

struct Tool {
    const char* action;  // "I couldn't <action>: ..."
    Format format;
};
const std::map<std::string, Tool>& tools() {
    static const std::map<std::string, Tool> all = {
        {"notes_add", {"save the note", notes_add}},
        {"notes_get", {"read the note", notes_get}},
        {"notes_delete", {"delete the note", notes_delete}},
        {"notes_list", {"list your notes", notes_list}},
        {"tasks_create", {"add the task", tasks_create}},
        {"tasks_list", {"list your tasks", tasks_list}},
        {"tasks_read", {"read the task", task_one}},
        {"tasks_update", {"update the task", task_one}},
        {"tasks_next", {"find the next task", task_one}},
        {"events_create", {"create the reminder", events_create}},
        {"events_list", {"list your events", events_list}},
        {"events_free", {"find free time", events_free}},
        {"contacts_find", {"find the contact", contacts_find}},
        {"contacts_list", {"list your contacts", contacts_find}},
        {"weather_lookup", {"look up the weather", weather_text}},
        {"prayer_times", {"work out the prayer times", prayer_text}},
        {"hazards_quakes", {"look up earthquakes", quakes_text}},
    };
    return all;
}

std::string error_message(const std::string& content) {
    const json e = json::parse(content, nullptr, false);
    std::string m;
    if (e.is_object()) {
        if (e.contains("error") && e["error"].is_object()) m = str(e["error"], "message");
        if (m.empty()) m = str(e, "error");
        if (m.empty()) m = str(e, "message");
    }
    if (m.empty()) m = content;
    m = one_line(m, 300);
    return m.empty() ? "the call failed" : m;
}

}  // namespace

std::string reply_to_result(const std::string& tool, const json& arguments,
                            const std::string& content, bool is_error, const LocalClock& clock) {
    const auto& known = tools();
    const auto it = known.find(tool);
    if (is_error) {
        const std::string action = it != known.end() ? it->second.action : "use " + tool;
        return "I couldn't " + action + ": " + with_stop(error_message(content));
    }
    const json data = json::parse(content, nullptr, false);
    if (it != known.end() && data.is_object()) return it->second.format(data, arguments, clock);
    return "Done (" + tool + "): " + one_line(data.is_discarded() ? content : data.dump(), 500);
}

std::string reply_to_results(const json& messages, const LocalClock& clock) {
    size_t first = messages.size();
    while (first > 0 && messages[first - 1].value("role", "") == "tool") --first;
    std::map<std::string, json> calls;  // tool_call_id -> the call
    if (first > 0 && messages[first - 1].contains("tool_calls") &&
        messages[first - 1]["tool_calls"].is_array())
        for (const auto& c : messages[first - 1]["tool_calls"])
            if (c.is_object() && c.contains("id") && c["id"].is_string())
                calls[c["id"].get<std::string>()] = c;
    std::string out;
    for (size_t i = first; i < messages.size(); ++i) {
        const json& m = messages[i];
        const auto call = calls.find(str(m, "tool_call_id"));
        std::string tool = str(m, "name");
        if (tool.empty() && call != calls.end()) tool = str(call->second, "name");
        const json args = call != calls.end() && call->second.contains("arguments")
                              ? common::model::arguments_object(call->second["arguments"], nullptr)
                              : json::object();
        const bool is_error =
            m.contains("is_error") && m["is_error"].is_boolean() && m["is_error"].get<bool>();
        const std::string text =
            common::model::content_text(m.contains("content") ? m["content"] : json());
        out += (out.empty() ? "" : "\n\n") +
               reply_to_result(tool.empty() ? "a tool" : tool, args, text, is_error, clock);
    }
    return out;
}

}  // namespace builtin
