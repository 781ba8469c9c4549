#include <vector>

#include "conformance.hpp"
#include "media.hpp"

using platform::json;

namespace {

struct Argument {
    const char* name;
    const char* description;
};

struct Prompt {
    const char* name;
    const char* description;
    std::vector<Argument> arguments;  // all required
};

const std::vector<Prompt>& all() {
    static const std::vector<Prompt> prompts = {
        {"test_simple_prompt", "A simple prompt without arguments", {}},
        {"test_prompt_with_arguments",
         "A prompt with two required arguments",
         {{"arg1", "First test argument"}, {"arg2", "Second test argument"}}},
        {"test_prompt_with_embedded_resource",
         "A prompt embedding the resource it is given",
         {{"resourceUri", "URI of the resource to embed"}}},
        {"test_prompt_with_image", "A prompt with an image", {}},
    };
    return prompts;
}

// What completion offers for test_prompt_with_arguments: those starting with the typed value.
const std::vector<std::string> kSuggestions = {"hello", "help",       "paris",      "park", "party",
                                               "test",  "testValue1", "testValue2", "world"};

json user(json content) {
    return {{"role", "user"}, {"content", std::move(content)}};
}
json text(const std::string& t) {
    return user({{"type", "text"}, {"text", t}});
}

json messages(const std::string& name, const json& args) {
    auto arg = [&](const char* a) { return args.at(a).get<std::string>(); };
    if (name == "test_simple_prompt") return {text("This is a simple prompt for testing.")};
    if (name == "test_prompt_with_arguments")
        return {
            text("Prompt with arguments: arg1='" + arg("arg1") + "', arg2='" + arg("arg2") + "'")};
    if (name == "test_prompt_with_embedded_resource")
        return {user({{"type", "resource"},
                      {"resource",
                       {{"uri", arg("resourceUri")},
                        {"mimeType", "text/plain"},
                        {"text", "Embedded resource content for testing."}}}}),
                text("Please process the embedded resource above.")};
    return {
        user({{"type", "image"}, {"data", conformance::kRedPixelPng}, {"mimeType", "image/png"}}),
        text("Please analyze the image above.")};
}

}  // namespace

json Conformance::prompts(platform::Request&) {
    json out = json::array();
    for (const auto& p : all()) {
        json item = {{"name", p.name}, {"description", p.description}};
        for (const auto& a : p.arguments)
            item["arguments"].push_back(
                {{"name", a.name}, {"description", a.description}, {"required", true}});
        out.push_back(std::move(item));
    }
    return {{"prompts", out}};
}

json Conformance::get_prompt(platform::Request& r) {
    const std::string name = r.str("name");
    const json args = r.args().value("arguments", json::object());
    for (const auto& p : all()) {
        if (name != p.name) continue;
        for (const auto& a : p.arguments)
            if (!args.contains(a.name) || !args[a.name].is_string())
                throw platform::invalid_argument(std::string("arguments.") + a.name +
                                                 ": required by " + name);
        return {{"description", p.description}, {"messages", messages(name, args)}};
    }
    throw platform::not_found("name: no prompt " + name);
}

json Conformance::complete(platform::Request& r) {
    const json& ref = r["ref"];
    if (ref.value("type", "") != "ref/prompt" ||
        ref.value("name", "") != "test_prompt_with_arguments")
        throw platform::not_found("ref: not a reference of this service");
    const json& argument = r["argument"];
    const std::string arg = argument.value("name", ""), typed = argument.value("value", "");
    json values = json::array();
    if (arg == "arg1" || arg == "arg2")
        for (const auto& s : kSuggestions)
            if (s.compare(0, typed.size(), typed) == 0) values.push_back(s);
    return {{"completion", {{"values", values}, {"total", values.size()}, {"hasMore", false}}}};
}
