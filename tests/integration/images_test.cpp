// The images catalogue service against the real host (test profile: the bearer token is the
// account id): every method over /api/v1/images, its limits and ownership, the bytes at
// /ui/images/<id>, publishing, cursors, one MCP call — and uploads refused with 400: bytes that
// are not an image, a truncated PNG, a 9-megapixel image and 513 KB of data.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalogue_test.hpp"
#include "file_bytes.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kPng1x1 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
    "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

class ImagesApi : public CatalogueTest {
protected:
    ImagesApi() : CatalogueTest("images") {}
    json upload(const std::string& bytes, const std::string& who) {
        return ok("upload", {{"data", base64(bytes)}}, who);
    }
    std::vector<std::string> ids(const HttpResult& r) { return listed(r, "images", "id"); }
};

TEST_F(ImagesApi, UploadsThatAreNotAcceptableImagesAre400) {
    expect_400(post("upload", {{"data", base64("plain text, not an image at all")}}, "im-lim"),
               "not a PNG, JPEG or GIF");
    const std::string good = png(2, 2);
    expect_400(post("upload", {{"data", base64(good.substr(0, good.size() - 12))}}, "im-lim"),
               "truncated PNG");
    expect_400(post("upload", {{"data", base64(png(3000, 3000))}}, "im-lim"), "8 megapixels");
    expect_400(post("upload", {{"data", base64(png(10, 10, 513 * 1024 - 57))}}, "im-lim"),
               "512 KB");  // 513 KB
    expect_400(post("upload", {{"data", base64(std::string(513 * 1024, '\0'))}}, "im-lim"),
               "512 KB");
    expect_400(post("upload", {{"data", "not base64!"}}, "im-lim"), "base64");
    expect_400(
        post("upload", {{"data", kPng1x1}, {"description", std::string(1001, 'd')}}, "im-lim"),
        "description");
    expect_400(post("upload", json::object(), "im-lim"), "data");
    EXPECT_EQ(post("upload", {{"data", base64(png(10, 10, 512 * 1024 - 57))}}, "im-lim").status,
              200);  // exactly 512 KB
    EXPECT_EQ(post("upload", {{"data", base64(png(2000, 4000))}}, "im-lim").status,
              200);  // exactly 8 MP
    EXPECT_EQ(api.post_json("/api/v1/images/upload", {{"data", kPng1x1}}).status, 401);
}

// The browser's way in: the upload page at /ui/images, and POST /ui/images taking what the API's
// 512 KB limit refuses, up to 8 MB decoded.
TEST_F(ImagesApi, BrowserUploadPageAndItsEightMegabyteLimit) {
    auto page = api.get("/ui/images");
    ASSERT_EQ(page.status, 200);
    EXPECT_EQ(page.header("content-type").rfind("text/html", 0), 0u);
    EXPECT_NE(page.body.find("X-CSRF-Token"), std::string::npos);

    const std::string big = png(100, 100, 600 * 1024);  // more than 512 KB, less than 8 MB
    EXPECT_EQ(post("upload", {{"data", base64(big)}}, "browser").status, 400);
    auto r = api.post_json("/ui/images", {{"data", base64(big)}, {"description", "large"}},
                           as("browser"));
    ASSERT_EQ(r.status, 200) << r.body;
    const json image =
        r.json();  // an http_path route answers the result itself, without the envelope
    EXPECT_EQ(image["bytes"], big.size()) << r.body.substr(0, 300);
    auto served = api.get(image["url"].get<std::string>(), as("browser"));
    EXPECT_EQ(served.status, 200);
    EXPECT_EQ(served.body, big);

    auto over = api.post_json("/ui/images", {{"data", base64(png(100, 100, 8 * 1024 * 1024))}},
                              as("browser"));
    EXPECT_EQ(over.status, 400);
    EXPECT_NE(over.body.find("data"), std::string::npos) << over.body;
    EXPECT_NE(over.body.find("8 MB"), std::string::npos) << over.body;
    EXPECT_EQ(api.post_json("/ui/images", {{"data", kPng1x1}}).status, 401);  // anonymous
}

TEST_F(ImagesApi, UploadGetServeUpdateDelete) {
    auto up = post("upload", {{"data", kPng1x1}, {"description", "one pixel"}}, "im-alice");
    ASSERT_EQ(up.status, 200) << up.body;
    json image = up.json()["data"];
    const std::string id = image["id"];
    EXPECT_EQ(image["type"], "image/png");
    EXPECT_EQ(image["width"], 1);
    EXPECT_EQ(image["public"], false);
    EXPECT_EQ(image["url"], "/ui/images/" + id);
    auto got = get("get?id=" + id, "im-alice");
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"], image);

    auto bytes = api.get("/ui/images/" + id, as("im-alice"));
    ASSERT_EQ(bytes.status, 200) << bytes.body;
    EXPECT_EQ(bytes.header("content-type"), "image/png");
    EXPECT_EQ(base64(bytes.body), kPng1x1);
    EXPECT_EQ(api.get("/ui/images/" + id).status, 404);                // private: anonymous
    EXPECT_EQ(api.get("/ui/images/" + id, as("im-bob")).status, 404);  // private: another account
    EXPECT_EQ(get("get?id=" + id, "im-bob").status, 404);
    EXPECT_EQ(post("update", {{"id", id}, {"title", "x"}}, "im-bob").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "im-bob").status, 404);

    auto upd = post("update",
                    {{"id", id}, {"title", "Pixel"}, {"tags", {"tiny", "test"}}, {"public", true}},
                    "im-alice");
    ASSERT_EQ(upd.status, 200) << upd.body;
    EXPECT_EQ(upd.json()["data"]["description"], "one pixel");  // kept
    EXPECT_EQ(upd.json()["data"]["public"], true);
    EXPECT_EQ(api.get("/ui/images/" + id).status, 200);  // public: anyone
    EXPECT_EQ(get("get?id=" + id, "im-bob").json()["data"]["title"], "Pixel");
    EXPECT_EQ(post("update", {{"id", id}, {"public", false}}, "im-bob").status, 404);
    expect_400(post("update", {{"id", id}, {"description", std::string(1001, 'd')}}, "im-alice"),
               "description");
    expect_400(post("update", {{"title", "x"}}, "im-alice"), "id");

    ASSERT_EQ(post("delete", {{"id", id}}, "im-alice").status, 200);
    EXPECT_EQ(get("get?id=" + id, "im-alice").status, 404);
    EXPECT_EQ(api.get("/ui/images/" + id).status, 404);
    expect_400(post("delete", json::object(), "im-alice"), "id");
    expect_400(get("get", "im-alice"), "id");
}

