// The files catalogue service against the real host (test profile: the bearer token is the
// account id): every method over /api/v1/files, its limits and ownership, the bytes at
// /ui/files/<id> (a file put as base64 comes back byte-identical with its content type; another
// account gets 404), the drive's 503, one MCP call and the files:// resources.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "file_bytes.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// Every byte value, twice, and a PNG signature in front.
std::string binary() {
    std::string out("\x89PNG\r\n\x1a\n", 8);
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 256; ++i) out += static_cast<char>(i);
    return out;
}

class FilesApi : public CatalogueTest {
protected:
    FilesApi() : CatalogueTest("files") {}
    json put(const json& body, const std::string& who) { return ok("put", body, who); }
};

TEST_F(FilesApi, Base64PutComesBackByteIdenticalFromItsUrl) {
    const std::string bytes = binary();
    json file = put({{"name", "pixel.png"}, {"content", base64(bytes)}, {"encoding", "base64"}},
                    "fl-alice");
    const std::string id = file["id"];
    EXPECT_EQ(file["type"], "image/png");
    EXPECT_EQ(file["size"], bytes.size());
    EXPECT_EQ(file["url"], "/ui/files/" + id);

    auto raw = api.get("/ui/files/" + id, as("fl-alice"));
    ASSERT_EQ(raw.status, 200) << raw.body;
    EXPECT_EQ(raw.header("content-type"), "image/png");
    EXPECT_EQ(raw.body, bytes);
    EXPECT_EQ(api.get("/ui/files/" + id, as("fl-bob")).status, 404);  // another account
    EXPECT_EQ(api.get("/ui/files/" + id).status, 401);                // anonymous
    EXPECT_EQ(api.get("/ui/files/fl-nothing", as("fl-alice")).status, 404);
}

TEST_F(FilesApi, TextPutServedWithGuessedOrGivenType) {
    json md = put({{"name", "Notes.MD"}, {"content", "# Título\n"}}, "fl-text");
    EXPECT_EQ(md["type"], "text/markdown");
    EXPECT_EQ(md["encoding"], "text");
    auto raw = api.get(md["url"].get<std::string>(), as("fl-text"));
    EXPECT_EQ(raw.header("content-type"), "text/markdown; charset=utf-8");
    EXPECT_EQ(raw.body, "# Título\n");
    json csv = put({{"name", "t.dat"}, {"content", "a,b"}, {"type", "text/csv"}}, "fl-text");
    EXPECT_EQ(csv["type"], "text/csv");
    json unknown = put({{"name", "t.zzz"}, {"content", "x"}}, "fl-text");
    EXPECT_EQ(unknown["type"], "application/octet-stream");
}

TEST_F(FilesApi, PutLimitsAndMissingArguments) {
    expect_400(post("put", {{"content", "x"}}, "fl-lim"), "name");
    expect_400(post("put", {{"name", "a.txt"}}, "fl-lim"), "content");
    expect_400(post("put", {{"name", "noextension"}, {"content", "x"}}, "fl-lim"), "name");
    expect_400(post("put", {{"name", "a.bin"}, {"content", "not base64!"}, {"encoding", "base64"}},
                    "fl-lim"),
               "base64");
    expect_400(post("put", {{"name", "a.txt"}, {"content", "x"}, {"encoding", "hex"}}, "fl-lim"),
               "encoding");
    expect_400(
        post("put", {{"name", "a.txt"}, {"content", "x"}, {"type", "text/plain\r\nX-Evil: 1"}},
             "fl-lim"),
        "type");
    expect_400(post("put", {{"name", "a.txt"}, {"content", std::string(5 * 1024 * 1024 + 1, 'x')}},
                    "fl-lim"),
               "5 MB");
    EXPECT_EQ(
        post("put", {{"name", "a.txt"}, {"content", std::string(5 * 1024 * 1024, 'x')}}, "fl-lim")
            .status,
        200);
    EXPECT_EQ(api.post_json("/api/v1/files/put", {{"name", "a.txt"}, {"content", "x"}}).status,
              401);
    EXPECT_EQ(api.get("/api/v1/files/put?name=a.txt&content=x", as("fl-lim")).status, 405);
}

