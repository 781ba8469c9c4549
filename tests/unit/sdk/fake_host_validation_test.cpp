// The fake host validates arguments with the host's validator: a plugin's unit test sees the 400
// and the message a client would, and a plugin whose schema is invalid fails to load. A page's
// answer headers (respond_raw_headers) are kept when the host would take them, refused otherwise.
#include <gtest/gtest.h>

#include <platform/sdk.hpp>
#include <platform/testing/fake_host.hpp>

namespace {

namespace schema = platform::schema;
using nlohmann::json;
using platform::testing::FakeHost;

// Echoes its arguments, so the test sees what reached the handler.
class Echo {
public:
    static void describe(platform::ServiceSpec<Echo>& s) {
        s.id("echo").version("1.0.0").service("echo").summary("Echoes its arguments");
        s.post("put")
            .schema(schema::object()
                        .str("title")
                        .max_len(10)
                        .required()
                        .str("body")
                        .max_bytes(8)
                        .integer("count")
                        .range(1, 5)
                        .def(2))
            .handler(&Echo::put);
    }
    json put(platform::Request& r) { return r.args(); }
};

// Its only endpoint declares a minimum above its maximum.
class Broken {
public:
    static void describe(platform::ServiceSpec<Broken>& s) {
        s.id("broken").version("1.0.0").service("broken").summary("An invalid schema");
        s.get("get").schema(schema::object().integer("n").min(5).max(1)).handler(&Broken::get);
    }
    json get(platform::Request&) { return json::object(); }
};

// Answers a page with the header its arguments name (ABI 1.9 respond_raw_headers).
class Page {
public:
    static void describe(platform::ServiceSpec<Page>& s) {
        s.id("page").version("1.0.0").service("page").summary("A page with one header");
        s.get("show")
            .schema(schema::object().str("name").required().str("value").required())
            .async(&Page::show);
    }
    void show(platform::Request& r, platform::Responder out) {
        out.raw("text/html", "<p>hi</p>", {{r.str("name"), r.str("value")}});
    }
};

const platform_plugin_desc_t* page_entry(const platform_entry_args_t*) {
    return platform::detail::ServiceRuntime<Page>::descriptor();
}

const platform_plugin_desc_t* echo_entry(const platform_entry_args_t*) {
    return platform::detail::ServiceRuntime<Echo>::descriptor();
}
const platform_plugin_desc_t* broken_entry(const platform_entry_args_t*) {
    return platform::detail::ServiceRuntime<Broken>::descriptor();
}

TEST(FakeHostValidation, RefusesWhatTheHostRefusesWithItsMessage) {
    FakeHost host;
    auto echo = host.load(echo_entry);
    auto missing = echo.call("put", json::object());
    EXPECT_EQ(missing.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(missing.body, "title: is required");
    auto wrong_type = echo.call("put", {{"title", "a"}, {"count", "two"}});
    EXPECT_EQ(wrong_type.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(wrong_type.body, "count: must be an integer");
    auto too_long = echo.call("put", {{"title", std::string(11, 'x')}});
    EXPECT_EQ(too_long.body, "title: must be at most 10 characters");
    auto too_many_bytes =
        echo.call("put", {{"title", "a"}, {"body", "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"}});
    EXPECT_EQ(too_many_bytes.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(too_many_bytes.body, "body: must be at most 8 bytes");
    auto unknown = echo.call("put", {{"title", "a"}, {"colour", "red"}});
    EXPECT_EQ(unknown.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(unknown.body.find("colour: unknown argument"), std::string::npos) << unknown.body;
}

TEST(FakeHostValidation, TheHandlerGetsTheArgumentsWithDefaults) {
    FakeHost host;
    auto echo = host.load(echo_entry);
    auto r = echo.call("put", {{"title", "a"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json(), json({{"title", "a"}, {"count", 2}}));
}

TEST(FakeHostValidation, AnInvalidSchemaFailsToLoad) {
    FakeHost host;
    try {
        host.load(broken_entry);
        FAIL() << "a plugin with an invalid schema loaded";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "endpoint 'get': invalid schema: /properties/n/minimum: is greater than maximum");
    }
}

TEST(FakeHostPages, AnswerHeadersAreKeptOnlyWhenTheHostWouldTakeThem) {
    FakeHost host;
    auto page = host.load(page_entry);
    auto r =
        page.call("show", {{"name", "Content-Security-Policy"}, {"value", "default-src 'none'"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.content_type, "text/html");
    EXPECT_EQ(r.body, "<p>hi</p>");
    EXPECT_EQ(r.headers["Content-Security-Policy"], "default-src 'none'");
    auto cookie = page.call("show", {{"name", "Set-Cookie"}, {"value", "a=1"}});
    EXPECT_EQ(cookie.code, PLATFORM_INTERNAL);
    EXPECT_NE(cookie.body.find("Set-Cookie"), std::string::npos) << cookie.body;
}

}  // namespace
