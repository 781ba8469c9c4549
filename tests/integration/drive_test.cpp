// The files service's cloud drive (plugins/files/drive.cpp) through the real host on the `test`
// profile with plugin_config.files.drive.provider google-drive, its provider pointed at a fake
// Google Drive on loopback (support/fake_upstream.hpp) serving Drive v3 answers built from Google's
// reference (tests/fixtures/google-drive/). An account connects an OAuth access token
// (driveconnect, checked with about.get), which then reaches the drive as `Authorization: Bearer`
// on every request and is kept sealed: no answer and no store record holds it in clear. Without a
// connection: 403 "connect a drive first".
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "api_answers.hpp"
#include "fake_upstream.hpp"
#include "file_bytes.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kToken = "ya29.a0AfB_byDriveTestToken-4f1c9e";
const std::string kRoot = "/google-drive/drive/v3";
const std::string kNotes = "1Xq3notesTxtAbCdEfGhIjKlMnOpQr";
const std::string kPlan = "1BvGardenPlanDocZyXwVuTsRqPoNmLkJiHgFeDc";
const std::string kPhoto = "1PhGardenPhotoPngQwErTyUiOp";
const std::string kFolder = "1FoGardenFolderAsDfGhJkL";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class Drive : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        service_ = "files";
        up = std::make_unique<FakeUpstream>();
        HostProcess::Options o;
        o.profile = suite_dir() + "/drive.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "files",
                                                       "drive: {provider: google-drive}")
                                 << "\n"
                                 << up->outbound_yaml({{"google-drive"}}) << "\n";
        start_host(o);
    }
    void SetUp() override {
        using F = FakeUpstream;
        up->serve(kRoot + "/about", F::fixture("google-drive", "about.json"));
        up->serve(kRoot + "/files", F::fixture("google-drive", "files-search.json"));
        up->serve(kRoot + "/files?pageToken=~!!~AI9FV7Tq3bXbYk0hU8jL0d2kq0Z7wqQ",
                  F::fixture("google-drive", "files-search-last.json"));
        up->serve(kRoot + "/files/" + kNotes, F::fixture("google-drive", "file-notes.json"));
        up->serve(kRoot + "/files/" + kNotes + "?alt=media",
                  F::fixture("google-drive", "notes.txt", "text/plain"));
        up->serve(kRoot + "/files/" + kPlan, F::fixture("google-drive", "file-plan.json"));
        up->serve(kRoot + "/files/" + kPlan + "/export",
                  F::fixture("google-drive", "plan-export.txt", "text/plain"));
        up->serve(kRoot + "/files/" + kFolder, F::fixture("google-drive", "file-folder.json"));
        up->serve(kRoot + "/files/1NoSuchFileZz",
                  F::fixture("google-drive", "error-404.json", "application/json", 404));
        up->forget();
    }
    HttpResult post(const std::string& method, const json& body, const std::string& who) {
        return api.post_json("/api/v1/files/" + method, body, as(who));
    }
    HttpResult read(const std::string& id, const std::string& who) {
        return api.get("/api/v1/files/driveread?id=" + id, as(who));
    }
    json connect(const std::string& who) {
        return data_of(post("driveconnect", {{"token", kToken}}, who));
    }
    void forbidden(const HttpResult& r, const std::string& part) {
        EXPECT_EQ(r.status, 403) << r.body;
        EXPECT_TRUE(has(r.body, part)) << r.body;
    }
};

TEST_F(Drive, WithoutAConnectionIs403) {
    forbidden(post("drivesearch", {{"query", "garden"}}, "dr-none"), "connect a drive first");
    forbidden(read(kNotes, "dr-none"), "connect a drive first");
    EXPECT_TRUE(up->requests().empty());
}

