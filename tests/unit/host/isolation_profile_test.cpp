// profile.hpp: the `isolation:` map (docs/decisions.md 25) — which plugins run in a worker.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <platform/host/core/profile.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;
using platform::host::load_profile;
using platform::host::ProfileError;

std::string write_profile(const std::string& body) {
    std::string dir = (fs::temp_directory_path() / "isolation-profile-XXXXXX").string();
    if (!mkdtemp(dir.data())) return "";
    const std::string path = dir + "/p.yaml";
    std::ofstream(path) << body
                        << "providers:\n"
                           "  store: {plugin: store-memory}\n"
                           "  broker: {plugin: broker-memory}\n"
                           "  auth: {plugin: auth-noop}\n";
    return path;
}

std::string error_of(const std::string& body) {
    try {
        load_profile(write_profile(body), {});
    } catch (const ProfileError& e) {
        return e.what();
    }
    return "";
}

TEST(IsolationProfile, ListsThePluginsThatRunInAWorker) {
    auto p = load_profile(write_profile("isolation: {notes: process, docs: in-process}\n"), {});
    EXPECT_EQ(p.isolated, (std::set<std::string>{"notes"}));
    EXPECT_NE(p.isolation_where.find("p.yaml:1"), std::string::npos);
    EXPECT_TRUE(
        load_profile(write_profile("name: x\n"), {}).isolated.empty());  // default: in process
}

TEST(IsolationProfile, RefusesBadValuesAndProviders) {
    EXPECT_NE(error_of("isolation: {notes: sandbox}\n")
                  .find("isolation.notes: must be process or in-process"),
              std::string::npos);
    EXPECT_NE(error_of("isolation: [notes]\n").find("isolation: must be a mapping"),
              std::string::npos);
    EXPECT_NE(error_of("isolation: {store-memory: process}\n").find("providers run in the host"),
              std::string::npos);
}

}  // namespace
