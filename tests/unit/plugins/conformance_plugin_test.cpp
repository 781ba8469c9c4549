// The conformance test plugin (tests/plugins/conformance/) through the fake host: the exact MCP
// shapes of its tools, resources, prompts and completions. The fake host's calls never come from
// an MCP client, so the tools that ask the client fail cleanly and logging/progress are no-ops.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

constexpr const char* kPngBase64Start = "iVBORw0KGgo";  // \x89PNG\r\n\x1a\n
constexpr const char* kWavBase64Start = "UklGR";        // RIFF

class ConformancePlugin : public ::testing::Test {
protected:
    json ok(const std::string& endpoint, const json& args = json::object()) {
        Reply r = plugin.call(endpoint, args);
        EXPECT_EQ(r.code, PLATFORM_OK) << endpoint << ": " << r.body;
        return r.code == PLATFORM_OK ? r.json() : json();
    }
    static json text(const std::string& t) { return {{"type", "text"}, {"text", t}}; }
    static json content(json items) { return {{"content", std::move(items)}}; }

    FakeHost host;
    FakePlugin plugin = host.load(platform_plugin_entry);
};

const platform_endpoint_t* endpoint(const platform_plugin_desc_t* d, uint32_t i) {
    return reinterpret_cast<const platform_endpoint_t*>(
        reinterpret_cast<const char*>(d->endpoints) + size_t(i) * d->endpoint_stride);
}

void expect_base64(const json& v, const char* start) {
    ASSERT_TRUE(v.is_string()) << v;
    const std::string s = v.get<std::string>();
    EXPECT_EQ(s.rfind(start, 0), 0u) << s;
    EXPECT_EQ(s.size() % 4, 0u) << s;
    EXPECT_EQ(
        s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="),
        std::string::npos)
        << s;
}

TEST_F(ConformancePlugin, DescriptorDeclaresToolsAndRoles) {
    const platform_plugin_desc_t* d = plugin.descriptor();
    EXPECT_EQ(platform::copy(d->id), "conformance");
    EXPECT_EQ(platform::copy(d->service), "v1.test");
    const std::map<std::string, platform_mcp_role_t> roles = {
        {"resources", PLATFORM_MCP_RESOURCES},
        {"resource_templates", PLATFORM_MCP_RESOURCE_TEMPLATES},
        {"read_resource", PLATFORM_MCP_RESOURCE_READ},
        {"prompts", PLATFORM_MCP_PROMPTS},
        {"get_prompt", PLATFORM_MCP_PROMPT_GET},
        {"complete", PLATFORM_MCP_COMPLETE},
    };
    std::set<std::string> tools;
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        const platform_endpoint_t* ep = endpoint(d, i);
        const std::string name = platform::copy(ep->name);
        SCOPED_TRACE(name);
        EXPECT_EQ(ep->access, PLATFORM_ACCESS_PUBLIC);
        EXPECT_FALSE(platform::copy(ep->description).empty());
        EXPECT_EQ(json::parse(platform::copy(ep->input_schema)).at("type"), "object");
        auto role = roles.find(name);
        if (role == roles.end()) {
            tools.insert(name);
            EXPECT_EQ(ep->mcp_role, PLATFORM_MCP_TOOL);
            EXPECT_NE(ep->flags & PLATFORM_FLAG_MCP_CONTENT, 0u);
        } else {
            EXPECT_EQ(ep->mcp_role, role->second);
            EXPECT_EQ(ep->flags & PLATFORM_FLAG_MCP_CONTENT, 0u);
        }
        EXPECT_EQ(platform::copy(ep->mcp_uri_prefix), name == "read_resource" ? "test://" : "");
    }
    EXPECT_EQ(tools, (std::set<std::string>{
                         "simple_text", "image_content", "audio_content", "embedded_resource",
                         "multiple_content_types", "error_handling", "tool_with_logging",
                         "tool_with_progress", "sampling", "elicitation",
                         "elicitation_sep1034_defaults", "elicitation_sep1330_enums"}));
}

TEST_F(ConformancePlugin, TextAndResourceTools) {
    EXPECT_EQ(ok("simple_text"), content({text("This is a simple text response for testing.")}));
    EXPECT_EQ(ok("embedded_resource"),
              content({{{"type", "resource"},
                        {"resource",
                         {{"uri", "test://embedded-resource"},
                          {"mimeType", "text/plain"},
                          {"text", "This is an embedded resource content."}}}}}));
    EXPECT_EQ(ok("error_handling"),
              (json{{"isError", true},
                    {"content", {text("This tool intentionally returns an error for testing")}}}));
}