TEST_F(Drive, ConnectChecksTheTokenAndKeepsItSealed) {
    const auto r = post("driveconnect", {{"token", kToken}}, "dr-ann");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_FALSE(has(r.body, kToken));
    const json c = r.json()["data"];
    EXPECT_EQ(c["connected"], true);
    EXPECT_EQ(c["provider"], "google-drive");
    EXPECT_EQ(c["user"], (json{{"name", "Ann Example"}, {"email", "ann@example.com"}}));
    const auto seen = up->requests(kRoot + "/about");
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].header("authorization"), "Bearer " + kToken);
    EXPECT_EQ(seen[0].param("fields"), "user");

    // The plugin's whole table, as the store service reads it: the token only sealed.
    const auto table = api.get("/store/read?table=files", bearer("admin"));
    ASSERT_EQ(table.status, 200) << table.body;
    EXPECT_TRUE(has(table.body, "sealed")) << table.body;
    EXPECT_FALSE(has(table.body, kToken)) << table.body;
    EXPECT_FALSE(has(table.body, "DriveTestToken")) << table.body;

    // Another account is not connected by ann's connection; disconnecting forgets it.
    forbidden(post("drivesearch", json::object(), "dr-bob"), "connect a drive first");
    EXPECT_EQ(data_of(post("drivedisconnect", json::object(), "dr-ann")),
              (json{{"disconnected", true}}));
    forbidden(post("drivesearch", json::object(), "dr-ann"), "connect a drive first");
}

TEST_F(Drive, ARefusedTokenIsNotConnected) {
    up->serve(kRoot + "/about",
              FakeUpstream::fixture("google-drive", "error-401.json", "application/json", 401));
    const auto r = post("driveconnect", {{"token", "ya29.expired"}}, "dr-carl");
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_TRUE(has(r.body, "token") && has(r.body, "401")) << r.body;
    EXPECT_FALSE(has(r.body, "ya29.expired")) << r.body;
    forbidden(post("drivesearch", json::object(), "dr-carl"), "connect a drive first");
}

TEST_F(Drive, SearchByNameAndFullTextWithPages) {
    connect("dr-dora");
    const json page = data_of(post("drivesearch", {{"query", "garden"}, {"limit", 2}}, "dr-dora"));
    ASSERT_EQ(page["files"].size(), 2u) << page;
    EXPECT_EQ(page["files"][0],
              (json{{"id", kNotes},
                    {"name", "garden notes.txt"},
                    {"type", "text/plain"},
                    {"size", 110},
                    {"modified", "2026-11-28T09:14:03.512Z"},
                    {"url", "https://drive.google.com/file/d/" + kNotes + "/view?usp=drivesdk"}}));
    EXPECT_EQ(page["files"][1]["type"], "application/vnd.google-apps.document");
    EXPECT_EQ(page["files"][1]["size"], nullptr);
    EXPECT_EQ(page["next_page"], "~!!~AI9FV7Tq3bXbYk0hU8jL0d2kq0Z7wqQ");

    auto seen = up->requests(kRoot + "/files");
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].header("authorization"), "Bearer " + kToken);
    EXPECT_EQ(seen[0].param("q"),
              "(name contains 'garden' or fullText contains 'garden') and trashed = false");
    EXPECT_EQ(seen[0].param("pageSize"), "2");
    EXPECT_TRUE(has(seen[0].param("fields"), "nextPageToken")) << seen[0].param("fields");
    EXPECT_EQ(seen[0].param("pageToken"), "");

    const json last =
        data_of(post("drivesearch",
                     {{"query", "garden"}, {"limit", 2}, {"page", page["next_page"]}}, "dr-dora"));
    ASSERT_EQ(last["files"].size(), 1u) << last;
    EXPECT_EQ(last["files"][0]["id"], kPhoto);
    EXPECT_EQ(last["next_page"], nullptr);
    seen = up->requests(kRoot + "/files");
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[1].param("pageToken"), "~!!~AI9FV7Tq3bXbYk0hU8jL0d2kq0Z7wqQ");

    // Quotes and backslashes are escaped in the Drive query; no query: the latest files.
    data_of(post("drivesearch", {{"query", "ann's c:\\plan"}}, "dr-dora"));
    EXPECT_EQ(up->requests(kRoot + "/files").back().param("q"),
              "(name contains 'ann\\'s c:\\\\plan' or fullText contains 'ann\\'s c:\\\\plan') "
              "and trashed = false");
    data_of(post("drivesearch", json::object(), "dr-dora"));
    const auto latest = up->requests(kRoot + "/files").back();
    EXPECT_EQ(latest.param("q"), "trashed = false");
    EXPECT_EQ(latest.param("orderBy"), "modifiedTime desc");
    EXPECT_EQ(latest.param("pageSize"), "20");

    // A page token the drive does not know is the caller's 400.
    up->serve(kRoot + "/files", FakeUpstream::fixture("google-drive", "error-400-page-token.json",
                                                      "application/json", 400));
    expect_400(post("drivesearch", {{"page", "not-a-token"}}, "dr-dora"), "page");
    expect_400(post("drivesearch", {{"limit", 21}}, "dr-dora"), "limit");
}

