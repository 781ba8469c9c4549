// runtime_commands.cpp — `platform run|update|kill|status|logs` over the `runtime` built-in
// (host/src/runtime/runtime_service.hpp; docs/cli.md). A local folder is uploaded as a base64
// .tar.gz (without its build/ and .git/, and a Cargo folder's target/); anything else is a git
// source the server clones.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <platform/sdk/text.hpp>

#include "common.hpp"
#include "runtime_format.hpp"
#include "runtime_wait.hpp"

namespace platform::cli {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* kRunHelp =
    "Build a service from source on the server and run it in an isolated worker.\n\n"
    "Examples:\n"
    "  platform run .                             this folder (uploaded), named after it\n"
    "  platform run ./hello --name greeter        another name\n"
    "  platform run https://example.com/hello.git@v1.2   a repository at a tag (or branch, or "
    "commit)\n"
    "  platform run /srv/repos/hello@main         a repository the server can read\n"
    "  platform run hello                         <git.baseurl>/hello (platform config set "
    "git.baseurl URL)\n\n"
    "Usage: platform run [--name <name>] [--detach] [--timeout 10m] <source>[@<ref>]\n\n"
    "Follows the build on stderr (uploading, pending, building, starting, running) and exits 0\n"
    "once the service serves, or 1 with the compiler's first error (platform logs <name> has all\n"
    "of it). --detach returns once the server queued the build; --timeout (default 15m) bounds\n"
    "the wait. A local path must exist; a repository on the server's machine is file:///path.\n"
    "The server builds by what the folder holds: CMakeLists.txt (CMake), Cargo.toml (cargo),\n"
    "go.mod or *.go (go build -buildmode=c-shared), a Makefile (make), else *.c (cc).\n"
    "Needs the admin or the runtime scope.\n";
const char* kUpdateHelp =
    "Rebuild a run service and swap it in; the old worker serves until the new one runs, and "
    "stays\n"
    "when the build fails (status shows error=...). A folder is uploaded again; a git service "
    "pulls\n"
    "its branch; a service at a commit is only restarted.\n\n"
    "Examples:\n  platform update hello\n  platform update .          this folder, uploaded "
    "again\n\n"
    "Usage: platform update [--name <name>] [--detach] [--timeout 10m] <name|path>\n\n"
    "Follows the build like run (status updating, then running); exits 1 with the compiler's\n"
    "first error when the new build fails, while the old one serves on.\n";
const char* kKillHelp =
    "Stop a run service and remove it.\n\nExamples:\n  platform kill hello\n  platform kill "
    ".\n\nUsage: platform kill <name|path>\n";
const char* kStatusHelp =
    "List run services: NAME VERSION SOURCE STATUS BUILD UPDATED METADATA.\n\n"
    "Examples:\n  platform status\n  platform status hello\n  platform status -o json\n\n"
    "Usage: platform status [<name>] [--output table|json|raw]\n";
const char* kLogsHelp =
    "Print a run service's logs: build output, runtime events and what the plugin logs.\n\n"
    "Examples:\n  platform logs hello\n  platform logs -n 100 hello\n  platform logs -f hello      "
    " keep printing new lines (Ctrl-C stops)\n\n"
    "Usage: platform logs [-f] [-n <lines>] <name>\n";

// Flags of these commands: --name, --detach, --timeout (run/update), -f, -n; the rest are words.
struct Parsed {
    Args words;
    std::string name;
    bool detach = false;
    double timeout_seconds = 900;
    bool follow = false;
    int lines = 15;
};
Parsed parse(const Args& args, bool name_flag, bool log_flags) {
    Parsed p;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw UsageError(a + ": needs a value");
            return args[++i];
        };
        if (name_flag && a == "--name")
            p.name = value();
        else if (name_flag && a.rfind("--name=", 0) == 0)
            p.name = a.substr(7);
        else if (name_flag && (a == "--detach" || a == "-d"))
            p.detach = true;
        else if (name_flag && a == "--timeout")
            p.timeout_seconds = parse_duration("--timeout", value());
        else if (name_flag && a.rfind("--timeout=", 0) == 0)
            p.timeout_seconds = parse_duration("--timeout", a.substr(10));
        else if (log_flags && (a == "-f" || a == "--follow"))
            p.follow = true;
        else if (log_flags && (a == "-n" || a == "--lines" || a.rfind("--lines=", 0) == 0)) {
            std::string v = a.rfind("--lines=", 0) == 0 ? a.substr(8) : value();
            try {
                p.lines = std::stoi(v);
            } catch (...) {
                throw UsageError("--lines: must be an integer (got '" + v + "')");
            }
            if (p.lines < 0 || p.lines > 10000) throw UsageError("--lines: must be 0 to 10000");
        } else if (a.rfind("-", 0) == 0 && a.size() > 1)
            throw UsageError("Unknown flag: " + a);
        else
            p.words.push_back(a);
    }
    return p;
}