TEST_F(ConformancePlugin, MediaTools) {
    json image = ok("image_content").at("content");
    ASSERT_EQ(image.size(), 1u);
    EXPECT_EQ(image[0].at("type"), "image");
    EXPECT_EQ(image[0].at("mimeType"), "image/png");
    expect_base64(image[0].at("data"), kPngBase64Start);

    json audio = ok("audio_content").at("content");
    ASSERT_EQ(audio.size(), 1u);
    EXPECT_EQ(audio[0].at("type"), "audio");
    EXPECT_EQ(audio[0].at("mimeType"), "audio/wav");
    expect_base64(audio[0].at("data"), kWavBase64Start);

    json mixed = ok("multiple_content_types").at("content");
    ASSERT_EQ(mixed.size(), 3u);
    EXPECT_EQ(mixed[0], text("Multiple content types test:"));
    EXPECT_EQ(mixed[1], image[0]);
    EXPECT_EQ(mixed[2], (json{{"type", "resource"},
                              {"resource",
                               {{"uri", "test://mixed-content-resource"},
                                {"mimeType", "application/json"},
                                {"text", R"({"test":"data","value":123})"}}}}));
}

TEST_F(ConformancePlugin, LoggingAndProgressToolsAnswerWithoutAnMcpClient) {
    EXPECT_EQ(ok("tool_with_logging"), content({text("Tool with logging executed successfully")}));
    EXPECT_EQ(ok("tool_with_progress"),
              content({text("Tool with progress executed successfully")}));
}

TEST_F(ConformancePlugin, ToolsAskingTheClientFailCleanlyWithoutOne) {
    const struct {
        const char* endpoint;
        json args;
    } calls[] = {
        {"sampling", {{"prompt", "hi"}}},
        {"elicitation", {{"message", "who are you?"}}},
        {"elicitation_sep1034_defaults", json::object()},
        {"elicitation_sep1330_enums", json::object()},
    };
    for (const auto& c : calls) {
        SCOPED_TRACE(c.endpoint);
        Reply r = plugin.call(c.endpoint, c.args);
        EXPECT_EQ(r.code, PLATFORM_UNSUPPORTED) << r.body;
        EXPECT_NE(r.body.find("MCP client"), std::string::npos) << r.body;
    }
}

TEST_F(ConformancePlugin, ResourceAndTemplateLists) {
    json listed = ok("resources", {{"cursor", "ignored"}}).at("resources");
    ASSERT_EQ(listed.size(), 3u);
    const char* uris[] = {"test://static-text", "test://static-binary", "test://watched-resource"};
    const char* mimes[] = {"text/plain", "image/png", "text/plain"};
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(listed[i].at("uri"), uris[i]);
        EXPECT_EQ(listed[i].at("mimeType"), mimes[i]);
        EXPECT_FALSE(listed[i].at("name").get<std::string>().empty());
        EXPECT_FALSE(listed[i].at("description").get<std::string>().empty());
    }
    json templates = ok("resource_templates").at("resourceTemplates");
    ASSERT_EQ(templates.size(), 1u);
    EXPECT_EQ(templates[0].at("uriTemplate"), "test://template/{id}/data");
    EXPECT_EQ(templates[0].at("mimeType"), "application/json");
    EXPECT_TRUE(templates[0].contains("name") && templates[0].contains("description"));
}

TEST_F(ConformancePlugin, ReadResource) {
    auto read = [&](const std::string& uri) { return ok("read_resource", {{"uri", uri}}); };
    EXPECT_EQ(read("test://static-text"),
              (json{{"contents",
                     {{{"uri", "test://static-text"},
                       {"mimeType", "text/plain"},
                       {"text", "This is the content of the static text resource."}}}}}));
    json binary = read("test://static-binary").at("contents");
    ASSERT_EQ(binary.size(), 1u);
    EXPECT_EQ(binary[0].at("uri"), "test://static-binary");
    EXPECT_EQ(binary[0].at("mimeType"), "image/png");
    expect_base64(binary[0].at("blob"), kPngBase64Start);
    EXPECT_EQ(read("test://watched-resource").at("contents")[0].at("mimeType"), "text/plain");
    EXPECT_EQ(
        read("test://template/123/data"),
        (json{{"contents",
               {{{"uri", "test://template/123/data"},
                 {"mimeType", "application/json"},
                 {"text", R"({"id":"123","templateTest":true,"data":"Data for ID: 123"})"}}}}}));

    for (const char* uri : {"test://nosuch", "test://template//data", "test://template/1/2/data",
                            "test://template/1/other", "other://static-text"}) {
        SCOPED_TRACE(uri);
        Reply r = plugin.call("read_resource", {{"uri", uri}});
        EXPECT_EQ(r.code, PLATFORM_NOT_FOUND) << r.body;
        EXPECT_NE(r.body.find(uri), std::string::npos) << r.body;
    }
}

