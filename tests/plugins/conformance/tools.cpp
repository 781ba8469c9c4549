#include <chrono>
#include <thread>

#include "conformance.hpp"
#include "media.hpp"

using platform::json;

namespace {

json text(const std::string& t) {
    return {{"type", "text"}, {"text", t}};
}
json image() {
    return {{"type", "image"}, {"data", conformance::kRedPixelPng}, {"mimeType", "image/png"}};
}
json content(json items) {
    return {{"content", std::move(items)}};
}

// The scenarios' "~50 ms" between notifications: the fixture's behaviour, not a synchronisation.
void pause() {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// "Elicitation completed: action=accept, content={...}" for the SEP scenarios.
json completed(const json& answer) {
    return content({text("Elicitation completed: action=" + answer.value("action", "") +
                         ", content=" + answer.value("content", json::object()).dump())});
}

json ask_user(platform::Request& r, const std::string& message, const json& schema) {
    json answer =
        r.ask_client("elicitation/create", {{"message", message}, {"requestedSchema", schema}});
    if (!answer.is_object())
        throw platform::Error(platform::Code::bad_gateway, "elicitation: not an object");
    return answer;
}

// The text of a sampling result's content: one block or (2025-11-25) an array of them.
std::string sampled_text(const json& c) {
    if (c.is_object()) return c.value("text", c.dump());
    std::string out;
    for (const auto& b : c.is_array() ? c : json::array())
        if (b.is_object() && b.value("type", "") == "text") out += b.value("text", "");
    return out;
}

}  // namespace

json Conformance::simple_text(platform::Request&) {
    return content({text("This is a simple text response for testing.")});
}

json Conformance::image_content(platform::Request&) {
    return content({image()});
}

json Conformance::audio_content(platform::Request&) {
    return content(
        {{{"type", "audio"}, {"data", conformance::kSilentWav}, {"mimeType", "audio/wav"}}});
}

json Conformance::embedded_resource(platform::Request&) {
    return content({{{"type", "resource"},
                     {"resource",
                      {{"uri", "test://embedded-resource"},
                       {"mimeType", "text/plain"},
                       {"text", "This is an embedded resource content."}}}}});
}

json Conformance::multiple_content_types(platform::Request&) {
    return content({text("Multiple content types test:"),
                    image(),
                    {{"type", "resource"},
                     {"resource",
                      {{"uri", "test://mixed-content-resource"},
                       {"mimeType", "application/json"},
                       {"text", R"({"test":"data","value":123})"}}}}});
}

json Conformance::error_handling(platform::Request&) {
    json out = content({text("This tool intentionally returns an error for testing")});
    out["isError"] = true;
    return out;
}

json Conformance::tool_with_logging(platform::Request& r) {
    r.log("info", "Tool execution started");
    pause();
    r.log("info", "Tool processing data");
    pause();
    r.log("info", "Tool execution completed");
    return content({text("Tool with logging executed successfully")});
}

json Conformance::tool_with_progress(platform::Request& r) {
    r.progress(0, 100);
    pause();
    r.progress(50, 100);
    pause();
    r.progress(100, 100);
    return content({text("Tool with progress executed successfully")});
}

json Conformance::sampling(platform::Request& r) {
    json msg = {{"role", "user"}, {"content", text(r.str("prompt"))}};
    json result = r.ask_client("sampling/createMessage",
                               {{"messages", json::array({msg})}, {"maxTokens", 100}});
    if (!result.is_object())
        throw platform::Error(platform::Code::bad_gateway, "sampling: not an object");
    return content({text("LLM response: " + sampled_text(result.value("content", json())))});
}

json Conformance::elicitation(platform::Request& r) {
    auto field = [](const char* d) { return json{{"type", "string"}, {"description", d}}; };
    json answer = ask_user(
        r, r.str("message"),
        {{"type", "object"},
         {"properties",
          {{"username", field("User's response")}, {"email", field("User's email address")}}},
         {"required", json::array({"username", "email"})}});
    return content({text("User response: <action: " + answer.value("action", "") +
                         ", content: " + answer.value("content", json::object()).dump() + ">")});
}

json Conformance::elicitation_sep1034_defaults(platform::Request& r) {
    auto field = [](const char* type, const char* d, json dflt) {
        return json{{"type", type}, {"description", d}, {"default", std::move(dflt)}};
    };
    json status = field("string", "User status", "active");
    status["enum"] = {"active", "inactive", "pending"};
    return completed(ask_user(r, "Please review and update the form fields with defaults",
                              {{"type", "object"},
                               {"properties",
                                {{"name", field("string", "User name", "John Doe")},
                                 {"age", field("integer", "User age", 30)},
                                 {"score", field("number", "User score", 95.5)},
                                 {"status", status},
                                 {"verified", field("boolean", "Verification status", true)}}},
                               {"required", json::array()}}));
}

json Conformance::elicitation_sep1330_enums(platform::Request& r) {
    auto titled = [](const char* a, const char* b, const char* c) {
        return json::array({{{"const", "value1"}, {"title", a}},
                            {{"const", "value2"}, {"title", b}},
                            {{"const", "value3"}, {"title", c}}});
    };
    const json options = {"option1", "option2", "option3"};
    json properties = {
        {"untitledSingle",
         {{"type", "string"}, {"description", "Untitled single-select"}, {"enum", options}}},
        {"titledSingle",
         {{"type", "string"},
          {"description", "Titled single-select"},
          {"oneOf", titled("First Option", "Second Option", "Third Option")}}},
        {"legacyEnum",
         {{"type", "string"},
          {"description", "Legacy titled enum"},
          {"enum", {"opt1", "opt2", "opt3"}},
          {"enumNames", {"Option One", "Option Two", "Option Three"}}}},
        {"untitledMulti",
         {{"type", "array"},
          {"description", "Untitled multi-select"},
          {"items", {{"type", "string"}, {"enum", options}}}}},
        {"titledMulti",
         {{"type", "array"},
          {"description", "Titled multi-select"},
          {"items", {{"anyOf", titled("First Choice", "Second Choice", "Third Choice")}}}}},
    };
    return completed(
        ask_user(r, "Please select options from the enum fields",
                 {{"type", "object"}, {"properties", properties}, {"required", json::array()}}));
}