// The folder as a base64 .tar.gz, without build/ and .git/ (and a Cargo folder's target/, its
// build output).
std::string archive(const fs::path& dir) {
    std::error_code ec;
    const bool cargo = fs::exists(dir / "Cargo.toml", ec);
    std::string cmd = "tar -czf - -C '" + dir.string() + "' --exclude=./build --exclude=./.git" +
                      (cargo ? " --exclude=./target" : "") + " . 2>/dev/null";
    FILE* f = ::popen(cmd.c_str(), "r");
    if (!f) throw UsageError("cannot run tar to pack " + dir.string());
    std::string bytes;
    char buf[65536];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, n);
    if (::pclose(f) != 0 || bytes.empty())
        throw UsageError("cannot pack " + dir.string() + " with tar");
    return platform::base64_encode(bytes);
}

bool is_folder(const std::string& s) {
    std::error_code ec;
    return fs::is_directory(s, ec);
}

// A source written as a local path (".", "./x", "../x", "/x", "~/x"; optionally @ref) must name
// a folder here: the server would otherwise take it for a repository on its own machine and fail
// there, or worse, clone something else.
void check_local_path(const std::string& source) {
    const size_t at = source.rfind('@');
    const std::string path = at == std::string::npos || at == 0 ? source : source.substr(0, at);
    const bool looks_local = path == "." || path == ".." || path.rfind("./", 0) == 0 ||
                             path.rfind("../", 0) == 0 || path.rfind("/", 0) == 0 ||
                             path.rfind("~", 0) == 0;
    if (looks_local && !is_folder(source) && !is_folder(path))
        throw UsageError("source: no folder " + path +
                         " here (a local path must exist; a repository on the server's machine "
                         "is file:///path, a remote one its URL)");
}

// "hello: uploading 12.3 KB" for an archive about to be sent.
void say_uploading(const std::string& name, const std::string& archive_base64) {
    const double kb = static_cast<double>(archive_base64.size()) * 3 / 4 / 1024;
    char size[32];
    std::snprintf(size, sizeof size, "%.1f KB", kb);
    std::cerr << name << ": uploading " << size << "\n";
}
std::string folder_name(const std::string& s) {
    return fs::canonical(s).filename().string();
}

// A local folder goes up as req.archive, named --name or after the folder.
void add_upload(json& req, const Parsed& p, const std::string& folder) {
    req["archive"] = archive(folder);
    req["name"] = p.name.empty() ? folder_name(folder) : p.name;
    say_uploading(req["name"], req["archive"]);
}

// Once Run or Update is accepted: "queued" with --detach, else the build followed to its end.
int detach_or_follow(const RpcClient& rpc, const Parsed& p, const std::string& name, bool update) {
    if (p.detach) return std::cerr << name << ": queued (platform status " << name << ")\n", 0;
    return follow_build(rpc, name, update, p.timeout_seconds);
}

int simple(const Args& in, const char* help, const std::function<int(Parsed&, RpcClient&)>& body,
           bool name_flag, bool log_flags) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help) return std::cout << help, 0;
        Parsed p = parse(args, name_flag, log_flags);
        RpcClient rpc;
        return body(p, rpc);
    });
}

}  // namespace

int run_command(const Args& in) {
    return simple(
        in, kRunHelp,
        [](Parsed& p, RpcClient& rpc) {
            if (p.words.size() != 1)
                throw UsageError(
                    "Usage: platform run [--name <name>] [--detach] [--timeout 10m] "
                    "<source>[@<ref>]");
            const std::string source = p.words[0];
            check_local_path(source);
            json req = {{"source", source}};
            if (is_folder(source)) {
                add_upload(req, p, source);
            } else {
                const auto at =
                    source.rfind('@');  // a local repository at a ref: the server clones the path
                if (at != std::string::npos && at > 0 && is_folder(source.substr(0, at)))
                    req["source"] = fs::absolute(source.substr(0, at)).string() + source.substr(at);
                if (!p.name.empty()) req["name"] = p.name;
            }
            auto r = rpc.call("runtime", "Runtime.Run", req);
            if (!r.ok()) return report(r);
            return detach_or_follow(rpc, p, r.body["service"].value("name", ""), false);
        },
        true, false);
}

