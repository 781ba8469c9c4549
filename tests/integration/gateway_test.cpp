// The gateway's surfaces against the real host (test profile): version, catalogue (GET and POST
// forms, envelopes, validation, 405/404/413/415), the rpc handler, /rpc on the proxy port, and the
// registry listing.
#include <gtest/gtest.h>

#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class Gateway : public SharedHostTest {};

TEST_F(Gateway, RootAnswersTheVersionOnBothPorts) {
    for (auto* c : {&api, &proxy}) {
        auto r = c->get("/");
        ASSERT_EQ(r.status, 200);
        EXPECT_EQ(r.header("content-type"), "application/json");
        EXPECT_TRUE(r.json()["version"].is_string());
        EXPECT_FALSE(r.json()["version"].get<std::string>().empty());
    }
}

TEST_F(Gateway, CatalogueNotesInPostAndGetForms) {
    auto who = as("gw-alice");
    auto add = api.post_json("/api/v1/notes/add", {{"title", "shopping"}, {"text", "milk"}}, who);
    ASSERT_EQ(add.status, 200) << add.body;
    EXPECT_EQ(add.json()["data"]["title"], "shopping");
    EXPECT_EQ(add.json()["data"]["text"], "milk");

    auto get = api.get("/api/v1/notes/get?title=shopping", who);
    ASSERT_EQ(get.status, 200) << get.body;
    EXPECT_EQ(get.json()["data"]["text"], "milk");

    auto get_post = api.post_json("/api/v1/notes/get", {{"title", "shopping"}}, who);
    EXPECT_EQ(get_post.json(), get.json());

    auto list = api.get("/api/v1/notes/list", who);
    ASSERT_EQ(list.status, 200);
    ASSERT_EQ(list.json()["data"]["notes"].size(), 1u);

    auto result = api.get("/api/v1/notes/get?title=shopping&envelope=result", who);
    ASSERT_EQ(result.status, 200) << result.body;
    EXPECT_EQ(result.json()["result"], get.json()["data"]);

    auto rewrite =
        api.post_json("/api/v1/notes/add", {{"title", "shopping"}, {"text", "eggs"}}, who);
    ASSERT_EQ(rewrite.status, 200);
    EXPECT_EQ(api.get("/api/v1/notes/get?title=shopping", who).json()["data"]["text"], "eggs");

    auto del = api.post_json("/api/v1/notes/delete", {{"title", "shopping"}}, who);
    ASSERT_EQ(del.status, 200) << del.body;
    auto gone = api.get("/api/v1/notes/get?title=shopping", who);
    EXPECT_EQ(gone.status, 404);
    EXPECT_EQ(gone.json()["error"]["code"], "not_found");
}

TEST_F(Gateway, QueryValuesAreTypedByTheSchema) {
    auto who = as("gw-typed");
    ASSERT_EQ(api.post_json("/api/v1/notes/add", {{"title", "2024"}, {"text", "year"}}, who).status,
              200);
    auto r = api.get("/api/v1/notes/get?title=2024", who);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["data"]["title"], "2024");  // stays a string
    auto enc = api.post_json("/api/v1/notes/add", {{"title", "a b&c"}, {"text", "x"}}, who);
    ASSERT_EQ(enc.status, 200);
    EXPECT_EQ(api.get("/api/v1/notes/get?title=a%20b%26c", who).json()["data"]["title"], "a b&c");
}

struct BadCase {
    const char* name;
    json body;
    const char* needle;
};

