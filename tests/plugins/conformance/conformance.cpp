#include "conformance.hpp"

namespace schema = platform::schema;

namespace {

using Spec = platform::ServiceSpec<Conformance>;
using Endpoint = platform::EndpointSpec<Conformance>;

const schema::Object kCursor = schema::object().open().prop("cursor", schema::cursor());

// A tool that only answers MCP content.
Endpoint& tool(Spec& s, const char* name, const char* title, const char* description) {
    return s.get(name).title(title).description(description).read_only().mcp_content();
}

// A tool that asks the MCP client (sampling, elicitation) before answering.
Endpoint& asking(Spec& s, const char* name, const char* title, const char* description) {
    return s.post(name).title(title).description(description).mcp_content();
}

}  // namespace

void Conformance::describe(Spec& s) {
    s.id("conformance").version("1.0.0").service("v1.test");
    s.summary("Test-only: the server side of the MCP conformance suite");

    tool(s, "simple_text", "Simple text", "Returns one text content item.")
        .handler(&Conformance::simple_text);
    tool(s, "image_content", "Image content", "Returns a 1x1 red PNG as image content.")
        .handler(&Conformance::image_content);
    tool(s, "audio_content", "Audio content", "Returns a minimal WAV as audio content.")
        .handler(&Conformance::audio_content);
    tool(s, "embedded_resource", "Embedded resource", "Returns an embedded text resource.")
        .handler(&Conformance::embedded_resource);
    tool(s, "multiple_content_types", "Multiple content types",
         "Returns text, an image and an embedded JSON resource.")
        .handler(&Conformance::multiple_content_types);
    tool(s, "error_handling", "Error handling", "Always returns a tool error (isError: true).")
        .handler(&Conformance::error_handling);
    tool(s, "tool_with_logging", "Tool with logging",
         "Sends three info log notifications about 50 ms apart.")
        .handler(&Conformance::tool_with_logging);
    tool(s, "tool_with_progress", "Tool with progress",
         "Reports progress 0, 50 and 100 of 100 about 50 ms apart.")
        .handler(&Conformance::tool_with_progress);
    asking(s, "sampling", "Sampling", "Asks the client's LLM (sampling/createMessage) to answer.")
        .schema(schema::object().str("prompt").required().doc("The prompt to send to the LLM"))
        .handler(&Conformance::sampling);
    asking(s, "elicitation", "Elicitation",
           "Asks the user (elicitation/create) for name and email.")
        .schema(schema::object().str("message").required().doc("The message to show the user"))
        .handler(&Conformance::elicitation);
    asking(s, "elicitation_sep1034_defaults", "Elicitation with defaults",
           "Asks the user for a form with a default for every primitive type (SEP-1034).")
        .handler(&Conformance::elicitation_sep1034_defaults);
    asking(s, "elicitation_sep1330_enums", "Elicitation with enums",
           "Asks the user for a form with the five kinds of enum (SEP-1330).")
        .handler(&Conformance::elicitation_sep1330_enums);

    s.get("resources")
        .title("List resources")
        .description("MCP resources/list: the static text, binary and watched resources.")
        .schema(kCursor)
        .read_only()
        .mcp_resources()
        .handler(&Conformance::resources);
    s.get("resource_templates")
        .title("List resource templates")
        .description("MCP resources/templates/list: test://template/{id}/data.")
        .schema(kCursor)
        .read_only()
        .mcp_resource_templates()
        .handler(&Conformance::resource_templates);
    s.get("read_resource")
        .title("Read a resource")
        .description("MCP resources/read for test:// URIs; 404 for unknown ones.")
        .schema(schema::object().open().str("uri").required().doc("The resource's URI"))
        .read_only()
        .mcp_resource_read("test://")
        .handler(&Conformance::read_resource);
    s.get("prompts")
        .title("List prompts")
        .description("MCP prompts/list: the four test prompts.")
        .schema(kCursor)
        .read_only()
        .mcp_prompts()
        .handler(&Conformance::prompts);
    s.post("get_prompt")
        .title("Get a prompt")
        .description("MCP prompts/get; 404 for an unknown prompt, 400 for a missing argument.")
        .schema(schema::object()
                    .open()
                    .str("name")
                    .required()
                    .doc("The prompt's name")
                    .prop("arguments", schema::map_of(schema::string())))
        .read_only()
        .mcp_prompt_get()
        .handler(&Conformance::get_prompt);
    s.post("complete")
        .title("Complete an argument")
        .description("MCP completion/complete for test_prompt_with_arguments; 404 otherwise.")
        .schema(schema::object()
                    .open()
                    .object("ref",
                            schema::object().open().str("type").required().str("name").str("uri"))
                    .required()
                    .object("argument",
                            schema::object().open().str("name").required().str("value").required())
                    .required()
                    .prop("context", schema::any_object()))
        .read_only()
        .mcp_complete()
        .handler(&Conformance::complete);
}

PLATFORM_SERVICE(Conformance)
