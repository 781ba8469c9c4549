// The forms catalogue service against the real host (test profile: the bearer token is the
// account id): every method over /api/v1/forms, its limits and ownership, one MCP call, and the
// browser route /ui/forms/<id> — anonymous submissions to a public form stored, to a closed or
// private form refused, a bad email refused.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class FormsApi : public CatalogueTest {
protected:
    FormsApi() : CatalogueTest("forms") {}
    json write(const json& body, const std::string& who) { return ok("write", body, who); }
    json contact_form(const std::string& who, bool is_public = true, bool closed = false) {
        return write(
            {{"title", "Contact"},
             {"description", "Write to us"},
             {"fields",
              {{{"name", "name"}, {"label", "Name"}, {"required", true}},
               {{"name", "email"}, {"label", "Email"}, {"type", "email"}, {"required", true}},
               {{"name", "message"}, {"label", "Message"}, {"type", "textarea"}}}},
             {"public", is_public},
             {"closed", closed}},
            who);
    }
    HttpResult submit_form_encoded(const std::string& id, const std::string& body) {
        return api.post("/ui/forms/" + id, body,
                        {{"Content-Type", "application/x-www-form-urlencoded"}});
    }
    json responses(const std::string& id, const std::string& who) {
        return data_of(get("responses?id=" + id, who))["responses"];
    }
};

TEST_F(FormsApi, WriteReadListDelete) {
    json f = contact_form("fm-alice", false);
    const std::string id = f["id"];
    EXPECT_EQ(f["public"], false);
    EXPECT_EQ(f["closed"], false);
    EXPECT_EQ(f["fields"][2]["required"], false);
    auto read = get("read?id=" + id, "fm-alice");
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_EQ(read.json()["data"], f);

    json replaced = write({{"id", id},
                           {"title", "Contact v2"},
                           {"fields", {{{"name", "q"}, {"label", "Q"}}}},
                           {"public", true}},
                          "fm-alice");
    EXPECT_EQ(replaced["id"], id);
    EXPECT_EQ(replaced["title"], "Contact v2");
    auto list = get("list", "fm-alice");
    ASSERT_EQ(list.status, 200) << list.body;
    ASSERT_EQ(list.json()["data"]["forms"].size(), 1u);
    EXPECT_EQ(list.json()["data"]["forms"][0], replaced);
    EXPECT_TRUE(get("list?offset=1", "fm-alice").json()["data"]["forms"].empty());

    // Another account: 404 for every method on this id.
    EXPECT_EQ(get("read?id=" + id, "fm-bob").status, 404);
    EXPECT_EQ(get("responses?id=" + id, "fm-bob").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "fm-bob").status, 404);
    EXPECT_EQ(post("write",
                   {{"id", id}, {"title", "mine"}, {"fields", {{{"name", "q"}, {"label", "Q"}}}}},
                   "fm-bob")
                  .status,
              404);
    EXPECT_TRUE(get("list", "fm-bob").json()["data"]["forms"].empty());
    EXPECT_EQ(api.get("/api/v1/forms/list").status, 401);

    auto del = post("delete", {{"id", id}}, "fm-alice");
    ASSERT_EQ(del.status, 200) << del.body;
    EXPECT_EQ(get("read?id=" + id, "fm-alice").status, 404);
    EXPECT_EQ(api.get("/ui/forms/" + id).status, 404);
}

TEST_F(FormsApi, ArgumentsAndLimits) {
    expect_400(post("write", {{"fields", {{{"name", "q"}, {"label", "Q"}}}}}, "fm-lim"), "title");
    expect_400(post("write", {{"title", "t"}}, "fm-lim"), "fields");
    expect_400(post("write", {{"title", "t"}, {"fields", json::array()}}, "fm-lim"), "fields");
    expect_400(
        post("write", {{"title", "t"}, {"fields", {{{"name", "Q"}, {"label", "Q"}}}}}, "fm-lim"),
        "name");
    expect_400(
        post("write",
             {{"title", "t"}, {"fields", {{{"name", "q"}, {"label", "Q"}, {"type", "number"}}}}},
             "fm-lim"),
        "type");
    expect_400(
        post("write",
             {{"title", "t"},
              {"fields", {{{"name", "q"}, {"label", "A"}}, {{"name", "q"}, {"label", "B"}}}}},
             "fm-lim"),
        "fields");
    expect_400(get("read", "fm-lim"), "id");
    expect_400(get("responses", "fm-lim"), "id");
    expect_400(get("list?offset=-1", "fm-lim"), "offset");
    expect_400(post("delete", json::object(), "fm-lim"), "id");
    EXPECT_EQ(api.get("/api/v1/forms/write?title=t").status, 405);

    // 50 a page, newest first.
    std::vector<std::string> ids;
    for (int i = 0; i < 52; ++i)
        ids.push_back(write(
            {{"title", "f" + std::to_string(i)}, {"fields", {{{"name", "q"}, {"label", "Q"}}}}},
            "fm-many")["id"]);
    auto page1 = get("list", "fm-many").json()["data"]["forms"];
    auto page2 = get("list?offset=50", "fm-many").json()["data"]["forms"];
    ASSERT_EQ(page1.size(), 50u);
    ASSERT_EQ(page2.size(), 2u);
    EXPECT_EQ(page1[0]["id"], ids[51]);
    EXPECT_EQ(page2[1]["id"], ids[0]);
}