TEST_F(Gateway, BadArgumentsAre400NamingTheArgument) {
    const BadCase cases[] = {
        {"missing title", {{"text", "x"}}, "title: is required"},
        {"empty title", {{"title", ""}, {"text", "x"}}, "title: must not be empty"},
        {"missing text", {{"title", "t"}}, "text: is required"},
        {"unknown argument",
         {{"title", "t"}, {"text", "x"}, {"colour", "red"}},
         "colour: unknown argument"},
        {"wrong type", {{"title", 5}, {"text", "x"}}, "title: must be a string"},
        {"too long",
         {{"title", std::string(201, 'a')}, {"text", "x"}},
         "title: must be at most 200"},
    };
    for (const auto& c : cases) {
        auto r = api.post_json("/api/v1/notes/add", c.body, as("gw-bad"));
        EXPECT_EQ(r.status, 400) << c.name << ": " << r.body;
        auto j = r.json();
        EXPECT_EQ(j["error"]["code"], "invalid_argument") << c.name;
        EXPECT_NE(j["error"]["message"].get<std::string>().find(c.needle), std::string::npos)
            << c.name << ": " << j["error"]["message"];
    }
    auto get = api.get("/api/v1/notes/get", as("gw-bad"));
    EXPECT_EQ(get.status, 400);
    EXPECT_NE(get.body.find("title: is required"), std::string::npos);
    auto unknown = api.get("/api/v1/notes/get?title=a&zz=1", as("gw-bad"));
    EXPECT_EQ(unknown.status, 400);
    EXPECT_NE(unknown.body.find("zz: unknown argument"), std::string::npos);
}

TEST_F(Gateway, MalformedBodiesAre4xxJson) {
    auto bad_json = api.post(
        "/api/v1/notes/add",
        "{\"title\": ", {{"Content-Type", "application/json"}, {"Authorization", "Bearer gw"}});
    EXPECT_EQ(bad_json.status, 400);
    EXPECT_NE(bad_json.json()["error"]["message"].get<std::string>().find("invalid JSON"),
              std::string::npos);
    auto array = api.post("/api/v1/notes/add", "[1,2]",
                          {{"Content-Type", "application/json"}, {"Authorization", "Bearer gw"}});
    EXPECT_EQ(array.status, 400);
    auto proto =
        api.post("/api/v1/notes/add", "\x0a\x01x",
                 {{"Content-Type", "application/protobuf"}, {"Authorization", "Bearer gw"}});
    EXPECT_EQ(proto.status, 415);
    EXPECT_NE(proto.json()["error"]["message"].get<std::string>().find("only JSON"),
              std::string::npos);
    auto big = api.post("/api/v1/notes/add",
                        json{{"title", "big"}, {"text", std::string(1024 * 1024 + 10, 'x')}}.dump(),
                        {{"Content-Type", "application/json"}, {"Authorization", "Bearer gw"}});
    EXPECT_EQ(big.status, 413) << big.body.substr(0, 200);
}

// curl -d sends application/x-www-form-urlencoded: /api/v1 answers 415 naming the type it takes
// instead of reading the JSON text as a form field ("title: is required"), and stores nothing.
// /rpc keeps its forms, and endpoints with a browser page (forms' submit) take them on /api/v1 too.
TEST_F(Gateway, FormBodiesOnTheCatalogueAre415UnlessTheEndpointHasABrowserPage) {
    const std::map<std::string, std::string> form{
        {"Content-Type", "application/x-www-form-urlencoded"}, {"Authorization", "Bearer gw-form"}};
    auto r = api.post("/api/v1/notes/add", R"({"title": "curl", "text": "x"})", form);
    EXPECT_EQ(r.status, 415) << r.body;
    EXPECT_EQ(r.json()["error"]["code"], "unsupported_media_type") << r.body;
    EXPECT_NE(r.body.find("application/json"), std::string::npos) << r.body;
    auto fields = api.post("/api/v1/notes/add", "title=curl&text=x", form);
    EXPECT_EQ(fields.status, 415) << fields.body;
    EXPECT_EQ(api.get("/api/v1/notes/get?title=curl", as("gw-form")).status, 404);

    auto rpc = proxy.post("/rpc",
                          "service=notes&method=Notes.Add&request=%7B%22title%22%3A%22curl%22%2C%"
                          "22text%22%3A%22x%22%7D",
                          form);
    EXPECT_EQ(rpc.status, 200) << rpc.body;
    EXPECT_EQ(api.get("/api/v1/notes/get?title=curl", as("gw-form")).status, 200);

    // forms/submit is also the page /ui/forms/{id}: a form body reaches it (404: no such form).
    auto page = api.post("/api/v1/forms/submit", "id=nothing-here&name=a", form);
    EXPECT_EQ(page.status, 404) << page.body;
}

