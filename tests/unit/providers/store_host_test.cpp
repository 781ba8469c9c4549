// The host's store functions (host/src/core/host_api.cpp) over real providers loaded by a real
// Runtime: store_cas and store_batch (ABI 1.3) and the privileged "store" sub-table's cas/batch
// (version 2) reach the provider when it declares PLATFORM_STORE_CAS / TRANSACTIONS, and answer
// UNSUPPORTED when it does not (store-minimal); the host checks the ops before any reach it, and
// filters prefix scans itself for a provider without PLATFORM_STORE_PREFIX.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <platform/host/core/runtime.hpp>
#include <platform/sdk/store.hpp>
#include <platform/sdk/str.hpp>
#include <string>
#include <vector>

#include "build_tree.hpp"

namespace host = platform::host;

namespace {

// A runtime whose store provider is `provider`, with no service plugins, on a manual clock; the
// store functions are called through the provider's own host context (any plugin's would do).
class StoreHost {
public:
    explicit StoreHost(const std::string& provider) {
        char tmpl[] = "/tmp/store-host-test-XXXXXX";
        if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
        home_ = tmpl;
        host::Settings settings;
        settings.exe_dir = platform::test::build_dir();
        settings.home = home_;
        settings.config_secret_key = "store-host-test";
        settings.plugin_path = {platform::test::test_plugin_dir() + "/store-minimal"};
        host::Profile profile;
        profile.name = "store-host-test";
        profile.manual_clock = true;
        profile.all_plugins = false;
        profile.providers["store"] =
            host::ProviderChoice{provider, nlohmann::json::object(), "test"};
        profile.privileged = {provider};
        rt_ = std::make_unique<host::Runtime>(settings, profile);
        rt_->start();
        rt_->clock().set_ms(1767225600000);
        for (const auto& p : rt_->plugins())
            if (p->id == provider) plugin_ = p.get();
        if (!plugin_) throw std::runtime_error(provider + " not loaded");
    }
    ~StoreHost() {
        rt_.reset();
        std::error_code ec;
        std::filesystem::remove_all(home_, ec);
    }

    const platform_host_api_t* api() const { return rt_->api(); }
    platform_host_ctx_t* ctx() const {
        return reinterpret_cast<platform_host_ctx_t*>(&plugin_->ctx);
    }
    host::Runtime& runtime() { return *rt_; }
    const std::string& own_table() const { return plugin_->id; }
    int64_t now() const { return rt_->clock().now_ms(); }

    std::optional<std::string> get(const std::string& key) const {
        std::string out;
        auto st = api()->store_get(ctx(), platform::view(key), platform::append_sink, &out);
        if (st != PLATFORM_OK) return std::nullopt;
        return out;
    }
    platform_status_t cas(const std::string& key, const std::optional<std::string>& expected,
                          const std::optional<std::string>& value, int64_t expires_at = 0) const {
        platform_str_t e = expected ? platform::view(*expected) : platform_str_t{};
        platform_str_t v = value ? platform::view(*value) : platform_str_t{};
        return api()->store_cas(ctx(), platform::view(key), expected ? &e : nullptr,
                                value ? &v : nullptr, expires_at);
    }
    static platform_store_op_t op(uint32_t kind, const std::string& key,
                                  const std::string& value = "", int64_t expires_at = 0) {
        platform_store_op_t o{};
        o.struct_size = sizeof o;
        o.kind = kind;
        o.key = platform::view(key);
        o.value = platform::view(value);
        o.expires_at_ms = expires_at;
        return o;
    }

private:
    std::string home_;
    std::unique_ptr<host::Runtime> rt_;
    host::Plugin* plugin_ = nullptr;
};

}  // namespace

TEST(StoreHost, CasReachesTheProvider) {
    StoreHost h("store-memory");
    EXPECT_EQ(h.cas("k", std::nullopt, "v1"), PLATFORM_OK);
    EXPECT_EQ(h.cas("k", std::nullopt, "v2"), PLATFORM_CONFLICT);
    EXPECT_EQ(h.get("k"), "v1");
    EXPECT_EQ(h.cas("k", std::string("v1"), "v2"), PLATFORM_OK);
    EXPECT_EQ(h.cas("k", std::string("v1"), std::nullopt), PLATFORM_CONFLICT);
    EXPECT_EQ(h.cas("k", std::string("v2"), std::nullopt), PLATFORM_OK);
    EXPECT_FALSE(h.get("k").has_value());
    EXPECT_EQ(h.cas("k", std::nullopt, "v", -1), PLATFORM_INVALID_ARGUMENT);
    EXPECT_FALSE(h.get("k").has_value());
}

TEST(StoreHost, CasExpiryRunsOnTheBusinessClock) {
    StoreHost h("store-memory");
    EXPECT_EQ(h.cas("lease", std::nullopt, "a", h.now() + 1000), PLATFORM_OK);
    h.runtime().clock().advance_ms(999);
    EXPECT_EQ(h.cas("lease", std::nullopt, "b", h.now() + 1000), PLATFORM_CONFLICT);
    h.runtime().clock().advance_ms(1);
    EXPECT_FALSE(h.get("lease").has_value());
    EXPECT_EQ(h.cas("lease", std::nullopt, "b", h.now() + 1000), PLATFORM_OK);  // expired = absent
    EXPECT_EQ(h.get("lease"), "b");
}