TEST_F(FormsApi, AnonymousSubmissionsToAPublicFormAreStored) {
    json f = contact_form("fm-pub");
    const std::string id = f["id"];
    auto page = api.get("/ui/forms/" + id);
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(page.body.find("name=\"email\" type=\"email\""), std::string::npos) << page.body;

    auto browser =
        submit_form_encoded(id, "name=Ann+Lee&email=ann%40example.org&message=hi%0Athere");
    ASSERT_EQ(browser.status, 200) << browser.body;
    EXPECT_NE(browser.body.find("Thank you"), std::string::npos);
    auto program = api.post_json("/ui/forms/" + id, {{"name", "Bo"}, {"email", "bo@example.org"}});
    ASSERT_EQ(program.status, 200) << program.body;
    const std::string rid = program.json()["response_id"];

    json rs = responses(id, "fm-pub");
    ASSERT_EQ(rs.size(), 2u);
    EXPECT_EQ(rs[0]["response_id"], rid);  // newest first
    EXPECT_EQ(rs[1]["values"],
              (json{{"name", "Ann Lee"}, {"email", "ann@example.org"}, {"message", "hi\nthere"}}));
    EXPECT_EQ(get("responses?id=" + id, "fm-pub").json()["data"]["untrusted"], true);
    expect_400(get("responses?id=" + id + "&offset=-1", "fm-pub"), "offset");

    // A bad email, a missing required field, an unknown field: 400, nothing stored.
    expect_400(submit_form_encoded(id, "name=Cy&email=not-an-email"), "email");
    expect_400(api.post_json("/ui/forms/" + id, {{"name", "Cy"}, {"email", "cy@"}}), "email");
    expect_400(api.post_json("/ui/forms/" + id, {{"email", "cy@example.org"}}), "name");
    expect_400(api.post_json("/ui/forms/" + id,
                             {{"name", "Cy"}, {"email", "cy@example.org"}, {"admin", "1"}}),
               "admin");
    EXPECT_EQ(responses(id, "fm-pub").size(), 2u);

    // Deleting one response, then the form.
    EXPECT_EQ(post("delete", {{"id", id}, {"response_id", rid}}, "fm-other").status, 404);
    ASSERT_EQ(post("delete", {{"id", id}, {"response_id", rid}}, "fm-pub").status, 200);
    EXPECT_EQ(post("delete", {{"id", id}, {"response_id", rid}}, "fm-pub").status, 404);
    EXPECT_EQ(responses(id, "fm-pub").size(), 1u);
}

TEST_F(FormsApi, ClosedAndPrivateFormsRefuseSubmissions) {
    json priv = contact_form("fm-priv", false), closed = contact_form("fm-priv", true, true);
    const json answer = {{"name", "Dee"}, {"email", "dee@example.org"}};
    EXPECT_EQ(api.post_json("/ui/forms/" + priv["id"].get<std::string>(), answer).status, 404);
    EXPECT_EQ(submit_form_encoded(priv["id"], "name=Dee&email=dee%40example.org").status, 404);
    EXPECT_EQ(api.get("/ui/forms/" + priv["id"].get<std::string>()).status, 404);
    EXPECT_EQ(api.post_json("/ui/forms/" + priv["id"].get<std::string>(), answer, as("fm-stranger"))
                  .status,
              404);
    EXPECT_EQ(api.post_json("/ui/forms/" + closed["id"].get<std::string>(), answer).status, 403);
    EXPECT_TRUE(responses(priv["id"], "fm-priv").empty());
    EXPECT_TRUE(responses(closed["id"], "fm-priv").empty());
    auto closed_page = api.get("/ui/forms/" + closed["id"].get<std::string>());
    EXPECT_NE(closed_page.body.find("This form is closed"), std::string::npos) << closed_page.body;

    // Reopened, the same form takes the answer.
    write({{"id", closed["id"]},
           {"title", "Contact"},
           {"fields", closed["fields"]},
           {"public", true}},
          "fm-priv");
    EXPECT_EQ(api.post_json("/ui/forms/" + closed["id"].get<std::string>(), answer).status, 200);
    EXPECT_EQ(responses(closed["id"], "fm-priv").size(), 1u);
}

TEST_F(FormsApi, McpMatchesHttp) {
    json f = contact_form("fm-mcp");
    McpClient mcp(host->api_port(), "fm-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("forms_read", {{"id", f["id"]}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"],
              get("read?id=" + f["id"].get<std::string>(), "fm-mcp").json()["data"]);
    const json tools = mcp.request("tools/list");
    for (const auto& t : tools["result"]["tools"]) {
        EXPECT_NE(t["name"], "forms_page");
        EXPECT_NE(t["name"], "forms_submit");
    }
}

}  // namespace