int update_command(const Args& in) {
    return simple(
        in, kUpdateHelp,
        [](Parsed& p, RpcClient& rpc) {
            if (p.words.size() != 1)
                throw UsageError(
                    "Usage: platform update [--name <name>] [--detach] [--timeout 10m] "
                    "<name|path>");
            check_local_path(p.words[0]);
            json req = json::object();
            if (is_folder(p.words[0])) {
                add_upload(req, p, p.words[0]);
            } else {
                req = {{"name", p.words[0]}};
            }
            auto r = rpc.call("runtime", "Runtime.Update", req);
            if (!r.ok()) return report(r);
            return detach_or_follow(rpc, p, req["name"].get<std::string>(), true);
        },
        true, false);
}

int kill_command(const Args& in) {
    return simple(
        in, kKillHelp,
        [](Parsed& p, RpcClient& rpc) {
            if (p.words.size() != 1) throw UsageError("Usage: platform kill <name|path>");
            const std::string name = is_folder(p.words[0]) ? folder_name(p.words[0]) : p.words[0];
            auto r = rpc.call("runtime", "Runtime.Kill", {{"name", name}});
            return r.ok() ? 0 : report(r);
        },
        false, false);
}

int status_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help) return std::cout << kStatusHelp, 0;
        Parsed p = parse(args, false, false);
        if (p.words.size() > 1) throw UsageError("Usage: platform status [<name>]");
        json req = json::object();
        if (!p.words.empty()) req["name"] = p.words[0];
        auto r = RpcClient().call("runtime", "Runtime.Status", req, CallOptions::reads());
        if (!r.ok()) return report(r);
        const Format format = c.format.value_or(Format::table);
        if (format != Format::table) return print(std::cout, r.body, format), 0;
        using namespace std::chrono;
        const int64_t now =
            duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
        std::vector<std::vector<std::string>> rows;
        for (const auto& s : r.body.value("services", json::array()))
            rows.push_back(status_row(s, now));
        print_table(std::cout,
                    {"NAME", "VERSION", "SOURCE", "STATUS", "BUILD", "UPDATED", "METADATA"}, rows);
        return 0;
    });
}

int logs_command(const Args& in) {
    return simple(
        in, kLogsHelp,
        [](Parsed& p, RpcClient& rpc) -> int {
            if (p.words.size() != 1)
                throw UsageError("Usage: platform logs [-f] [-n <lines>] <name>");
            json req = {{"name", p.words[0]}, {"lines", p.lines}};
            if (!p.follow) {
                auto r = rpc.call("runtime", "Runtime.Logs", req, CallOptions::reads());
                if (!r.ok())
                    return r.http_status == 404 ? (std::cerr << "Service not found\n", 5)
                                                : report(r);
                for (const auto& l : r.body.value("lines", json::array()))
                    std::cout << l.get<std::string>() << "\n";
                return 0;
            }
            req["follow"] = true;
            for (;;) {  // each stream lasts until the server's deadline; then follow on from there
                bool expired = false;
                auto r = rpc.stream(
                    "runtime", "Runtime.Logs", req,
                    [&](const std::string& event, const std::string& data) {
                        json j = json::parse(data, nullptr, false);
                        if (event == "error") {
                            expired = j.is_object() && j.value("code", "") == "deadline_exceeded";
                            if (!expired)
                                std::cerr << "error: "
                                          << (j.is_object() ? j.value("message", data) : data)
                                          << "\n";
                            return false;
                        }
                        if (j.is_object() && j.contains("line"))
                            std::cout << j["line"].get<std::string>() << std::endl;
                        return true;
                    },
                    300);
                if (r.http_status != 200)
                    return r.http_status == 404 ? (std::cerr << "Service not found\n", 5)
                                                : report(r);
                if (!expired) return 0;
                req["lines"] = 0;
            }
        },
        false, true);
}

}  // namespace platform::cli
