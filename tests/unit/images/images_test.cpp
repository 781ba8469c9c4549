// The images plugin (plugins/images) through the fake host: base64 and the PNG/JPEG/GIF
// structure checks on built and truncated files, the size limits, ownership, publishing and the
// stable cursors.
#include <gtest/gtest.h>

#include <array>

#include "../../support/file_bytes.hpp"
#include "../support/plugin_under_test.hpp"
#include "raster.hpp"

namespace {

using namespace plugin_test;
using platform::test::jpeg;
using platform::test::png;

const std::string kPng1x1 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
    "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const std::string kGif1x1 = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

TEST(RasterTest, Base64) {
    EXPECT_EQ(images::base64_decode("aGVsbG8="), "hello");
    EXPECT_EQ(images::base64_decode("aGVs\nbG8"), "hello");
    EXPECT_EQ(images::base64_decode("data:image/png;base64,aGVsbG8="), "hello");
    EXPECT_FALSE(images::base64_decode("aGVsbG8=x"));
    EXPECT_FALSE(images::base64_decode("a"));
    EXPECT_FALSE(images::base64_decode("aGV*bG8="));
    EXPECT_EQ(images::base64_encode("hello"), "aGVsbG8=");
}

TEST(RasterTest, RecognisesValidImages) {
    auto p = images::inspect(*images::base64_decode(kPng1x1));
    ASSERT_TRUE(p.raster) << p.error;
    EXPECT_EQ(p.raster->type, "image/png");
    EXPECT_EQ(p.raster->width, 1u);
    auto g = images::inspect(*images::base64_decode(kGif1x1));
    ASSERT_TRUE(g.raster) << g.error;
    EXPECT_EQ(g.raster->type, "image/gif");
    auto j = images::inspect(jpeg(640, 480));
    ASSERT_TRUE(j.raster) << j.error;
    EXPECT_EQ(j.raster->type, "image/jpeg");
    EXPECT_EQ(j.raster->width, 640u);
    EXPECT_EQ(j.raster->height, 480u);
    auto big = images::inspect(png(3000, 3000));
    ASSERT_TRUE(big.raster) << big.error;
    EXPECT_EQ(big.raster->width * big.raster->height, 9000000u);
}

TEST(RasterTest, RefusesBrokenImages) {
    const std::string good = png(2, 2), j = jpeg(8, 8), g = *images::base64_decode(kGif1x1);
    for (size_t cut : {size_t(8), size_t(20), good.size() - 12, good.size() - 1})
        EXPECT_FALSE(images::inspect(good.substr(0, cut)).raster) << cut;
    EXPECT_NE(images::inspect(good.substr(0, good.size() - 12)).error.find("IEND"),
              std::string::npos);
    std::string flipped = good;
    flipped[30] ^= 1;  // inside IHDR: its CRC no longer matches
    EXPECT_NE(images::inspect(flipped).error.find("CRC"), std::string::npos);
    EXPECT_FALSE(images::inspect(good + "x").raster);                 // data after IEND
    EXPECT_FALSE(images::inspect(png(0, 5)).raster);                  // no size
    EXPECT_FALSE(images::inspect(j.substr(0, j.size() - 2)).raster);  // no EOI
    EXPECT_FALSE(images::inspect(j.substr(0, 12)).raster);
    EXPECT_FALSE(images::inspect(g.substr(0, g.size() - 1)).raster);  // no trailer
    EXPECT_FALSE(images::inspect(g.substr(0, 20)).raster);
    EXPECT_EQ(images::inspect("just some text, not an image").error,
              "not a PNG, JPEG or GIF image");
    EXPECT_FALSE(images::inspect("").raster);
}

class ImagesTest : public ::testing::Test {
protected:
    Reply upload(const std::string& bytes, const std::string& who = "alice") {
        return plugin.call(
            "upload", {{"data", images::base64_encode(bytes)}, {"description", "a test"}}, who);
    }
    json ok(const std::string& method, const json& args, const std::string& who = "alice") {
        return ok_json(plugin.call(method, args, who), method);
    }
    std::vector<std::string> ids(const json& page) {
        std::vector<std::string> out;
        for (const auto& i : page["images"]) out.push_back(i["id"]);
        return out;
    }

