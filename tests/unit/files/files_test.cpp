// The files plugin (plugins/files) through the fake host: base64 and type guessing, put/get/list/
// delete, the raw reply of /ui/files/<id>, ownership, MCP resources and the drive's 503.
#include "files.hpp"

#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

const std::string kBinary("\x89PNG\r\n\x1a\n\x00\x01\x02\xff\xfe", 13);

TEST(FilesCodec, Base64RoundTripsEveryByte) {
    std::string all;
    for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
    for (size_t n : {0u, 1u, 2u, 3u, 255u, 256u}) {
        const std::string part = all.substr(0, n);
        auto back = files::base64_decode(files::base64_encode(part));
        ASSERT_TRUE(back);
        EXPECT_EQ(*back, part);
    }
    EXPECT_EQ(files::base64_encode("hi"), "aGk=");
    EXPECT_FALSE(files::base64_decode("a"));
    EXPECT_FALSE(files::base64_decode("aGk=x"));
    EXPECT_FALSE(files::base64_decode("a*k="));
}

TEST(FilesCodec, GuessesTypeFromExtension) {
    EXPECT_EQ(files::guess_type("a.PNG"), "image/png");
    EXPECT_EQ(files::guess_type("notes.md"), "text/markdown");
    EXPECT_EQ(files::guess_type("report.pdf"), "application/pdf");
    EXPECT_EQ(files::guess_type("archive.tar.gz"), "application/gzip");
    EXPECT_EQ(files::guess_type("blob.unknownext"), "application/octet-stream");
    EXPECT_EQ(files::content_type("text/plain", true), "text/plain; charset=utf-8");
    EXPECT_EQ(files::content_type("text/plain", false), "text/plain");
    EXPECT_EQ(files::content_type("image/png", true), "image/png");
    // What a browser would run on the instance's origin is served as plain text.
    EXPECT_EQ(files::content_type("text/html", true), "text/plain; charset=utf-8");
    EXPECT_EQ(files::content_type("Text/HTML; charset=latin1", false), "text/plain; charset=utf-8");
    EXPECT_EQ(files::content_type("image/svg+xml", true), "text/plain; charset=utf-8");
    EXPECT_EQ(files::content_type("application/javascript", false), "text/plain; charset=utf-8");
}

class FilesTest : public ::testing::Test {
protected:
    Reply put(const json& args, const std::string& who = "alice") {
        return files.call("put", args, who);
    }

    FakeHost host;
    FakePlugin files = host.load(platform_plugin_entry);
};

TEST_F(FilesTest, PutBinaryServesIdenticalBytes) {
    Reply p = put(
        {{"name", "pic.png"}, {"content", files::base64_encode(kBinary)}, {"encoding", "base64"}});
    ASSERT_EQ(p.code, PLATFORM_OK) << p.body;
    const json f = p.json();
    EXPECT_EQ(f["type"], "image/png");
    EXPECT_EQ(f["size"], kBinary.size());
    EXPECT_EQ(f["url"], "/ui/files/" + f["id"].get<std::string>());
    EXPECT_EQ(f["created"], "2026-01-01T00:00:00Z");

    Reply raw = files.call("raw", {{"id", f["id"]}}, "alice");
    ASSERT_EQ(raw.code, PLATFORM_OK) << raw.body;
    EXPECT_EQ(raw.body, kBinary);
    EXPECT_EQ(raw.content_type, "image/png");
    EXPECT_EQ(files.call("raw", {{"id", f["id"]}}, "bob").code, PLATFORM_NOT_FOUND);

    Reply g = files.call("get", {{"id", f["id"]}}, "alice");
    ASSERT_EQ(g.code, PLATFORM_OK);
    EXPECT_EQ(g.json()["content"], files::base64_encode(kBinary));
    EXPECT_EQ(g.json()["encoding"], "base64");
}