// A number beyond a double's range is bad input like any other: 400 naming where it is, on the
// catalogue and the RPC proxy alike (it used to be a 500 from the JSON parser).
TEST_F(Gateway, NumbersBeyondADoubleAre400NamingTheArgument) {
    const std::map<std::string, std::string> h{{"Content-Type", "application/json"},
                                               {"Authorization", "Bearer gw"}};
    for (const char* number : {"1e999", "-1e999", "1e400"}) {
        auto r = api.post("/api/v1/notes/add",
                          std::string("{\"title\": \"n\", \"text\": ") + number + "}", h);
        EXPECT_EQ(r.status, 400) << number << " " << r.body;
        EXPECT_EQ(r.json()["error"]["message"],
                  "text: number out of range (JSON numbers here must fit a double, at most about "
                  "1.8e308)")
            << r.body;
    }
    auto nested = api.post("/api/v1/notes/add", R"({"title": "n", "tags": [1, 2, 1e999]})", h);
    EXPECT_EQ(nested.status, 400) << nested.body;
    EXPECT_NE(nested.body.find("tags.2: number out of range"), std::string::npos) << nested.body;
    // Tiny numbers round to zero and -0 is a number: the schema judges them, never a 500.
    for (const char* number : {"1e-400", "-0", "9007199254740993", "18446744073709551616"}) {
        auto r = api.post("/api/v1/notes/add",
                          std::string("{\"text\": \"t\", \"title\": ") + number + "}", h);
        EXPECT_EQ(r.status, 400) << number << " " << r.body;  // title must be a string
        EXPECT_NE(r.body.find("title"), std::string::npos) << r.body;
    }
    auto rpc = proxy.post(
        "/rpc", R"({"service": "notes", "method": "Notes.Add", "request": {"title": 1e999}})", h);
    EXPECT_EQ(rpc.status, 400) << rpc.body;
}

TEST_F(Gateway, MethodAndRouteErrors) {
    auto get_post = api.get("/api/v1/notes/add?title=x&text=y", as("gw"));
    EXPECT_EQ(get_post.status, 405);
    EXPECT_EQ(get_post.json()["error"]["code"], "method_not_allowed");
    EXPECT_EQ(get_post.header("allow"), "POST");

    auto no_service = api.get("/api/v1/nosuch/list");
    EXPECT_EQ(no_service.status, 404);
    EXPECT_EQ(no_service.json()["error"]["code"], "not_found");
    auto no_method = api.get("/api/v1/notes/nosuch");
    EXPECT_EQ(no_method.status, 404);
    EXPECT_NE(no_method.body.find("available: add, delete, get, list"), std::string::npos);

    auto gw = api.get("/nosuch/thing");
    EXPECT_EQ(gw.status, 404);
    auto j = gw.json();
    EXPECT_EQ(j["Code"], 404);
    EXPECT_EQ(j["Status"], "Not Found");
    EXPECT_TRUE(j.contains("Id") && j.contains("Detail"));

    EXPECT_EQ(proxy.get("/api/v1/notes/list").status, 404);  // the proxy serves / and /rpc only
}

TEST_F(Gateway, RpcHandlerAndProxyGiveTheSamePayloadAsTheCatalogue) {
    auto who = as("gw-rpc");
    auto via_rpc_path = api.post_json("/v1/notes/add", {{"title", "r"}, {"text", "one"}}, who);
    ASSERT_EQ(via_rpc_path.status, 200) << via_rpc_path.body;
    EXPECT_EQ(via_rpc_path.json()["title"], "r");

    auto catalogue = api.get("/api/v1/notes/get?title=r", who).json()["data"];
    auto rpc_get = api.get("/v1/notes/get?title=r", who);
    ASSERT_EQ(rpc_get.status, 200);
    EXPECT_EQ(rpc_get.json(), catalogue);

    auto rpc = proxy.post_json(
        "/rpc", {{"service", "notes"}, {"method", "Notes.Get"}, {"request", {{"title", "r"}}}},
        who);
    ASSERT_EQ(rpc.status, 200) << rpc.body;
    EXPECT_EQ(rpc.json(), catalogue);

    auto full = proxy.post_json("/rpc",
                                {{"service", "go.core.api.v1.notes"},
                                 {"endpoint", "Notes.Get"},
                                 {"request", json{{"title", "r"}}.dump()}},
                                who);
    ASSERT_EQ(full.status, 200) << full.body;
    EXPECT_EQ(full.json(), catalogue);

    auto missing = proxy.post_json("/rpc", {{"method", "Notes.Get"}}, who);
    EXPECT_EQ(missing.status, 400);
    EXPECT_NE(missing.json()["Detail"].get<std::string>().find("service"), std::string::npos);
    auto bad_args = proxy.post_json(
        "/rpc", {{"service", "notes"}, {"method", "Notes.Get"}, {"request", json::object()}}, who);
    EXPECT_EQ(bad_args.status, 400);
    EXPECT_NE(bad_args.json()["Detail"].get<std::string>().find("title: is required"),
              std::string::npos);
    EXPECT_EQ(proxy.get("/rpc").status, 405);
}