TEST(StoreHost, BatchReachesTheProviderAllOrNothing) {
    StoreHost h("store-memory");
    const std::string a = "a", b = "b", v = "v", gone = "gone";
    ASSERT_EQ(h.api()->store_put(h.ctx(), platform::view(gone), platform::view(v), 0), PLATFORM_OK);
    platform_store_op_t ops[3] = {StoreHost::op(PLATFORM_STORE_OP_PUT, a, v),
                                  StoreHost::op(PLATFORM_STORE_OP_DEL, gone),
                                  StoreHost::op(42, b, v)};
    EXPECT_EQ(h.api()->store_batch(h.ctx(), ops, 3, sizeof ops[0]), PLATFORM_INVALID_ARGUMENT);
    ops[2] = StoreHost::op(PLATFORM_STORE_OP_PUT, b, v, -1);
    EXPECT_EQ(h.api()->store_batch(h.ctx(), ops, 3, sizeof ops[0]), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(h.api()->store_batch(h.ctx(), nullptr, 3, sizeof ops[0]), PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(h.api()->store_batch(h.ctx(), ops, 3, 4), PLATFORM_INVALID_ARGUMENT);
    EXPECT_FALSE(h.get("a").has_value());
    EXPECT_EQ(h.get("gone"), "v");
    ops[2] = StoreHost::op(PLATFORM_STORE_OP_PUT, b, v, h.now() + 10);
    EXPECT_EQ(h.api()->store_batch(h.ctx(), ops, 3, sizeof ops[0]), PLATFORM_OK);
    EXPECT_EQ(h.get("a"), "v");
    EXPECT_FALSE(h.get("gone").has_value());
    EXPECT_EQ(h.get("b"), "v");
    h.runtime().clock().advance_ms(10);
    EXPECT_FALSE(h.get("b").has_value());
    EXPECT_EQ(h.api()->store_batch(h.ctx(), nullptr, 0, 0), PLATFORM_OK);
}

TEST(StoreHost, BatchOpsOfAnOlderSizeAreNormalised) {
    StoreHost h("store-memory");
    // An op that ends before expires_at_ms, walked by a larger stride: the stray bytes after it
    // must not be read as an expiry.
    struct Padded {
        platform_store_op_t op;
        int64_t junk;
    };
    const std::string k = "k", v = "v";
    Padded p[2]{};
    for (auto& e : p) {
        e.op = StoreHost::op(PLATFORM_STORE_OP_PUT, k, v, h.now() - 1);
        e.op.struct_size = offsetof(platform_store_op_t, expires_at_ms);
        e.junk = -1;
    }
    const std::string k2 = "k2";
    p[1].op.key = platform::view(k2);
    EXPECT_EQ(h.api()->store_batch(h.ctx(), &p[0].op, 2, sizeof(Padded)), PLATFORM_OK);
    h.runtime().clock().advance_ms(1000000);
    EXPECT_EQ(h.get("k"), "v");
    EXPECT_EQ(h.get("k2"), "v");
}

TEST(StoreHost, PrivilegedSubTableVersion2) {
    StoreHost h("store-memory");
    auto* t = static_cast<const platform_store_api_t*>(
        h.api()->get_service(h.ctx(), platform::view("store"), 2));
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->version, 2u);
    EXPECT_EQ(h.api()->get_service(h.ctx(), platform::view("store"), 3), nullptr);
    const std::string other = "other-table", key = "k", v = "v";
    platform_str_t val = platform::view(v);
    EXPECT_EQ(t->cas(h.ctx(), platform::view(other), platform::view(key), nullptr, &val, 0),
              PLATFORM_OK);
    EXPECT_EQ(t->cas(h.ctx(), platform::view(other), platform::view(key), nullptr, &val, 0),
              PLATFORM_CONFLICT);
    EXPECT_FALSE(h.get("k").has_value());  // another table than the plugin's own
    // The plugin's own table by name is the one store_* reach.
    EXPECT_EQ(t->cas(h.ctx(), platform::view(h.own_table()), platform::view(key), nullptr, &val, 0),
              PLATFORM_OK);
    EXPECT_EQ(h.get("k"), "v");
    platform_store_op_t del = StoreHost::op(PLATFORM_STORE_OP_DEL, key);
    EXPECT_EQ(t->batch(h.ctx(), platform::view(other), &del, 1, sizeof del), PLATFORM_OK);
    EXPECT_EQ(t->cas(h.ctx(), platform::view(other), platform::view(key), nullptr, &val, 0),
              PLATFORM_OK);
    EXPECT_EQ(h.get("k"), "v");
}

TEST(StoreHost, TheSdkOverTheRealHost) {
    StoreHost h("store-memory");
    platform::Store store(h.api(), h.ctx());
    platform::Collection alice(store, "notes", "alice"), bob(store, "notes", "bob");
    EXPECT_TRUE(alice.insert_if_absent("n", {{"t", 1}}));
    EXPECT_TRUE(bob.insert_if_absent("n", {{"t", 2}}));
    EXPECT_FALSE(alice.insert_if_absent("n", {{"t", 3}}, 1000));
    alice.batch({platform::JsonWrite::put("m", {{"t", 4}}, 1000), platform::JsonWrite::erase("n")});
    EXPECT_FALSE(alice.get("n").has_value());
    EXPECT_EQ(bob.get("n"), (nlohmann::json{{"t", 2}}));
    EXPECT_EQ(store.get("notes/alice/m"), R"({"t":4})");
    h.runtime().clock().advance_ms(1000);
    EXPECT_FALSE(alice.get("m").has_value());
}

TEST(StoreHost, UndeclaredFeaturesAnswerUnsupported) {
    StoreHost h("store-minimal");  // declares no feature
    const std::string k = "k", v = "v", t = "other";
    EXPECT_EQ(h.cas("k", std::nullopt, "v"), PLATFORM_UNSUPPORTED);
    platform_store_op_t put = StoreHost::op(PLATFORM_STORE_OP_PUT, k, v);
    EXPECT_EQ(h.api()->store_batch(h.ctx(), &put, 1, sizeof put), PLATFORM_UNSUPPORTED);
    EXPECT_EQ(h.api()->store_put(h.ctx(), platform::view(k), platform::view(v), 1000),
              PLATFORM_UNSUPPORTED);  // no TTL
    EXPECT_FALSE(h.get("k").has_value());
    EXPECT_EQ(h.api()->store_put(h.ctx(), platform::view(k), platform::view(v), 0), PLATFORM_OK);
    EXPECT_EQ(h.get("k"), "v");
    auto* sub = static_cast<const platform_store_api_t*>(
        h.api()->get_service(h.ctx(), platform::view("store"), 2));
    ASSERT_NE(sub, nullptr);
    platform_str_t val = platform::view(v);
    EXPECT_EQ(sub->cas(h.ctx(), platform::view(t), platform::view(k), nullptr, &val, 0),
              PLATFORM_UNSUPPORTED);
    EXPECT_EQ(sub->batch(h.ctx(), platform::view(t), &put, 1, sizeof put), PLATFORM_UNSUPPORTED);
    // Through the SDK: Error(unsupported).
    platform::Store store(h.api(), h.ctx());
    try {
        store.insert_if_absent("x", "y");
        FAIL() << "expected unsupported";
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::unsupported);
    }
}

