// work_commands.cpp — `platform work` and `platform inbox` (plugins/work, plugins/inbox):
// positional ids, tables on a terminal, and `work get --wait`, which follows a job with one long
// poll after another (work/get `wait`, answered as soon as the job ends) and draws a progress line
// on a terminal, redrawn every second.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kWorkHelp =
    "Background work (platform submit makes it).\n\n"
    "Usage:\n"
    "  platform work get <id> [--wait] [--timeout 30m] [--json]   status, steps and result; --wait "
    "follows it\n"
    "  platform work list [--status todo|doing|done|failed|blocked] [--limit 20] [--offset 0]\n"
    "  platform work retry <id>                 run failed or blocked work again (its side effects "
    "may repeat)\n\n"
    "Exit codes of get --wait: 0 done, 1 failed, 6 blocked (out of allowance and credit).\n";

const char* kInboxHelp =
    "Conversations with the assistant across channels (web, mail, cli). Reading never marks "
    "read.\n\n"
    "Usage:\n"
    "  platform inbox list [--limit 20]\n"
    "  platform inbox read <id> [--limit 20]    the latest messages, oldest first\n"
    "  platform inbox mark_read <id>\n"
    "  platform inbox mark_unread <id>\n";

bool terminal_job(const std::string& status) {
    return status == "done" || status == "failed" || status == "blocked";
}

// The words of args that are not flags, and each --flag value (or --flag=value) in `flags`.
struct Words {
    std::vector<std::string> positional;
    std::map<std::string, std::string> flags;
    bool has(const std::string& f) const { return flags.count(f) > 0; }
};
Words split(const Args& args, const std::set<std::string>& valued,
            const std::set<std::string>& bare) {
    Words w;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 2 || a[0] != '-') {
            w.positional.push_back(a);
            continue;
        }
        const auto eq = a.find('=');
        const std::string name = a.substr(0, eq);
        if (bare.count(name) && eq == std::string::npos) {
            w.flags[name] = "true";
        } else if (valued.count(name)) {
            if (eq != std::string::npos)
                w.flags[name] = a.substr(eq + 1);
            else if (i + 1 < args.size())
                w.flags[name] = args[++i];
            else
                throw UsageError(name + ": needs a value");
        } else {
            throw UsageError("Unknown flag: " + a);
        }
    }
    return w;
}
int number(const Words& w, const std::string& flag, int fallback) {
    if (!w.has(flag)) return fallback;
    try {
        size_t used = 0;
        const int v = std::stoi(w.flags.at(flag), &used);
        if (used == w.flags.at(flag).size()) return v;
    } catch (const std::exception&) {
    }
    throw UsageError(flag + ": must be a whole number");
}
std::string one_id(const Words& w, const std::string& usage) {
    if (w.positional.size() != 1) throw UsageError("Usage: " + usage);
    return w.positional[0];
}
std::string text_of(const json& j, const char* key) {
    auto it = j.find(key);
    return it == j.end() || it->is_null() ? ""
           : it->is_string()              ? it->get<std::string>()
                                          : it->dump();
}
std::string cut(std::string s, size_t n) {
    for (auto& c : s)
        if (c == '\n') c = ' ';
    return s.size() > n ? s.substr(0, n - 1) + "…" : s;
}
// The first array in an answer ({work: [...]}, {items: [...]}, ...), or the answer itself.
json first_array(const json& body) {
    if (body.is_array()) return body;
    for (const auto& [_, v] : body.items())
        if (v.is_array()) return v;
    return json::array();
}

std::string steps_text(const json& steps) {
    std::string out;
    for (const auto& s : steps) {
        out += (out.empty() ? "" : ", ") + text_of(s, "tool");
        out += text_of(s, "outcome") == "ok" ? " ✓" : " ✗";
    }
    return out;
}

void print_work(const json& work) {
    std::cout << "id       " << text_of(work, "id") << "\nstatus   " << text_of(work, "status")
              << "\n";
    if (!text_of(work, "thread").empty())
        std::cout << "thread   " << text_of(work, "thread") << "\n";
    if (!text_of(work, "error").empty()) std::cout << "error    " << text_of(work, "error") << "\n";
    const json steps = work.value("steps", json::array());
    for (size_t i = 0; i < steps.size(); ++i)
        std::cout << (i ? "         " : "steps    ") << text_of(steps[i], "tool") << " "
                  << text_of(steps[i], "outcome") << " (" << text_of(steps[i], "seconds")
                  << " s)\n";
    if (!text_of(work, "result").empty()) std::cout << "\n" << text_of(work, "result") << "\n";
}

// work/get answers {work: {...}} on surface A and the record itself on the catalogue: either.
json work_of(const json& body) {
    return body.contains("work") && body["work"].is_object() ? body["work"] : body;
}

int work_get(const Words& w, bool json_out) {
    const std::string id = one_id(w, "platform work get <id> [--wait]");
    if (w.has("--wait")) {
        const double timeout =
            w.has("--timeout") ? parse_duration("--timeout", w.flags.at("--timeout")) : 1800;
        return follow_work(id, json_out, timeout);
    }
    auto r = RpcClient().call("work", "Work.Get", {{"id", id}}, CallOptions::reads());
    if (!r.ok()) return report(r);
    if (json_out) return print(std::cout, r.body, Format::json), 0;
    print_work(work_of(r.body));
    return 0;
}