TEST_F(Gateway, NamespaceHeaderChoosesTheNamespace) {
    auto other =
        api.post_json("/v1/notes/list", json::object(),
                      {{"Authorization", "Bearer gw"}, {"Platform-Namespace", "other.ns"}});
    EXPECT_EQ(other.status, 404);
    EXPECT_NE(other.json()["Detail"].get<std::string>().find("other.ns.v1.notes"),
              std::string::npos);
}

TEST_F(Gateway, RegistryListsNotesWithItsEndpointsAndSchemas) {
    auto r = api.get("/registry/listServices");
    ASSERT_EQ(r.status, 200) << r.body;
    const json listing = r.json();
    const json* notes = nullptr;
    for (const auto& s : listing["services"])
        if (s["name"] == "go.core.api.v1.notes") notes = &s;
    ASSERT_NE(notes, nullptr) << r.body;
    std::map<std::string, std::string> verbs;
    for (const auto& e : (*notes)["endpoints"]) verbs[e["name"]] = e["metadata"]["verb"];
    EXPECT_EQ(verbs,
              (std::map<std::string, std::string>{{"Notes.Add", "POST"},
                                                  {"Notes.Delete", "POST"},
                                                  {"Notes.Get", "GET"},
                                                  {"Notes.List", "GET"},
                                                  {"Notes.Resources", "GET"},  // MCP resources/list
                                                  {"Notes.ReadResource", "GET"}}));
    for (const auto& e : (*notes)["endpoints"])
        if (e["name"] == "Notes.Add") {
            EXPECT_EQ(e["schema"]["required"], json::array({"title", "text"}));
            EXPECT_EQ(e["request"]["values"][0]["name"], "title");
            EXPECT_EQ(e["metadata"]["access"], "owner");
        }
    EXPECT_FALSE((*notes)["nodes"].empty());

    auto one = api.get("/registry/getService?service=notes");
    ASSERT_EQ(one.status, 200) << one.body;
    EXPECT_EQ(one.json()["services"][0]["name"], "go.core.api.v1.notes");
    auto nested =
        api.get("/registry/getService?service=notes&options.ttl=5&options.domain=go.core.api");
    EXPECT_EQ(nested.status, 200) << nested.body;
    auto unknown = api.get("/registry/getService?service=nosuch");
    EXPECT_EQ(unknown.status, 404);
    auto via_rpc =
        proxy.post_json("/rpc", {{"service", "registry"}, {"method", "Registry.ListServices"}});
    EXPECT_EQ(via_rpc.status, 200);
}

}  // namespace

namespace {
TEST_F(Gateway, ManualClockMovesOnlyWhenTold) {
    auto now = api.get("/clock/now");
    ASSERT_EQ(now.status, 200) << now.body;
    EXPECT_TRUE(now.json()["manual"].get<bool>());
    auto set = api.post_json("/clock/set", {{"unix_ms", 1767225600000}});
    ASSERT_EQ(set.status, 200) << set.body;
    EXPECT_EQ(api.get("/clock/now").json()["unix_ms"], 1767225600000);
    auto adv = api.post_json("/clock/advance", {{"ms", 90000}});
    EXPECT_EQ(adv.json()["unix_ms"], 1767225690000);
    EXPECT_EQ(api.post_json("/clock/advance", {{"ms", -1}}).status, 400);
    // Business time drives stored timestamps.
    auto note =
        api.post_json("/api/v1/notes/add", {{"title", "dated"}, {"text", "x"}}, as("gw-clock"));
    EXPECT_EQ(note.json()["data"]["created"], "2026-01-01T00:01:30Z");
}
}  // namespace
