#include <filesystem>
#include <fstream>

#include "runtime_build.hpp"

namespace platform::host::runtime {

namespace fs = std::filesystem;

namespace {
constexpr int64_t kFetchTimeoutMs = 5 * 60 * 1000;

bool hex(const std::string& s) {
    if (s.size() < 7 || s.size() > 40) return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

std::string git_output(const std::vector<std::string>& argv, const std::string& cwd,
                       const std::atomic<bool>* cancel) {
    std::string out;
    int rc = run_process(
        argv, cwd, [&](const std::string& l) { out += l; }, 60000, cancel);
    return rc == 0 ? out : "";
}
}  // namespace

std::string fetch_source(const Source& source, const std::string& dir, std::string& commit,
                         bool& ref_is_commit, const LogFn& log, const std::atomic<bool>* cancel) {
    std::error_code ec;
    fs::create_directories(fs::path(dir).parent_path(), ec);
    commit.clear();
    ref_is_commit = false;
    if (source.kind == "archive") {
        fs::create_directories(dir, ec);
        if (ec) return "cannot create " + dir + ": " + ec.message();
        const std::string file = dir + ".tar.gz";
        std::ofstream(file, std::ios::binary)
            .write(source.archive.data(), static_cast<std::streamsize>(source.archive.size()));
        log("unpacking the uploaded folder (" + std::to_string(source.archive.size()) + " bytes)");
        // GNU tar drops leading '/' and refuses members with '..': nothing lands outside `dir`.
        int rc = run_process(
            {"tar", "-xzf", file, "-C", dir, "--no-same-owner", "--no-same-permissions"}, "", log,
            kFetchTimeoutMs, cancel);
        fs::remove(file, ec);
        return rc == 0 ? ""
                       : "archive: not a .tar.gz the host can unpack (tar exited " +
                             std::to_string(rc) + ")";
    }
    if (source.kind != "git") return "source: unknown kind '" + source.kind + "'";
    log("git clone " + source.url + (source.ref.empty() ? "" : " @" + source.ref));
    if (int rc = run_process({"git", "clone", "--quiet", "--no-checkout", "--", source.url, dir},
                             "", log, kFetchTimeoutMs, cancel);
        rc != 0)
        return "source: git clone " + source.url + " failed (exit " + std::to_string(rc) + ")";
    std::string target = source.ref;
    if (target.empty() || target == "latest") {
        target = git_output({"git", "symbolic-ref", "--short", "HEAD"}, dir, cancel);
        if (target.empty()) target = "HEAD";
    }
    // A branch checks out as a local branch tracking origin's; a tag or commit detaches.
    if (int rc = run_process(
            {"git", "-c", "advice.detachedHead=false", "checkout", "--quiet", target, "--"}, dir,
            log, kFetchTimeoutMs, cancel);
        rc != 0)
        return "ref: '" + source.ref + "' is not a branch, tag or commit of " + source.url;
    commit = git_output({"git", "rev-parse", "HEAD"}, dir, cancel);
    const bool branch =
        !git_output({"git", "rev-parse", "--verify", "--quiet", "refs/remotes/origin/" + target},
                    dir, cancel)
             .empty();
    const bool tag =
        !git_output({"git", "rev-parse", "--verify", "--quiet", "refs/tags/" + target}, dir, cancel)
             .empty();
    ref_is_commit = !branch && !tag && hex(source.ref) && commit.rfind(source.ref, 0) == 0;
    log("checked out " + (commit.empty() ? target : commit.substr(0, 7)) +
        (ref_is_commit ? " (a commit)" : ""));
    return "";
}

}  // namespace platform::host::runtime
