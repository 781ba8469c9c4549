// mail_commands.cpp — `platform mail read <id>`: one letter, all of it, a page at a time. The mail
// service hands a body out in pages of 2000 characters (`next_offset` absent on the last); this
// command follows them. At a terminal (standard input and output both) it shows a page, then asks
// before fetching the next (Enter: more, q: stop); otherwise it prints the whole body. `read`
// without an id (the inbox summary), and every other `platform mail` word, is the service's own
// method.
#include <unistd.h>

#include <iostream>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kMailReadHelp =
    "Reads one letter of your mailbox, following its pages (2000 characters each).\n"
    "At a terminal each page waits for Enter (q stops); otherwise the whole body is printed.\n\n"
    "Examples:\n"
    "  platform mail read 0001739-4f2a9c            the letter, page by page\n"
    "  platform mail read 0001739-4f2a9c | less     the whole body, to another program\n"
    "  platform mail read 0001739-4f2a9c --offset 4000\n"
    "  platform mail read 0001739-4f2a9c --json     each page's answer, one JSON object a line\n"
    "  platform mail inbox --tag receipts           (the service's methods: platform help mail)\n\n"
    "Usage: platform mail read [--json] [--offset N] [--limit N] <id>\n";

struct ReadArgs {
    std::string id;
    long long offset = 0, limit = 0;  // limit 0: the service's page (2000)
    bool json_out = false, help = false;
};

// `text` as a whole number of at least `min`; throws UsageError naming `flag` otherwise.
long long whole_number(const std::string& flag, const std::string& text, long long min) {
    size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || v < min)
        throw UsageError(flag + ": a whole number of characters, " + std::to_string(min) +
                         " or more (got " + text + ")");
    return v;
}

// The words after `read`; throws UsageError for what they cannot mean.
ReadArgs parse_read(const Args& args, bool json_out) {
    ReadArgs a;
    a.json_out = json_out;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& w = args[i];
        auto value = [&](const std::string& flag) {
            if (w.size() > flag.size() && w.compare(0, flag.size() + 1, flag + "=") == 0)
                return w.substr(flag.size() + 1);
            if (i + 1 >= args.size()) throw UsageError(flag + ": needs a value");
            return args[++i];
        };
        if (w == "--json") {
            a.json_out = true;
        } else if (w == "--help" || w == "-h") {
            a.help = true;
        } else if (w == "--id" || w.rfind("--id=", 0) == 0) {
            a.id = value("--id");
        } else if (w == "--offset" || w.rfind("--offset=", 0) == 0) {
            a.offset = whole_number("--offset", value("--offset"), 0);
        } else if (w == "--limit" || w.rfind("--limit=", 0) == 0) {
            a.limit = whole_number("--limit", value("--limit"), 1);
        } else if (w.rfind("-", 0) == 0) {
            throw UsageError("Unknown flag: " + w + " (platform mail read --help)");
        } else if (a.id.empty()) {
            a.id = w;
        } else {
            throw UsageError("Usage: platform mail read [--json] [--offset N] [--limit N] <id>");
        }
    }
    return a;
}

void print_head(const json& page) {
    for (const char* field : {"from", "to", "date", "subject"}) {
        const std::string v = page.value(field, json("")).is_string() ? page.value(field, "") : "";
        if (!v.empty())
            std::cout << char(std::toupper(field[0])) << (field + 1) << ": " << v << "\n";
    }
    std::string names;
    for (const json& a : page.value("attachments", json::array()))
        if (a.is_string()) names += (names.empty() ? "" : ", ") + a.get<std::string>();
    if (!names.empty()) std::cout << "Attachments: " << names << "\n";
    std::cout << "\n";
}

// Asks at the terminal whether to go on; false for q (or end of input).
bool more(long long shown, long long length) {
    std::cerr << "-- " << shown << " of " << length << " characters: Enter for more, q to stop --"
              << std::flush;
    std::string answer;
    const bool got = static_cast<bool>(std::getline(std::cin, answer));
    return got && answer != "q" && answer != "Q";
}

int read_letter(const ReadArgs& a) {
    const bool paging = !a.json_out && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    RpcClient rpc;
    long long offset = a.offset;
    bool ends_in_newline = true;
    for (bool first = true;; first = false) {
        json req = {{"id", a.id}, {"offset", offset}};
        if (a.limit > 0) req["limit"] = a.limit;
        auto r = rpc.call("mail", "Mail.Read", req, CallOptions::reads());
        if (!r.ok()) return report(r);
        const json& page = r.body;
        if (a.json_out) {
            std::cout << page.dump() << "\n";
        } else {
            if (first) print_head(page);
            const std::string body = page.value("body", "");
            std::cout << body;
            if (!body.empty()) ends_in_newline = body.back() == '\n';
        }
        if (!page.contains("next_offset") || !page["next_offset"].is_number_integer()) break;
        offset = page["next_offset"].get<long long>();
        if (paging) {
            if (!ends_in_newline) std::cout << "\n";
            std::cout << std::flush;
            if (!more(offset, page.value("length", 0LL))) return 0;
        }
    }
    if (!a.json_out && !ends_in_newline) std::cout << "\n";
    return 0;
}

}  // namespace

bool is_mail_builtin(const Args& in) {
    Args args = in;
    try {
        take_common(args, true);
    } catch (const UsageError&) {
        return false;
    }
    try {
        if (args.empty() || args[0] != "read") return false;
        const ReadArgs a = parse_read(args, false);
        return a.help || !a.id.empty();
    } catch (const UsageError&) {
        return args.size() > 1 && args[0] == "read";  // mail_command says what is wrong
    }
}

int mail_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args, true);
        const ReadArgs a = parse_read(args, c.format == Format::json);
        if (a.help) return std::cout << kMailReadHelp, 0;
        return read_letter(a);
    });
}

}  // namespace platform::cli
