// conformance — test-only: what the official MCP conformance suite
// (@modelcontextprotocol/conformance 0.1.16) expects of a server, as a plugin built with the
// public SDK like any third-party one (README.md). Service `v1.test`, so its tools are
// `test_<method>`; every endpoint is public.
//
// Tools (tools.cpp) answer MCP CallToolResults (.mcp_content()). The resource, template, prompt
// and completion endpoints (resources.cpp, prompts.cpp) have MCP roles: the host calls them with
// MCP's own arguments and they answer MCP's own shapes (abi.h, platform_mcp_role_t).
#pragma once

#include <platform/sdk.hpp>

class Conformance {
public:
    static void describe(platform::ServiceSpec<Conformance>& s);

    // ---- tools (tools.cpp): each returns {"content": [...]} ----------------------------------
    platform::json simple_text(platform::Request& r);
    platform::json image_content(platform::Request& r);
    platform::json audio_content(platform::Request& r);
    platform::json embedded_resource(platform::Request& r);
    platform::json multiple_content_types(platform::Request& r);
    // {"isError": true, "content": [text]}: a tool-level error, not a call failure.
    platform::json error_handling(platform::Request& r);
    // Three info-level log notifications ~50 ms apart (no-ops outside MCP).
    platform::json tool_with_logging(platform::Request& r);
    // Progress 0, 50 and 100 of 100, ~50 ms apart (no-ops without a progress token).
    platform::json tool_with_progress(platform::Request& r);
    // sampling/createMessage with the `prompt` argument; fails (UNSUPPORTED) when the client
    // cannot sample or the call did not come over MCP.
    platform::json sampling(platform::Request& r);
    // elicitation/create asking for username and email, with the `message` argument.
    platform::json elicitation(platform::Request& r);
    // elicitation/create with a default for every primitive type (SEP-1034).
    platform::json elicitation_sep1034_defaults(platform::Request& r);
    // elicitation/create with the five enum forms (SEP-1330).
    platform::json elicitation_sep1330_enums(platform::Request& r);

    // ---- resources (resources.cpp) -------------------------------------------------------------
    // {"resources": [static-text, static-binary, watched-resource]}
    platform::json resources(platform::Request& r);
    // {"resourceTemplates": [test://template/{id}/data]}
    platform::json resource_templates(platform::Request& r);
    // {"uri"} -> {"contents": [...]}; NOT_FOUND for any other test:// URI.
    platform::json read_resource(platform::Request& r);

    // ---- prompts and completion (prompts.cpp) ------------------------------------------------
    // {"prompts": [...]} with their arguments.
    platform::json prompts(platform::Request& r);
    // {"name", "arguments"?} -> {"description", "messages"}; NOT_FOUND for an unknown name,
    // INVALID_ARGUMENT naming a missing required argument.
    platform::json get_prompt(platform::Request& r);
    // {"ref", "argument"} -> {"completion": {"values", "total", "hasMore"}} for the arguments of
    // test_prompt_with_arguments; NOT_FOUND for any other reference.
    platform::json complete(platform::Request& r);
};