TEST_F(ImagesApi, ListAndSearchPageWithStableCursors) {
    std::vector<std::string> mine;
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 1000}}).status, 200);
        mine.push_back(upload(png(4, 4), "im-pager")["id"]);
    }
    ASSERT_EQ(post("update", {{"id", mine[0]}, {"title", "Harbour at dawn"}, {"public", true}},
                   "im-pager")
                  .status,
              200);
    ASSERT_EQ(post("update",
                   {{"id", mine[2]}, {"description", "dawn over the harbour"}, {"public", true}},
                   "im-pager")
                  .status,
              200);

    auto p1 = get("list?scope=mine&limit=2", "im-pager");
    EXPECT_EQ(ids(p1), (std::vector<std::string>{mine[2], mine[1]}));
    const std::string cursor = p1.json()["data"]["next_cursor"];
    upload(png(4, 4), "im-pager");  // a newer image does not shift the next page
    auto p2 = get("list?scope=mine&limit=2&cursor=" + cursor, "im-pager");
    EXPECT_EQ(ids(p2), (std::vector<std::string>{mine[0]}));
    EXPECT_TRUE(p2.json()["data"]["next_cursor"].is_null());
    expect_400(get("list?scope=all&limit=2&cursor=" + cursor, "im-pager"), "cursor");

    auto pub = ids(get("list", "im-viewer"));  // default scope: public
    EXPECT_NE(std::find(pub.begin(), pub.end(), mine[0]), pub.end());
    EXPECT_EQ(std::find(pub.begin(), pub.end(), mine[1]), pub.end());
    EXPECT_TRUE(ids(get("list?scope=daily", "im-viewer")).empty());
    expect_400(get("list?limit=0", "im-viewer"), "limit");
    expect_400(get("list?limit=101", "im-viewer"), "limit");
    expect_400(get("list?scope=friends", "im-viewer"), "scope");

    auto s1 =
        post("search", {{"query", "harbour DAWN"}, {"scope", "public"}, {"limit", 1}}, "im-viewer");
    EXPECT_EQ(ids(s1), (std::vector<std::string>{mine[2]}));
    auto s2 = post("search",
                   {{"query", "harbour DAWN"},
                    {"scope", "public"},
                    {"limit", 1},
                    {"cursor", s1.json()["data"]["next_cursor"]}},
                   "im-viewer");
    EXPECT_EQ(ids(s2), (std::vector<std::string>{mine[0]}));
    expect_400(
        post("search",
             {{"query", "harbour"}, {"limit", 1}, {"cursor", s1.json()["data"]["next_cursor"]}},
             "im-viewer"),
        "cursor");
    expect_400(post("search", {{"scope", "public"}}, "im-viewer"), "query");
    expect_400(post("search", {{"query", "x"}, {"limit", 0}}, "im-viewer"), "limit");
    expect_400(post("search", {{"query", "x"}, {"limit", 101}}, "im-viewer"), "limit");
    EXPECT_EQ(api.get("/api/v1/images/search?query=x", as("im-viewer")).status, 405);
}

// The test profile names no provider: daily and generate answer 503 naming the setting (their
// providers against fake upstreams: images_external_test.cpp); bad arguments are 400 first.
TEST_F(ImagesApi, DailyGenerateUnconfiguredAndMcp) {
    auto daily = get("daily?date=2026-05-01", "im-daily");
    EXPECT_EQ(daily.status, 503) << daily.body;
    EXPECT_NE(daily.body.find("providers.wikimedia-feed.base_url"), std::string::npos)
        << daily.body;
    expect_400(get("daily?date=May", "im-daily"), "date");
    expect_400(get("daily?date=2026-02-30", "im-daily"), "date");
    expect_400(get("daily?date=2999-01-01", "im-daily"), "future");
    auto gen = post("generate", {{"prompt", "a lighthouse"}}, "im-daily");
    EXPECT_EQ(gen.status, 503) << gen.body;
    EXPECT_NE(gen.body.find("providers.openai-images.base_url"), std::string::npos) << gen.body;
    expect_400(post("generate", json::object(), "im-daily"), "prompt");
    expect_400(post("generate", {{"prompt", "   "}}, "im-daily"), "prompt");
    expect_400(post("generate", {{"prompt", std::string(4001, 'p')}}, "im-daily"), "prompt");

    json image = upload(png(3, 3), "im-mcp");
    McpClient mcp(host->api_port(), "im-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("images_get", {{"id", image["id"]}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"], image);
}

}  // namespace