TEST_F(ConformancePlugin, PromptList) {
    json prompts = ok("prompts").at("prompts");
    ASSERT_EQ(prompts.size(), 4u);
    for (const auto& p : prompts) EXPECT_FALSE(p.at("description").get<std::string>().empty()) << p;
    EXPECT_EQ(prompts[0].at("name"), "test_simple_prompt");
    EXPECT_FALSE(prompts[0].contains("arguments"));
    EXPECT_EQ(prompts[1].at("name"), "test_prompt_with_arguments");
    EXPECT_EQ(
        prompts[1].at("arguments"),
        (json{{{"name", "arg1"}, {"description", "First test argument"}, {"required", true}},
              {{"name", "arg2"}, {"description", "Second test argument"}, {"required", true}}}));
    EXPECT_EQ(prompts[2].at("name"), "test_prompt_with_embedded_resource");
    EXPECT_EQ(prompts[2].at("arguments")[0].at("name"), "resourceUri");
    EXPECT_EQ(prompts[3].at("name"), "test_prompt_with_image");
}

TEST_F(ConformancePlugin, GetPrompt) {
    auto get = [&](const char* name, const json& args) {
        json body = {{"name", name}};
        if (!args.is_null()) body["arguments"] = args;
        return ok("get_prompt", body).at("messages");
    };
    auto user_text = [](const char* t) { return json{{"role", "user"}, {"content", text(t)}}; };
    EXPECT_EQ(get("test_simple_prompt", nullptr),
              json::array({user_text("This is a simple prompt for testing.")}));
    EXPECT_EQ(get("test_prompt_with_arguments", {{"arg1", "hello"}, {"arg2", "world"}}),
              json::array({user_text("Prompt with arguments: arg1='hello', arg2='world'")}));
    EXPECT_EQ(
        get("test_prompt_with_embedded_resource", {{"resourceUri", "test://example-resource"}}),
        (json{{{"role", "user"},
               {"content",
                {{"type", "resource"},
                 {"resource",
                  {{"uri", "test://example-resource"},
                   {"mimeType", "text/plain"},
                   {"text", "Embedded resource content for testing."}}}}}},
              user_text("Please process the embedded resource above.")}));
    json image = get("test_prompt_with_image", nullptr);
    ASSERT_EQ(image.size(), 2u);
    EXPECT_EQ(image[0].at("content").at("type"), "image");
    EXPECT_EQ(image[0].at("content").at("mimeType"), "image/png");
    expect_base64(image[0].at("content").at("data"), kPngBase64Start);
    EXPECT_EQ(image[1], user_text("Please analyze the image above."));
}

TEST_F(ConformancePlugin, GetPromptErrors) {
    Reply unknown = plugin.call("get_prompt", {{"name", "nosuch"}});
    EXPECT_EQ(unknown.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(unknown.body.find("nosuch"), std::string::npos) << unknown.body;

    Reply missing = plugin.call(
        "get_prompt", {{"name", "test_prompt_with_arguments"}, {"arguments", {{"arg1", "x"}}}});
    EXPECT_EQ(missing.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(missing.body.find("arg2"), std::string::npos) << missing.body;

    Reply none = plugin.call("get_prompt", {{"name", "test_prompt_with_embedded_resource"}});
    EXPECT_EQ(none.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(none.body.find("resourceUri"), std::string::npos) << none.body;
}

TEST_F(ConformancePlugin, Complete) {
    auto complete = [&](const json& ref, const char* arg, const char* value) {
        return plugin.call("complete",
                           {{"ref", ref}, {"argument", {{"name", arg}, {"value", value}}}});
    };
    const json ref = {{"type", "ref/prompt"}, {"name", "test_prompt_with_arguments"}};
    Reply par = complete(ref, "arg1", "par");
    ASSERT_EQ(par.code, PLATFORM_OK) << par.body;
    EXPECT_EQ(par.json(),
              (json{{"completion",
                     {{"values", {"paris", "park", "party"}}, {"total", 3}, {"hasMore", false}}}}));
    EXPECT_EQ(complete(ref, "arg2", "test").json().at("completion").at("values"),
              (json{"test", "testValue1", "testValue2"}));
    EXPECT_EQ(complete(ref, "arg1", "zzz").json().at("completion").at("values"), json::array());
    EXPECT_EQ(complete(ref, "other", "x").json().at("completion").at("values"), json::array());

    EXPECT_EQ(complete({{"type", "ref/prompt"}, {"name", "test_simple_prompt"}}, "arg1", "x").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(
        complete({{"type", "ref/resource"}, {"uri", "test://template/{id}/data"}}, "id", "x").code,
        PLATFORM_NOT_FOUND);
}

}  // namespace