int work_list(const Words& w, const Common& c) {
    json req = {{"limit", number(w, "--limit", 20)}, {"offset", number(w, "--offset", 0)}};
    if (w.has("--status")) req["status"] = w.flags.at("--status");
    auto r = RpcClient().call("work", "Work.List", req, CallOptions::reads());
    if (!r.ok()) return report(r);
    const Format f = c.format.value_or(isatty(STDOUT_FILENO) ? Format::table : Format::json);
    if (f != Format::table) return print(std::cout, r.body, f), 0;
    std::vector<std::vector<std::string>> rows;
    for (const auto& job : first_array(r.body))
        rows.push_back({text_of(job, "id"), text_of(job, "status"), text_of(job, "created"),
                        cut(text_of(job, "prompt"), 50)});
    print_table(std::cout, {"id", "status", "created", "prompt"}, rows);
    return 0;
}

}  // namespace

int follow_work(const std::string& id, bool json_out, double timeout_seconds) {
    const bool live = isatty(STDERR_FILENO);
    const auto start = std::chrono::steady_clock::now();
    const char* spin[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
    std::string last_status;
    for (int tick = 0;; ++tick) {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed > timeout_seconds) {
            if (live) std::cerr << "\r\033[K";
            std::cerr << "error: work " << id << " is still " << last_status << " after "
                      << static_cast<int>(elapsed) << " s (platform work get " << id
                      << " --wait to follow it again)\n";
            return 1;
        }
        // A long poll: answered as soon as the job ends, else after `wait` seconds (each answer
        // shows the status then, so a change to doing is printed within that).
        auto r = RpcClient().call("work", "Work.Get", {{"id", id}, {"wait", live ? 1 : 5}},
                                  CallOptions::reads());
        if (!r.ok()) {
            if (live) std::cerr << "\r\033[K";
            return report(r);
        }
        const json work = work_of(r.body);
        const std::string status = text_of(work, "status");
        const std::string steps = steps_text(work.value("steps", json::array()));
        if (live) {
            char line[64];
            std::snprintf(line, sizeof line, "%s %s · %ds", spin[tick % 10], status.c_str(),
                          static_cast<int>(elapsed));
            std::cerr << "\r\033[K" << line << (steps.empty() ? "" : " · " + steps) << std::flush;
        } else if (status != last_status) {
            std::cerr << "work " << id << ": " << status << "\n";
        }
        last_status = status;
        if (!terminal_job(status)) continue;
        if (live)
            std::cerr << "\r\033[K" << status << " in " << static_cast<int>(elapsed) << " s"
                      << (steps.empty() ? "" : " · " + steps) << "\n";
        if (json_out)
            print(std::cout, r.body, Format::json);
        else if (status == "done")
            std::cout << text_of(work, "result") << "\n";
        else
            std::cerr << "error: " << text_of(work, "error") << "\n";
        return status == "done" ? 0 : status == "blocked" ? 6 : 1;
    }
}

int work_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help || args.empty()) return std::cout << kWorkHelp, c.help ? 0 : 2;
        const std::string verb = args[0];
        Words w = split(Args(args.begin() + 1, args.end()),
                        {"--status", "--limit", "--offset", "--timeout"}, {"--wait", "--json"});
        const bool json_out = w.has("--json") || c.format == Format::json;
        if (verb == "get") return work_get(w, json_out);
        if (verb == "list") return work_list(w, c);
        if (verb == "retry") {
            auto r =
                RpcClient().call("work", "Work.Retry",
                                 {{"id", one_id(w, "platform work retry <id>")}}, CallOptions{});
            if (!r.ok()) return report(r);
            std::cerr << "queued again: platform work get " << w.positional[0] << " --wait\n";
            return json_out ? (print(std::cout, r.body, Format::json), 0) : 0;
        }
        throw UsageError("Unknown work command: " + verb + " (get, list, retry)");
    });
}

int inbox_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help || args.empty()) return std::cout << kInboxHelp, c.help ? 0 : 2;
        const std::string verb = args[0];
        Words w = split(Args(args.begin() + 1, args.end()), {"--limit"}, {});
        const Format f = c.format.value_or(isatty(STDOUT_FILENO) ? Format::table : Format::json);
        if (verb == "mark_read" || verb == "mark_unread") {
            const std::string method = verb == "mark_read" ? "Inbox.MarkRead" : "Inbox.MarkUnread";
            auto r = RpcClient().call("inbox", method,
                                      {{"id", one_id(w, "platform inbox " + verb + " <id>")}},
                                      CallOptions{});
            if (!r.ok()) return report(r);
            return f == Format::table ? 0 : (print(std::cout, r.body, f), 0);
        }
        json req = {{"limit", number(w, "--limit", 20)}};
        if (verb == "read")
            req["id"] = one_id(w, "platform inbox read <id> [--limit 20]");
        else if (verb != "list")
            throw UsageError("Unknown inbox command: " + verb +
                             " (list, read, mark_read, mark_unread)");
        auto r = RpcClient().call("inbox", verb == "list" ? "Inbox.List" : "Inbox.Read", req,
                                  CallOptions::reads());
        if (!r.ok()) return report(r);
        if (f != Format::table) return print(std::cout, r.body, f), 0;
        std::vector<std::vector<std::string>> rows;
        if (verb == "list") {
            for (const auto& t : first_array(r.body))
                rows.push_back({text_of(t, "id"), text_of(t, "unread"), text_of(t, "channel"),
                                text_of(t, "updated"), cut(text_of(t, "title"), 50)});
            print_table(std::cout, {"id", "unread", "channel", "updated", "title"}, rows);
            return 0;
        }
        for (const auto& m : first_array(r.body))
            std::cout << paint(std::cout, "1", text_of(m, "role")) << " · " << text_of(m, "at")
                      << "\n"
                      << text_of(m, "text") << "\n\n";
        return 0;
    });
}

}  // namespace platform::cli