TEST(StoreHost, PrefixScansAreFilteredForAProviderWithoutPrefix) {
    StoreHost h("store-minimal");  // its scan returns the whole table
    for (const char* k : {"notes/alice/1", "notes/alice/2", "notes/alice/3", "notes/bob/1",
                          "notes/alicex/1", "other"})
        ASSERT_EQ(h.api()->store_put(h.ctx(), platform::view(k), platform::view(k), 0),
                  PLATFORM_OK);
    platform::Store store(h.api(), h.ctx());
    auto keys = [&](platform::ScanOptions o) {
        std::vector<std::string> out;
        for (auto& r : store.scan(o)) out.push_back(r.key);
        std::sort(out.begin(), out.end());
        return out;
    };
    EXPECT_EQ(keys({"notes/alice/"}),
              (std::vector<std::string>{"notes/alice/1", "notes/alice/2", "notes/alice/3"}));
    EXPECT_EQ(keys({}).size(), 6u);
    // offset and limit count matching records only: three pages of one cover the three records.
    std::vector<std::string> pages;
    for (uint32_t off = 0; off < 4; ++off) {
        auto page = keys({"notes/alice/", false, 1, off});
        EXPECT_EQ(page.size(), off < 3 ? 1u : 0u) << off;
        pages.insert(pages.end(), page.begin(), page.end());
    }
    std::sort(pages.begin(), pages.end());
    EXPECT_EQ(pages, (std::vector<std::string>{"notes/alice/1", "notes/alice/2", "notes/alice/3"}));
    EXPECT_EQ(keys({"notes/alice/", false, 2, 0}).size(), 2u);
    EXPECT_EQ(keys({"notes/bob/"}), (std::vector<std::string>{"notes/bob/1"}));
    EXPECT_TRUE(keys({"zzz"}).empty());
    // An owner-scoped collection lists only its owner's records.
    platform::Collection carol(store, "c", "carol"), dave(store, "c", "dave");
    carol.put("1", {{"n", 1}});
    carol.put("2", {{"n", 2}});
    dave.put("1", {{"n", 3}});
    EXPECT_EQ(carol.list().size(), 2u);
    EXPECT_EQ(dave.list().size(), 1u);
    EXPECT_EQ(dave.list()[0].second, (nlohmann::json{{"n", 3}}));
    EXPECT_EQ(carol.list({"", false, 1, 1}).size(), 1u);
}