TEST_F(Drive, ReadGivesContentAndExportsGoogleDocs) {
    connect("dr-eve");
    const json notes = data_of(read(kNotes, "dr-eve"));
    EXPECT_EQ(notes["name"], "garden notes.txt");
    EXPECT_EQ(notes["encoding"], "text");
    EXPECT_EQ(notes["content"], FakeUpstream::fixture_text("google-drive", "notes.txt"));
    const auto meta = up->requests(kRoot + "/files/" + kNotes);
    ASSERT_EQ(meta.size(), 2u);  // the metadata, then ?alt=media
    EXPECT_EQ(meta[0].param("alt"), "");
    EXPECT_EQ(meta[1].param("alt"), "media");
    for (const auto& q : meta) EXPECT_EQ(q.header("authorization"), "Bearer " + kToken);

    const json plan = data_of(read(kPlan, "dr-eve"));
    EXPECT_EQ(plan["type"], "application/vnd.google-apps.document");
    EXPECT_EQ(plan["exported_as"], "text/plain");
    EXPECT_EQ(plan["encoding"], "text");
    EXPECT_EQ(plan["content"], FakeUpstream::fixture_text("google-drive", "plan-export.txt"));
    const auto exported = up->requests(kRoot + "/files/" + kPlan + "/export");
    ASSERT_EQ(exported.size(), 1u);
    EXPECT_EQ(exported[0].param("mimeType"), "text/plain");

    // Binary content is base64; a folder has none; an unknown id is 404.
    const std::string photo = png(8, 6);
    up->serve(kRoot + "/files/" + kPhoto,
              FakeUpstream::status(200, json{{"id", kPhoto},
                                             {"name", "garden.png"},
                                             {"mimeType", "image/png"},
                                             {"size", std::to_string(photo.size())}}
                                            .dump()));
    up->serve(kRoot + "/files/" + kPhoto + "?alt=media",
              FakeUpstream::status(200, photo, "image/png"));
    const json image = data_of(read(kPhoto, "dr-eve"));
    EXPECT_EQ(image["encoding"], "base64");
    EXPECT_EQ(image["content"], base64(photo));
    EXPECT_EQ(image["size"], photo.size());
    const json folder = data_of(read(kFolder, "dr-eve"));
    EXPECT_EQ(folder["content"], nullptr);
    EXPECT_TRUE(has(folder.value("note", ""), "folder")) << folder;
    const auto missing = read("1NoSuchFileZz", "dr-eve");
    EXPECT_EQ(missing.status, 404) << missing.body;
    EXPECT_TRUE(has(missing.body, "1NoSuchFileZz")) << missing.body;
    EXPECT_FALSE(has(missing.body + notes.dump() + plan.dump(), kToken));
}

TEST_F(Drive, AnExpiredTokenAsksToConnectAgain) {
    connect("dr-fay");
    up->serve(kRoot + "/files",
              FakeUpstream::fixture("google-drive", "error-401.json", "application/json", 401));
    forbidden(post("drivesearch", {{"query", "garden"}}, "dr-fay"), "connect again");
    up->serve(kRoot + "/files/" + kNotes,
              FakeUpstream::status(403, R"({"error": {"code": 403, "message": "Rate limit",
                  "errors": [{"domain": "usageLimits", "reason": "userRateLimitExceeded"}]}})"));
    const auto r = read(kNotes, "dr-fay");
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_TRUE(has(r.body, "try again later")) << r.body;
}

}  // namespace