TEST_F(FilesApi, GetListDeleteAndOwnership) {
    std::vector<std::string> ids;
    for (const char* n : {"one.txt", "two.txt", "three.txt"}) {
        ids.push_back(put({{"name", n}, {"content", n}}, "fl-carol")["id"]);
        tick();
    }
    auto list = get("list", "fl-carol");
    ASSERT_EQ(list.status, 200) << list.body;
    const json files = list.json()["data"]["files"];
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[0]["id"], ids[2]);  // newest first
    EXPECT_EQ(files[2]["id"], ids[0]);
    EXPECT_EQ(get("list", "fl-dave").json()["data"]["files"].size(), 0u);

    auto one = get("get?id=" + ids[1], "fl-carol");
    ASSERT_EQ(one.status, 200) << one.body;
    EXPECT_EQ(one.json()["data"]["content"], "two.txt");
    EXPECT_EQ(get("get?id=" + ids[1], "fl-dave").status, 404);
    expect_400(get("get", "fl-carol"), "id");
    expect_400(post("delete", json::object(), "fl-carol"), "id");

    EXPECT_EQ(post("delete", {{"id", ids[1]}}, "fl-dave").status, 404);
    auto del = post("delete", {{"id", ids[1]}}, "fl-carol");
    ASSERT_EQ(del.status, 200) << del.body;
    EXPECT_EQ(del.json()["data"]["deleted"], ids[1]);
    EXPECT_EQ(get("get?id=" + ids[1], "fl-carol").status, 404);
    EXPECT_EQ(api.get("/ui/files/" + ids[1], as("fl-carol")).status, 404);
    EXPECT_EQ(post("delete", {{"id", ids[1]}}, "fl-carol").status, 404);
    EXPECT_EQ(get("list", "fl-carol").json()["data"]["files"].size(), 2u);
}

// The test profile configures no drive: 503 naming the setting (the drive against a fake Google
// Drive: drive_test.cpp); bad arguments are 400 first.
TEST_F(FilesApi, DriveIs503WithoutADriveProvider) {
    auto read = get("driveread?id=abc", "fl-drive");
    EXPECT_EQ(read.status, 503) << read.body;
    EXPECT_NE(read.body.find("plugin_config.files.drive.provider"), std::string::npos) << read.body;
    auto search = post("drivesearch", {{"query", "budget"}}, "fl-drive");
    EXPECT_EQ(search.status, 503) << search.body;
    auto connect = post("driveconnect", {{"token", "ya29.a0AfB_byC"}}, "fl-drive");
    EXPECT_EQ(connect.status, 503) << connect.body;
    EXPECT_NE(connect.body.find("plugin_config.files.drive.provider"), std::string::npos)
        << connect.body;
    EXPECT_EQ(post("drivedisconnect", json::object(), "fl-drive").json()["data"],
              (json{{"disconnected", false}}));
    expect_400(get("driveread", "fl-drive"), "id");
    expect_400(post("drivesearch", {{"limit", 0}}, "fl-drive"), "limit");
    expect_400(post("drivesearch", {{"limit", 21}}, "fl-drive"), "limit");
    expect_400(post("driveconnect", json::object(), "fl-drive"), "token");
    expect_400(post("driveconnect", {{"token", "two words"}}, "fl-drive"), "token");
}

TEST_F(FilesApi, McpToolAndResources) {
    json file =
        put({{"name", "m.bin"}, {"content", base64(binary())}, {"encoding", "base64"}}, "fl-mcp");
    McpClient mcp(host->api_port(), "fl-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("files_get", {{"id", file["id"]}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"],
              get("get?id=" + file["id"].get<std::string>(), "fl-mcp").json()["data"]);

    const json listed = mcp.request("resources/list");
    ASSERT_TRUE(listed.contains("result")) << listed;
    bool found = false;
    for (const auto& r : listed["result"]["resources"])
        found |= r["uri"] == "files://" + file["id"].get<std::string>();
    EXPECT_TRUE(found) << listed;
    const json read =
        mcp.request("resources/read", {{"uri", "files://" + file["id"].get<std::string>()}});
    ASSERT_TRUE(read.contains("result")) << read;
    EXPECT_EQ(read["result"]["contents"][0]["blob"], base64(binary()));
}

}  // namespace