TEST_F(FilesTest, TextKeepsItsTextAndGivenType) {
    Reply p = put({{"name", "data.txt"}, {"content", "a,b\n1,2\n"}, {"type", "text/csv"}});
    ASSERT_EQ(p.code, PLATFORM_OK) << p.body;
    EXPECT_EQ(p.json()["type"], "text/csv");
    EXPECT_EQ(p.json()["encoding"], "text");
    Reply raw = files.call("raw", {{"id", p.json()["id"]}}, "alice");
    EXPECT_EQ(raw.body, "a,b\n1,2\n");
    EXPECT_EQ(raw.content_type, "text/csv; charset=utf-8");
    EXPECT_EQ(files.call("get", {{"id", p.json()["id"]}}, "alice").json()["content"], "a,b\n1,2\n");
}

TEST_F(FilesTest, RefusesBadBase64AndTooLarge) {
    Reply bad = put({{"name", "x.bin"}, {"content", "!!!"}, {"encoding", "base64"}});
    EXPECT_EQ(bad.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(bad.body.find("content"), std::string::npos);
    Reply big = put({{"name", "x.txt"}, {"content", std::string(Files::kMaxBytes + 1, 'x')}});
    EXPECT_EQ(big.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(big.body.find("5 MB"), std::string::npos);
}

TEST_F(FilesTest, ListNewestFirstAndOwnerScoped) {
    std::vector<std::string> ids;
    for (const char* n : {"a.txt", "b.txt", "c.txt"}) {
        ids.push_back(put({{"name", n}, {"content", n}}).json()["id"]);
        host.now_ms += 1000;
    }
    put({{"name", "other.txt"}, {"content", "x"}}, "bob");
    Reply l = files.call("list", json::object(), "alice");
    ASSERT_EQ(l.code, PLATFORM_OK);
    const json list = l.json()["files"];
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0]["id"], ids[2]);
    EXPECT_EQ(list[2]["id"], ids[0]);
    EXPECT_FALSE(list[0].contains("content"));
}

TEST_F(FilesTest, DeleteRemovesFileAndBytes) {
    const std::string id = put({{"name", "a.txt"}, {"content", "x"}}).json()["id"];
    EXPECT_EQ(files.call("delete", {{"id", id}}, "bob").code, PLATFORM_NOT_FOUND);
    Reply d = files.call("delete", {{"id", id}}, "alice");
    ASSERT_EQ(d.code, PLATFORM_OK);
    EXPECT_EQ(d.json()["deleted"], id);
    EXPECT_EQ(files.call("get", {{"id", id}}, "alice").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(files.call("raw", {{"id", id}}, "alice").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(files.call("delete", {{"id", id}}, "alice").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(host.updated_resources.back(), "files://" + id);
}

TEST_F(FilesTest, McpResourcesTextAndBlob) {
    const std::string text = put({{"name", "a.md"}, {"content", "# hi"}}).json()["id"];
    const std::string bin =
        put({{"name", "b.png"}, {"content", files::base64_encode(kBinary)}, {"encoding", "base64"}})
            .json()["id"];
    const json list = files.call("resources", json::object(), "alice").json()["resources"];
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0]["uri"], "files://" + bin);
    EXPECT_EQ(list[0]["mimeType"], "image/png");
    const json t =
        files.call("read_resource", {{"uri", "files://" + text}}, "alice").json()["contents"][0];
    EXPECT_EQ(t["text"], "# hi");
    EXPECT_EQ(t["mimeType"], "text/markdown");
    const json b =
        files.call("read_resource", {{"uri", "files://" + bin}}, "alice").json()["contents"][0];
    EXPECT_EQ(b["blob"], files::base64_encode(kBinary));
    EXPECT_FALSE(b.contains("text"));
    EXPECT_EQ(files.call("read_resource", {{"uri", "files://" + bin}}, "bob").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(files.call("read_resource", {{"uri", "notes://x"}}, "alice").code,
              PLATFORM_NOT_FOUND);
}

TEST_F(FilesTest, DriveAnswers503NamingTheSetting) {
    Reply r = files.call("driveread", {{"id", "x"}}, "alice");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("plugin_config.files.drive.provider"), std::string::npos) << r.body;
    Reply s = files.call("drivesearch", {{"query", "x"}}, "alice");
    EXPECT_EQ(s.code, PLATFORM_UNAVAILABLE);
    host.config = {{"drive", {{"provider", "gdrive"}}}};
    Reply c = files.call("drivesearch", json::object(), "alice");
    EXPECT_EQ(c.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(c.body.find("gdrive"), std::string::npos) << c.body;
}

}  // namespace
