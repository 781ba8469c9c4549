// assistant_commands.cpp — `platform ask` over the agent service and `platform submit` over the
// work service (plugins/agent, plugins/work). Calls are sent with `X-Platform-Client: cli`, so the
// conversation shows under the cli channel of the inbox. Submissions are never retried (a lost
// answer could mean the job runs twice).
#include <unistd.h>

#include <iostream>
#include <iterator>
#include <platform/sdk/schema.hpp>

#include "common.hpp"
#include "environments.hpp"
#include "state_files.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

// The agent's prompt limit, as every surface states it.
const std::string kPromptLimit =
    "The prompt is at most " + std::to_string(platform::schema::kPromptMaxBytes) + " bytes. ";

const std::string kAskHelp =
    "Ask the assistant. The reply is printed; the conversation's id goes to stderr, and the next\n"
    "`--continue` (or `--thread <id>`) carries the conversation on.\n\n"
    "Examples:\n"
    "  platform ask \"note that the boiler code is 4512\"\n"
    "  platform ask --continue \"what are my notes\"\n"
    "  platform ask --agent planner \"what's free on Friday\"\n"
    "  echo \"summarise my tasks\" | platform ask\n"
    "  platform ask --json \"find Ann's number\"     {\"text\": ..., \"thread\": ...}\n\n"
    "Usage: platform ask [--agent <name>] [--thread <id> | --continue] [--json] [--timeout 2m] "
    "<prompt>\n\n" +
    kPromptLimit + "Needs an account token with the `agent` capability.\n";

const std::string kSubmitHelp =
    "Submit a prompt as background work. Prints the job's id; `platform work get <id> --wait` "
    "follows\n"
    "it (or give --wait here). Never resubmit after a lost answer: check `platform work list` "
    "first.\n\n"
    "Examples:\n"
    "  platform submit \"add a task to renew the passport\"\n"
    "  platform submit --wait \"what's free on Friday\"\n"
    "  platform submit --continue \"and remind me the day before\"   (the result lands in that "
    "conversation)\n\n"
    "Usage: platform submit [--agent <name>] [--thread <id> | --continue] [--wait] [--json] "
    "<prompt>\n\n" +
    kPromptLimit + "Needs a token with the `work` capability and Allow actions.\n";

// $PLATFORM_HOME/threads.json: {"<environment>": "<last thread id>"}.
std::string threads_path() {
    return platform_home() + "/threads.json";
}

std::string last_thread() {
    json all = read_state(threads_path());
    const json& t = all[selected_environment()];
    return t.is_string() ? t.get<std::string>() : std::string();
}

void remember_thread(const std::string& id) {
    json all = read_state(threads_path());
    all[selected_environment()] = id;
    write_state(threads_path(), all);
}

struct AskArgs {
    std::string prompt, agent, thread;
    bool cont = false, json_out = false, wait = false;
    double timeout = 300;
};

AskArgs parse_ask(const Args& args) {
    AskArgs a;
    std::string words;
    bool rest = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& w = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw UsageError(w + ": needs a value");
            return args[++i];
        };
        if (rest || w.empty() || w[0] != '-' || w == "-") {
            words += (words.empty() ? "" : " ") + w;
        } else if (w == "--") {
            rest = true;
        } else if (w == "--agent" || w == "-a") {
            a.agent = value();
        } else if (w.rfind("--agent=", 0) == 0) {
            a.agent = w.substr(8);
        } else if (w == "--thread" || w == "-t") {
            a.thread = value();
        } else if (w.rfind("--thread=", 0) == 0) {
            a.thread = w.substr(9);
        } else if (w == "--continue" || w == "-c") {
            a.cont = true;
        } else if (w == "--wait" || w == "-w") {
            a.wait = true;
        } else if (w == "--json") {
            a.json_out = true;
        } else if (w == "--timeout") {
            a.timeout = parse_duration("--timeout", value());
        } else if (w.rfind("--timeout=", 0) == 0) {
            a.timeout = parse_duration("--timeout", w.substr(10));
        } else {
            throw UsageError("Unknown flag: " + w);
        }
    }
    if (a.cont && !a.thread.empty()) throw UsageError("--continue and --thread: give one of them");
    if (a.cont) {
        a.thread = last_thread();
        if (a.thread.empty())
            throw UsageError("--continue: no earlier conversation in this environment");
    }
    if (words.empty() || words == "-") {
        if (isatty(STDIN_FILENO) && words.empty())
            throw UsageError("Usage: platform ask [flags] <prompt>");
        words.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        while (!words.empty() && (words.back() == '\n' || words.back() == '\r')) words.pop_back();
    }
    if (words.empty()) throw UsageError("prompt: must not be empty");
    a.prompt = words;
    return a;
}

}  // namespace

int ask_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help) return std::cout << kAskHelp, 0;
        AskArgs a = parse_ask(args);
        if (a.wait)
            throw UsageError("Unknown flag: --wait (ask always waits; see platform submit)");
        json req = {{"prompt", a.prompt}};
        if (!a.agent.empty()) req["agent"] = a.agent;
        if (!a.thread.empty()) req["thread"] = a.thread;
        CallOptions o;
        o.headers.emplace_back("X-Platform-Client", "cli");
        o.timeout_seconds = a.timeout;
        auto r = RpcClient().call("agent", "Agent.Ask", req, o);
        if (!r.ok()) return report(r);
        const std::string thread = r.body.value("thread", "");
        if (!thread.empty()) remember_thread(thread);
        if (a.json_out || c.format == Format::json)
            return print(std::cout, r.body, Format::json), 0;
        std::cout << r.body.value("text", "") << "\n";
        if (!thread.empty()) std::cerr << "thread " << thread << "\n";
        return 0;
    });
}

int submit_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help) return std::cout << kSubmitHelp, 0;
        AskArgs a = parse_ask(args);
        json req = {{"prompt", a.prompt}};
        if (!a.agent.empty()) req["agent"] = a.agent;
        if (!a.thread.empty()) req["thread"] = a.thread;
        CallOptions o;  // never retried
        o.headers.emplace_back("X-Platform-Client", "cli");
        auto r = RpcClient().call("work", "Work.Submit", req, o);
        if (!r.ok()) return report(r);
        const std::string id = r.body.value("id", "");
        if (a.wait) return follow_work(id, a.json_out || c.format == Format::json, a.timeout);
        if (a.json_out || c.format == Format::json)
            return print(std::cout, r.body, Format::json), 0;
        std::cout << id << "\n";
        std::cerr << "queued: platform work get " << id << " --wait\n";
        return 0;
    });
}

}  // namespace platform::cli
