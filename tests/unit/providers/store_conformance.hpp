// store_conformance.hpp — the store conformance suite's fixture and helpers, shared by its two
// files: store_conformance_test.cpp (the basic contract, prefix, order, TTL, persistence) and
// store_conformance_atomic_test.cpp (compare-and-set and batches). One fixture class for both, so
// gtest sees one typed suite per provider.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <type_traits>

#include "build_tree.hpp"
#include "postgres_server.hpp"
#include "store_client.hpp"

using namespace providers_test;

namespace store_conformance {

// `label` names the typed suite; it must not contain '-', which a gtest filter reads as "exclude".
// `features` is what the provider must declare, exactly.
struct MemoryStore {
    static constexpr const char* name = "store-memory";
    static constexpr const char* label = "Memory";
    static constexpr uint64_t features = PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX |
                                         PLATFORM_STORE_ORDER | PLATFORM_STORE_CAS |
                                         PLATFORM_STORE_TRANSACTIONS;
    std::string dir() const { return ""; }
    nlohmann::json config() const { return nlohmann::json::object(); }
};

struct SqliteStore {
    static constexpr const char* name = "store-sqlite";
    static constexpr const char* label = "Sqlite";
    static constexpr uint64_t features = MemoryStore::features | PLATFORM_STORE_PERSISTENT;
    TempDir tmp;
    std::string dir() const { return ""; }
    nlohmann::json config() const { return {{"path", (tmp.path() / "store.db").string()}}; }
};

// On a PostgreSQL server (postgres_server.hpp), in a schema of its own that it drops afterwards.
// Skips, saying why, when there is no server.
struct PostgresStore {
    static constexpr const char* name = "store-postgres";
    static constexpr const char* label = "Postgres";
    static constexpr uint64_t features = SqliteStore::features;
    static std::string unavailable() { return platform::test::PostgresServer::get().reason(); }
    std::string schema = platform::test::PostgresServer::unique_schema();
    PostgresStore() = default;
    PostgresStore(const PostgresStore&) = delete;
    PostgresStore& operator=(const PostgresStore&) = delete;
    ~PostgresStore() { platform::test::PostgresServer::get().drop_schema(schema); }
    std::string dir() const { return ""; }
    nlohmann::json config() const {
        return {{"dsn", platform::test::PostgresServer::get().dsn()}, {"schema", schema}};
    }
};

// Test-only: get, put, del and unordered scans of whole tables, nothing else.
struct MinimalStore {
    static constexpr const char* name = "store-minimal";
    static constexpr const char* label = "Minimal";
    static constexpr uint64_t features = 0;
    std::string dir() const { return platform::test::test_plugin_dir() + "/store-minimal"; }
    nlohmann::json config() const { return nlohmann::json::object(); }
};

inline const char* feature_name(uint64_t f) {
    switch (f) {
        case PLATFORM_STORE_TTL:
            return "PLATFORM_STORE_TTL";
        case PLATFORM_STORE_PREFIX:
            return "PLATFORM_STORE_PREFIX";
        case PLATFORM_STORE_ORDER:
            return "PLATFORM_STORE_ORDER";
        case PLATFORM_STORE_PERSISTENT:
            return "PLATFORM_STORE_PERSISTENT";
        case PLATFORM_STORE_CAS:
            return "PLATFORM_STORE_CAS";
        case PLATFORM_STORE_TRANSACTIONS:
            return "PLATFORM_STORE_TRANSACTIONS";
        default:
            return "an unknown feature";
    }
}

// Why provider P cannot run here (an empty string: it can): P::unavailable() when P has one.
template <class P, class = void>
struct HasUnavailable : std::false_type {};
template <class P>
struct HasUnavailable<P, std::void_t<decltype(P::unavailable())>> : std::true_type {};
template <class P>
std::string unavailable_reason() {
    if constexpr (HasUnavailable<P>::value)
        return P::unavailable();
    else
        return "";
}

template <class P>
class StoreConformance : public ::testing::Test {
protected:
    void SetUp() override {
        if (!client) GTEST_SKIP() << P::name << ": " << unavailable_reason<P>();
    }
    // The first of `features` the provider does not declare, or 0.
    uint64_t missing(uint64_t features) const {
        for (uint64_t bit = 1; bit && bit <= features; bit <<= 1)
            if ((features & bit) && !store().declares(bit)) return bit;
        return 0;
    }
    const StoreClient& store() const { return *client; }
    // A new instance over the same configuration (the same file, for a file-backed store).
    void reopen() {
        client.reset();
        client = std::make_unique<StoreClient>(host, P::name, provider.config(), provider.dir());
    }

    P provider;
    FakeHost host;
    std::unique_ptr<StoreClient> client =
        unavailable_reason<P>().empty()
            ? std::make_unique<StoreClient>(host, P::name, provider.config(), provider.dir())
            : nullptr;
};

// Skips the test unless the provider declares every feature named (PLATFORM_STORE_* bits).
#define REQUIRE_FEATURES(features)                                            \
    do {                                                                      \
        if (uint64_t m_ = this->missing(features))                            \
            GTEST_SKIP() << "provider does not declare " << feature_name(m_); \
    } while (0)

using Providers = ::testing::Types<MemoryStore, SqliteStore, PostgresStore, MinimalStore>;
class ProviderNames {
public:
    template <class P>
    static std::string GetName(int) {
        return P::label;
    }
};
TYPED_TEST_SUITE(StoreConformance, Providers, ProviderNames);

// Bytewise (unsigned) order, written out without relying on std::string's comparison.
inline bool bytewise_less(const std::string& a, const std::string& b) {
    size_t n = std::min(a.size(), b.size());
    int c = n ? std::memcmp(a.data(), b.data(), n) : 0;
    return c < 0 || (c == 0 && a.size() < b.size());
}

inline std::string bin(const char* s, size_t n) {
    return std::string(s, n);
}

inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// Keys no store may mangle: quotes, path tricks, NUL bytes, emoji, 0x7F/0x80/0xFF, escapes.
inline const std::vector<std::string>& awkward_keys() {
    static const std::vector<std::string> keys = {"",
                                                  "\"quoted\" 'key'",
                                                  "../../etc/passwd",
                                                  bin("a\0b", 3),
                                                  bin("a\0", 2),
                                                  "a",
                                                  "a\x01",
                                                  "\xF0\x9F\x98\x80",
                                                  "\xF0\x9F\x98\x80/child",
                                                  "\xFF",
                                                  "\xFF\xFF",
                                                  "\x7F",
                                                  "\x80",
                                                  "Z",
                                                  "back\\slash",
                                                  "new\nline",
                                                  bin("\0", 1),
                                                  "%00%2F"};
    return keys;
}

inline std::string random_bytes(size_t n, unsigned seed) {
    std::string out(n, '\0');
    std::mt19937 rng(seed);
    for (auto& c : out) c = static_cast<char>(rng());
    return out;
}

// Lets threads start together.
class StartLine {
public:
    void wait() {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return go_; });
    }
    void open() {
        std::lock_guard<std::mutex> g(m_);
        go_ = true;
        cv_.notify_all();
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool go_ = false;
};

}  // namespace store_conformance
