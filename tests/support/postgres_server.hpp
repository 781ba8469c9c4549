// postgres_server.hpp — the PostgreSQL server the store-postgres tests (unit and integration) use,
// found or started.
//
// In order: PLATFORM_POSTGRES_DSN when set; else the server ctest's fixture started
// (PLATFORM_POSTGRES_DIR/dsn, tests/unit/providers/CMakeLists.txt); else, unless
// PLATFORM_POSTGRES_START=0, a throwaway server this process starts with scripts/postgres.sh (stopped
// and removed at exit). When none is there, reason() says why and the tests skip with it.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "build_tree.hpp"

namespace platform::test {

class PostgresServer {
public:
    static const PostgresServer& get() {
        static PostgresServer server;
        return server;
    }
    const std::string& dsn() const { return dsn_; }        // empty when there is none
    const std::string& reason() const { return reason_; }  // why there is none

    // A schema name no other test of this or a concurrent process uses.
    static std::string unique_schema() {
        static std::atomic<int> n{0};
        return "conformance_" + std::to_string(::getpid()) + "_" + std::to_string(n++);
    }

    // Drops a schema a test made, through psql (best effort: a throwaway server needs none of it).
    void drop_schema(const std::string& schema) const {
        if (dsn_.empty()) return;
        std::string cmd = "psql -q -X '" + dsn_ + "' -c 'DROP SCHEMA IF EXISTS " + schema +
                          " CASCADE' >/dev/null 2>&1";
        (void)std::system(cmd.c_str());
    }

private:
    PostgresServer() {
        if (const char* env = std::getenv("PLATFORM_POSTGRES_DSN"); env && *env) {
            dsn_ = env;
            return;
        }
        if (const char* dir = std::getenv("PLATFORM_POSTGRES_DIR"); dir && *dir) {
            std::ifstream in(std::filesystem::path(dir) / "dsn");
            if (std::getline(in, dsn_) && !dsn_.empty()) return;
            reason_ = std::string("no PostgreSQL: ") + dir +
                      "/dsn is missing (the ctest fixture's scripts/postgres.sh start failed; see "
                      "its output)";
            return;
        }
        if (const char* start = std::getenv("PLATFORM_POSTGRES_START");
            start && start == std::string("0")) {
            reason_ = "no PostgreSQL: PLATFORM_POSTGRES_DSN is unset and PLATFORM_POSTGRES_START=0";
            return;
        }
        script_ = platform::test::source_dir() + "/scripts/postgres.sh";
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "providers-postgres-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) {
            reason_ = "no PostgreSQL: mkdtemp failed";
            return;
        }
        dir_ = tmpl;
        std::string cmd = "bash '" + script_ + "' start '" + dir_ + "' 2>&1";
        std::string out;
        if (FILE* p = ::popen(cmd.c_str(), "r")) {
            std::array<char, 512> buf{};
            while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
            int rc = ::pclose(p);
            if (rc == 0) {
                dsn_ = out.substr(0, out.find('\n'));
                return;
            }
        }
        while (!out.empty() && out.back() == '\n') out.pop_back();
        reason_ =
            "no PostgreSQL: PLATFORM_POSTGRES_DSN is unset and scripts/postgres.sh start "
            "failed: " +
            out;
        stop();
    }
    ~PostgresServer() { stop(); }

    void stop() {
        if (dir_.empty()) return;
        std::string cmd = "bash '" + script_ + "' stop '" + dir_ + "' >/dev/null 2>&1";
        (void)std::system(cmd.c_str());
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
        dir_.clear();
    }

    std::string dsn_, reason_, script_, dir_;
};

}  // namespace platform::test
