// service_registry.hpp: look-ups by name, and what each thread remembers of them staying true
// while services are added and removed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <platform/host/core/plugin.hpp>
#include <platform/host/core/service_registry.hpp>
#include <thread>
#include <vector>

namespace {

using platform::host::Plugin;
using platform::host::ServiceEntry;
using platform::host::ServiceRegistry;

Plugin serving(const std::string& service) {
    Plugin p;
    p.id = service;
    p.service = service;
    return p;
}

TEST(ServiceRegistry, CatalogueAndExactNamesFindTheService) {
    ServiceRegistry r("go.core.api", "node");
    Plugin notes = serving("v1.notes");
    ASSERT_TRUE(r.add(&notes));
    const ServiceEntry* e = r.find_catalogue("notes");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->plugin, &notes);
    EXPECT_EQ(r.find_exact("go.core.api.v1.notes"), e);
    EXPECT_EQ(r.find_catalogue("notes"), e);  // remembered: the same entry
    EXPECT_EQ(r.find_catalogue("tasks"), nullptr);
    EXPECT_EQ(r.find_exact("v1.notes"), nullptr);  // exact means the full name
}

// A thread that found a service must not keep finding it once it is removed, and must find the
// plugin that serves the name next.
TEST(ServiceRegistry, ARemovedServiceIsNotFoundByAThreadThatFoundItBefore) {
    ServiceRegistry r("go.core.api", "node");
    Plugin old_notes = serving("v1.notes"), new_notes = serving("v1.notes");
    ASSERT_TRUE(r.add(&old_notes));
    ASSERT_EQ(r.find_catalogue("notes")->plugin, &old_notes);
    ASSERT_EQ(r.find_exact("go.core.api.v1.notes")->plugin, &old_notes);
    ASSERT_TRUE(r.remove(&old_notes));
    EXPECT_EQ(r.find_catalogue("notes"), nullptr);
    EXPECT_EQ(r.find_exact("go.core.api.v1.notes"), nullptr);
    ASSERT_TRUE(r.add(&new_notes));
    EXPECT_EQ(r.find_catalogue("notes")->plugin, &new_notes);
    EXPECT_EQ(r.find_exact("go.core.api.v1.notes")->plugin, &new_notes);
}

// Readers on many threads while one thread replaces the service again and again: after each
// replacement every reader soon finds the new plugin (a reader that kept what it found before
// would find the old one for ever), and never anything but the two.
TEST(ServiceRegistry, ReadersOnManyThreadsFollowReplacements) {
    ServiceRegistry r("go.core.api", "node");
    Plugin a = serving("v1.notes"), b = serving("v1.notes");
    ASSERT_TRUE(r.add(&a));
    constexpr int kReaders = 4, kRounds = 200;
    std::atomic<bool> reading{true};
    std::atomic<int> wrong{0};
    std::vector<std::atomic<const Plugin*>> last(kReaders);
    std::vector<std::thread> readers;
    for (int t = 0; t < kReaders; ++t)
        readers.emplace_back([&, t] {
            while (reading.load()) {
                const ServiceEntry* e = r.find_catalogue("notes");
                if (!e) continue;  // between a remove and the add
                if (e->plugin != &a && e->plugin != &b) wrong.fetch_add(1);
                last[t].store(e->plugin);
            }
        });
    Plugin* now = &a;
    int followed = 0;
    for (int i = 0; i < kRounds; ++i) {
        Plugin* next = now == &a ? &b : &a;
        ASSERT_TRUE(r.remove(now));
        ASSERT_TRUE(r.add(next));
        now = next;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        bool all = false;
        while (!all && std::chrono::steady_clock::now() < deadline) {
            all = true;
            for (auto& l : last) all &= l.load() == now;
            if (!all) std::this_thread::yield();
        }
        if (!all) break;
        ++followed;
    }
    reading = false;
    for (auto& t : readers) t.join();
    EXPECT_EQ(followed, kRounds) << "a reader kept finding the replaced plugin";
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
