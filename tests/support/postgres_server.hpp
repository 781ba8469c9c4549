// postgres_server.hpp — the PostgreSQL server the store-postgres tests (unit and integration) and
// the tests of host replicas use, found or started. nats_server.hpp is its NATS twin.
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

    // A database of its own for a test (dropped first when a killed run left it), for what names
    // the database rather than a schema (PLATFORM_POSTGRES_URL of the kubernetes profile); answers
    // its DSN — this server's with the database replaced — or "" when there is no server or psql
    // failed. drop_database removes it and ends its connections.
    std::string create_database(const std::string& name) const {
        if (dsn_.empty()) return "";
        drop_database(name);
        if (!psql("CREATE DATABASE " + name)) return "";
        return with_database(dsn_, name);
    }
    void drop_database(const std::string& name) const {
        if (!dsn_.empty()) psql("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
    // `dsn` naming database `name`: a URI's path replaced, or `dbname=` appended (the last wins).
    static std::string with_database(const std::string& dsn, const std::string& name) {
        if (dsn.rfind("postgres", 0) != 0) return dsn + " dbname=" + name;
        const size_t hosts = dsn.find("://");
        const size_t slash = dsn.find('/', hosts == std::string::npos ? 0 : hosts + 3);
        const size_t query = dsn.find('?');
        if (slash == std::string::npos || (query != std::string::npos && slash > query))
            return dsn.substr(0, query) + "/" + name +
                   (query == std::string::npos ? "" : dsn.substr(query));
        return dsn.substr(0, slash + 1) + name +
               (query == std::string::npos ? "" : dsn.substr(query));
    }

private:
    bool psql(const std::string& sql) const {
        std::string cmd = "psql -q -X '" + dsn_ + "' -c '" + sql + "' >/dev/null 2>&1";
        return std::system(cmd.c_str()) == 0;
    }

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
