// Server state is its user's alone (private_home.hpp): on the `local` profile every folder the
// server creates under PLATFORM_HOME is 0700 and every file 0600 — the SQLite store and events
// with their -wal and -shm files, the secret key — and a home an older version left open is
// tightened at start.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"

using namespace platform::test;

namespace fs = std::filesystem;

namespace {

mode_t mode_of(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
    return st.st_mode;
}

// Every path under `home` (and `home` itself) whose mode lets group or others in.
std::vector<std::string> open_to_others(const std::string& home) {
    std::vector<std::string> out;
    auto check = [&](const fs::path& p) {
        const mode_t m = mode_of(p);
        if (S_ISLNK(m)) return;
        if ((m & 077) != 0) {
            char text[8];
            std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(m & 07777));
            out.push_back(p.string() + " " + text);
        }
    };
    check(home);
    for (const auto& e : fs::recursive_directory_iterator(home)) check(e.path());
    return out;
}

// Starts the local profile on `home`, writes a note as admin (so the store and its WAL exist),
// and stops it.
void run_local(const std::string& home) {
    HostProcess host(local_options("private-files-admin-secret", "local", home));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string token = access_token(c, "admin", "private-files-admin-secret");
    ASSERT_FALSE(token.empty());
    auto r =
        c.post_json("/api/v1/notes/add", {{"title", "mine"}, {"text", "only mine"}}, bearer(token));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(host.stop(), 0) << host.log();
}

TEST(PrivateFiles, EverythingTheServerCreatesIsItsUsersAlone) {
    TempDir parent;
    const std::string home = parent.path() + "/home";  // created by the server
    ::umask(022);  // the usual umask: without the server's own, this would give 0755 and 0644
    run_local(home);
    for (const char* f : {"data/store.db", "data/events.db", "keys/config.key"})
        EXPECT_TRUE(fs::exists(home + "/" + f)) << f;
    EXPECT_EQ(mode_of(home) & 07777, 0700u);
    EXPECT_EQ(mode_of(home + "/data") & 07777, 0700u);
    EXPECT_EQ(mode_of(home + "/data/store.db") & 07777, 0600u);
    EXPECT_EQ(open_to_others(home), std::vector<std::string>{});
}

TEST(PrivateFiles, AHomeLeftOpenIsTightenedAtStart) {
    TempDir parent;
    const std::string home = parent.path() + "/home";
    fs::create_directories(home + "/data");
    fs::create_directories(home + "/keys");
    std::ofstream(home + "/data/notes.txt") << "left by an older version\n";
    for (const char* p : {"", "/data", "/keys"}) ::chmod((home + p).c_str(), 0755);
    ::chmod((home + "/data/notes.txt").c_str(), 0644);
    ::umask(022);
    run_local(home);
    EXPECT_EQ(mode_of(home + "/data/notes.txt") & 07777, 0600u);
    EXPECT_EQ(open_to_others(home), std::vector<std::string>{});
}

}  // namespace
