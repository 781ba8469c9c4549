// loader.hpp: ELF checks before dlopen, plugin discovery, and loading the real notes plugin.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <platform/host/core/loader.hpp>
#include <platform/host/core/runtime.hpp>
#include <string>
#include <vector>

#include "../support/scratch_dir.hpp"
#include "build_tree.hpp"

namespace {

namespace fs = std::filesystem;
using platform::host::check_elf;
using platform::host::find_plugin_files;
using platform::host::load_plugin;
using platform::host::Plugin;

const fs::path kNotes = fs::path(platform::test::plugin_dir()) / "notes.so";

class LoaderTest : public ::testing::Test {
protected:
    fs::path write(const std::string& name, const std::string& bytes) {
        fs::path p = dir_ / name;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }
    plugin_test::TempDir tmp_;
    const fs::path dir_ = tmp_.path();
};

TEST_F(LoaderTest, CheckElfRefusesWhatIsNotASharedObject) {
    const fs::path missing = dir_ / "missing.so";
    const fs::path empty = write("empty.so", "");
    const fs::path text =
        write("text.so", std::string(200, 'x') + "\nthis is a text file, not a plugin\n");
    const fs::path tiny = write("tiny.so",
                                "\x7f"
                                "ELF");

    EXPECT_NE(check_elf(missing), "");
    EXPECT_NE(check_elf(empty), "");
    EXPECT_NE(check_elf(tiny), "");
    EXPECT_EQ(check_elf(text), "not an ELF file");
}

TEST_F(LoaderTest, CheckElfAcceptsRealPluginAndRefusesTruncatedCopy) {
    ASSERT_TRUE(fs::exists(kNotes)) << kNotes;
    EXPECT_EQ(check_elf(kNotes), "");

    const fs::path half = dir_ / "notes-half.so";
    fs::copy_file(kNotes, half);
    const auto size = fs::file_size(half);
    fs::resize_file(half, size / 2);
    ASSERT_EQ(fs::file_size(half), size / 2);
    std::string problem = check_elf(half);
    EXPECT_NE(problem.find("truncated"), std::string::npos) << problem;

    // load_plugin refuses it with the same message, without dlopen-ing it.
    auto api = platform::host::make_host_api();
    auto r = load_plugin(half, &api);
    ASSERT_TRUE(std::holds_alternative<std::string>(r));
    EXPECT_NE(std::get<std::string>(r).find("truncated"), std::string::npos)
        << std::get<std::string>(r);
}

// Cut inside the loadable segments (headers intact): dlopen would map past the end of the file.
TEST_F(LoaderTest, CheckElfRefusesCopyTruncatedInsideLoadSegments) {
    ASSERT_TRUE(fs::exists(kNotes)) << kNotes;
    for (uintmax_t size : {uintmax_t{4096}, uintmax_t{64 * 1024}}) {
        SCOPED_TRACE(size);
        const fs::path cut = dir_ / ("notes-" + std::to_string(size) + ".so");
        fs::copy_file(kNotes, cut);
        fs::resize_file(cut, size);
        std::string problem = check_elf(cut);
        EXPECT_NE(problem.find("truncated"), std::string::npos) << problem;
    }
}

TEST_F(LoaderTest, LoadPluginRefusesNonElf) {
    auto api = platform::host::make_host_api();
    auto r = load_plugin(write("bad.so", std::string(100, 'a')), &api);
    ASSERT_TRUE(std::holds_alternative<std::string>(r));
    EXPECT_EQ(std::get<std::string>(r), "not an ELF file");
}

TEST_F(LoaderTest, FindPluginFilesSortedOnlySoSkipsMissingDirs) {
    write("a/zeta.so", "z");
    write("a/alpha.so", "a");
    write("a/middle.so", "m");
    write("a/readme.txt", "r");
    write("a/libfoo.so.1", "v");
    write("a/notes.so.bak", "b");
    fs::create_directories(dir_ / "a" / "dir.so");  // a directory named *.so is not a plugin
    write("b/beta.so", "b");
    write("b/aardvark.so", "a");

    auto files = find_plugin_files({dir_ / "a", dir_ / "does-not-exist", dir_ / "b"});
    std::vector<fs::path> want = {dir_ / "a" / "alpha.so", dir_ / "a" / "middle.so",
                                  dir_ / "a" / "zeta.so", dir_ / "b" / "aardvark.so",
                                  dir_ / "b" / "beta.so"};
    EXPECT_EQ(files, want);

    EXPECT_TRUE(find_plugin_files({}).empty());
    EXPECT_TRUE(find_plugin_files({dir_ / "nothing-here"}).empty());
}

TEST_F(LoaderTest, LoadsNotesPlugin) {
    ASSERT_TRUE(fs::exists(kNotes)) << kNotes;
    auto api = platform::host::make_host_api();
    auto r = load_plugin(kNotes, &api);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Plugin>>(r)) << std::get<std::string>(r);
    const Plugin& p = *std::get<std::unique_ptr<Plugin>>(r);
    EXPECT_EQ(p.id, "notes");
    EXPECT_EQ(p.service, "v1.notes");
    EXPECT_EQ(p.kind, PLATFORM_KIND_SERVICE);
    EXPECT_EQ(p.path, kNotes.string());
    EXPECT_NE(p.desc, nullptr);
    EXPECT_NE(p.library, nullptr);

    struct Want {
        const char* name;
        const char* method;
        platform_verb_t verb;
    };
    const Want want[] = {{"add", "Notes.Add", PLATFORM_VERB_POST},
                         {"delete", "Notes.Delete", PLATFORM_VERB_POST},
                         {"get", "Notes.Get", PLATFORM_VERB_GET},
                         {"list", "Notes.List", PLATFORM_VERB_GET}};
    ASSERT_EQ(p.endpoints.size(), 6u);  // add, delete, get, list and the two MCP resource roles
    for (size_t i = 0; i < 4; ++i) {
        SCOPED_TRACE(want[i].method);
        const auto& ep = p.endpoints[i];
        EXPECT_EQ(ep.index, i);
        EXPECT_EQ(ep.name, want[i].name);
        EXPECT_EQ(ep.method, want[i].method);
        EXPECT_EQ(ep.verb, want[i].verb);
        EXPECT_EQ(ep.access, PLATFORM_ACCESS_OWNER);
        EXPECT_EQ(ep.max_body, PLATFORM_DEFAULT_MAX_BODY);
        // Lookup by path name, canonical method, and case-insensitively.
        EXPECT_EQ(p.endpoint(want[i].name), &ep);
        EXPECT_EQ(p.endpoint(want[i].method), &ep);
    }
    EXPECT_EQ(p.endpoint("notes.add"), &p.endpoints[0]);
    EXPECT_EQ(p.endpoint("nope"), nullptr);
    // The input schema is compiled: add requires title and text.
    nlohmann::json args = {{"title", "t"}};
    auto problem = p.endpoints[0].input.validate(args);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(*problem, "text: is required");
}

}  // namespace