    FakeHost host;
    FakePlugin plugin = host.load(platform_plugin_entry);
};

TEST_F(ImagesTest, UploadLimits) {
    EXPECT_EQ(upload("hello").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(upload(png(3000, 3000)).code, PLATFORM_INVALID_ARGUMENT);  // 9 megapixels
    EXPECT_EQ(upload(png(2000, 4000)).code, PLATFORM_OK);                // exactly 8
    EXPECT_EQ(upload(png(10, 10, 513 * 1024)).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(upload(png(10, 10, 512 * 1024 - 57)).code, PLATFORM_OK);  // 524,288 bytes in all
    Reply bad = plugin.call("upload", {{"data", "%%%"}}, "alice");
    EXPECT_EQ(bad.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(bad.body.find("base64"), std::string::npos);
}

TEST_F(ImagesTest, UploadGetServeUpdateDelete) {
    Reply up = upload(jpeg(64, 48));
    ASSERT_EQ(up.code, PLATFORM_OK) << up.body;
    json image = up.json();
    const std::string id = image["id"];
    EXPECT_EQ(image["type"], "image/jpeg");
    EXPECT_EQ(image["public"], false);
    EXPECT_EQ(image["url"], "/ui/images/" + id);
    EXPECT_EQ(ok("get", {{"id", id}}), image);
    EXPECT_EQ(plugin.call("get", {{"id", id}}, "bob").code, PLATFORM_NOT_FOUND);
    Reply raw = plugin.call("raw", {{"id", id}}, "alice");
    ASSERT_EQ(raw.code, PLATFORM_OK);
    EXPECT_EQ(raw.content_type, "image/jpeg");
    EXPECT_EQ(raw.body, jpeg(64, 48));
    EXPECT_EQ(plugin.call("raw", {{"id", id}}).code, PLATFORM_NOT_FOUND);  // anonymous, private

    json pub = ok("update", {{"id", id}, {"title", "Cat"}, {"tags", {"pets"}}, {"public", true}});
    EXPECT_EQ(pub["title"], "Cat");
    EXPECT_EQ(pub["description"], "a test");
    EXPECT_EQ(ok("get", {{"id", id}}, "bob")["title"], "Cat");
    EXPECT_EQ(plugin.call("raw", {{"id", id}}).code, PLATFORM_OK);
    EXPECT_EQ(plugin.call("update", {{"id", id}, {"title", "Mine"}}, "bob").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(plugin.call("delete", {{"id", id}}, "bob").code, PLATFORM_NOT_FOUND);
    ok("update", {{"id", id}, {"public", false}});
    EXPECT_EQ(plugin.call("get", {{"id", id}}, "bob").code, PLATFORM_NOT_FOUND);
    ok("update", {{"id", id}, {"public", true}});
    EXPECT_EQ(ok("delete", {{"id", id}})["deleted"], id);
    EXPECT_EQ(plugin.call("get", {{"id", id}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(plugin.call("raw", {{"id", id}}).code, PLATFORM_NOT_FOUND);
}

TEST_F(ImagesTest, CursorsStayStableAndScopesDiffer) {
    std::vector<std::string> all;
    for (int i = 0; i < 5; ++i) {
        host.now_ms += 1000;
        all.push_back(upload(png(4, 4)).json()["id"]);
    }
    ok("update", {{"id", all[1]}, {"public", true}, {"title", "red fox"}});
    ok("update", {{"id", all[3]}, {"public", true}, {"title", "Blue fox"}});
    host.now_ms += 1000;
    const std::string bobs = upload(png(4, 4), "bob").json()["id"];
    ok("update", {{"id", bobs}, {"public", true}, {"description", "a fox, red"}}, "bob");

    json p1 = ok("list", {{"scope", "mine"}, {"limit", 2}});
    EXPECT_EQ(ids(p1), (std::vector<std::string>{all[4], all[3]}));
    host.now_ms += 1000;
    upload(png(4, 4));  // newer: does not shift the pages already started
    json p2 = ok("list", {{"scope", "mine"}, {"limit", 2}, {"cursor", p1["next_cursor"]}});
    EXPECT_EQ(ids(p2), (std::vector<std::string>{all[2], all[1]}));
    json p3 = ok("list", {{"scope", "mine"}, {"limit", 2}, {"cursor", p2["next_cursor"]}});
    EXPECT_EQ(ids(p3), (std::vector<std::string>{all[0]}));
    EXPECT_TRUE(p3["next_cursor"].is_null());
    EXPECT_EQ(plugin
                  .call("list", {{"scope", "public"}, {"limit", 2}, {"cursor", p1["next_cursor"]}},
                        "alice")
                  .code,
              PLATFORM_INVALID_ARGUMENT);  // another scope

    EXPECT_EQ(ids(ok("list", {{"scope", "public"}, {"limit", 20}}, "carol")),
              (std::vector<std::string>{bobs, all[3], all[1]}));
    EXPECT_EQ(ok("list", {{"scope", "all"}, {"limit", 20}}, "bob")["images"].size(), 3u);
    EXPECT_EQ(ok("list", {{"scope", "all"}, {"limit", 20}})["images"].size(), 7u);
    EXPECT_TRUE(ok("list", {{"scope", "daily"}, {"limit", 20}})["images"].empty());

    json s1 = ok("search", {{"query", "RED fox"}, {"scope", "public"}, {"limit", 1}}, "carol");
    EXPECT_EQ(ids(s1), (std::vector<std::string>{bobs}));
    json s2 =
        ok("search",
           {{"query", "RED fox"}, {"scope", "public"}, {"limit", 1}, {"cursor", s1["next_cursor"]}},
           "carol");
    EXPECT_EQ(ids(s2), (std::vector<std::string>{all[1]}));
    EXPECT_TRUE(s2["next_cursor"].is_null());
    EXPECT_EQ(plugin
                  .call("search",
                        {{"query", "fox"},
                         {"scope", "public"},
                         {"limit", 1},
                         {"cursor", s1["next_cursor"]}},
                        "carol")
                  .code,
              PLATFORM_INVALID_ARGUMENT);  // another query
}

// Without their providers, daily and generate answer 503 naming the setting the host named (the
// fake host answers as the real one does for an unset providers.<name>.base_url).
TEST_F(ImagesTest, DailyAndGenerateNameTheirProvidersWhenUnset) {
    std::vector<std::string> asked;
    host.on_fetch = [&](const platform_http_request_t& req) {
        const std::string name(req.provider.ptr, req.provider.len);
        asked.push_back(name);
        FakeHost::FakeHttp r;
        r.code = PLATFORM_UNAVAILABLE;
        r.error = "providers." + name + ".base_url is not set";
        return r;
    };
    Reply d = plugin.call("daily", json::object());
    EXPECT_EQ(d.code, PLATFORM_UNAVAILABLE) << d.body;
    EXPECT_NE(d.body.find("providers.wikimedia-feed.base_url"), std::string::npos) << d.body;
    Reply g = plugin.call("generate", {{"prompt", "a fox"}}, "alice");
    EXPECT_EQ(g.code, PLATFORM_UNAVAILABLE) << g.body;
    EXPECT_NE(g.body.find("providers.openai-images.base_url"), std::string::npos) << g.body;
    EXPECT_EQ(asked, (std::vector<std::string>{"wikimedia-feed", "openai-images"}));
    EXPECT_TRUE(ok("list", {{"scope", "mine"}})["images"].empty());  // nothing stored
}

}  // namespace
