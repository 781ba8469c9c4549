// chat_commands.cpp — `platform chat live <room>`: follows a chat room in the terminal over the
// chat service's `live` stream (Server-Sent Events through /rpc). Every other `platform chat`
// word is the service's own method (`platform chat send --room r --message m`).
//
// A live stream lasts until the server ends it (about half a minute without a message, or its
// deadline); the command then opens it again with `after` set to the last cursor it saw, so no
// message is lost or shown twice between two streams. Ctrl-C stops it.
#include <ctime>
#include <iostream>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kChatHelp =
    "Chat rooms: a group's room (its id), a public room named by its first message, or "
    "@<account>,\n"
    "your direct room with that account.\n\n"
    "Examples:\n"
    "  platform chat live general               follow a room (Ctrl-C stops)\n"
    "  platform chat live general --json        one JSON message per line\n"
    "  platform chat live @bob                  follow your direct room with bob\n"
    "  platform chat send --room general --message \"hello\"\n"
    "  platform chat send --room @@bob --message \"hi\"   (@@: a flag value starting with @)\n"
    "  platform chat messages --room general\n"
    "  platform chat rooms\n\n"
    "Usage: platform chat live [--json] <room>\n"
    "       platform chat <method> [--flags]    (platform help chat lists the methods)\n";

// "14:05 ann: hello" in local time; an agent's name is followed by " (agent)".
std::string line_of(const json& m) {
    std::string when = m.value("at", "");
    std::tm tm{};
    if (strptime(when.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) {
        // The service writes UTC ("Z"); shown in the terminal's zone.
        const std::time_t t = timegm(&tm);
        std::tm local{};
        localtime_r(&t, &local);
        char buf[8];
        std::strftime(buf, sizeof buf, "%H:%M", &local);
        when = buf;
    }
    std::string from = m.value("from", "?");
    if (m.value("agent", false)) from += " (agent)";
    return when + " " + from + ": " + m.value("text", "");
}

int live(const Args& words, bool json_out) {
    if (words.size() != 1) throw UsageError("Usage: platform chat live [--json] <room>");
    RpcClient rpc;
    json req = {{"room", words[0]}};
    for (;;) {
        std::string failure;
        auto r = rpc.stream(
            "chat", "Chat.Live", req,
            [&](const std::string& event, const std::string& data) {
                json j = json::parse(data, nullptr, false);
                if (event == "error") {
                    const std::string code = j.is_object() ? j.value("code", "") : "";
                    if (code != "deadline_exceeded")
                        failure = j.is_object() ? j.value("message", data) : data;
                    return false;
                }
                if (!j.is_object()) return true;
                if (j.contains("cursor")) req["after"] = j["cursor"];
                if (j.value("type", "") == "ready" && !json_out)
                    std::cerr << "following " << j.value("room", words[0]) << " (Ctrl-C stops)\n";
                if (j.value("type", "") == "message") {
                    const json& m = j["message"];
                    std::cout << (json_out ? m.dump() : line_of(m)) << std::endl;
                }
                return true;
            },
            120);
        if (r.http_status != 200) return report(r);
        if (!failure.empty()) return std::cerr << "error: " << failure << "\n", 1;
    }
}

}  // namespace

bool is_chat_builtin(const Args& in) {
    Args args = in;
    try {
        take_common(args, true);
    } catch (const UsageError&) {
        return false;
    }
    return args.empty() || args[0] == "live" || args[0] == "--help" || args[0] == "-h";
}

int chat_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args, true);
        if (args.empty()) return std::cerr << kChatHelp, 2;
        if (args[0] == "--help" || args[0] == "-h") return std::cout << kChatHelp, 0;
        Args words;
        bool json_out = c.format == Format::json;
        for (size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--json")
                json_out = true;
            else if (args[i] == "--help" || args[i] == "-h")
                return std::cout << kChatHelp, 0;
            else if (args[i].rfind("-", 0) == 0)
                throw UsageError("Unknown flag: " + args[i] + " (platform chat --help)");
            else
                words.push_back(args[i]);
        }
        return live(words, json_out);
    });
}

}  // namespace platform::cli
