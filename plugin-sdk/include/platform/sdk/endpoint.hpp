// platform/sdk/endpoint.hpp — the fluent endpoint builder.
//
//   spec.post("add")
//       .title("Add a note")
//       .description("Writing an existing title rewrites that note.")
//       .schema(schema::object().str("title").max_len(200).required().str("text").max_bytes(100000))
//       .access(platform::Access::owner)
//       .idempotent()
//       .handler(&Notes::add);
//
// The description is data: the host derives validation, routes, MCP tools, CLI help and OpenAPI
// from it. Write each fact about an endpoint here and nowhere else.
#pragma once

#include <platform/abi.h>

#include <functional>
#include <platform/sdk/request.hpp>
#include <platform/sdk/schema.hpp>
#include <string>

namespace platform {

enum class Access : platform_access_t {
    public_ = PLATFORM_ACCESS_PUBLIC,
    account = PLATFORM_ACCESS_ACCOUNT,
    owner = PLATFORM_ACCESS_OWNER,
    admin = PLATFORM_ACCESS_ADMIN,
};

template <class T>
class EndpointSpec {
public:
    using SyncFn = std::function<json(T&, Request&)>;
    using AsyncFn = std::function<void(T&, Request&, Responder)>;

    EndpointSpec(std::string name, platform_verb_t verb) : name_(std::move(name)), verb_(verb) {}

    EndpointSpec& title(std::string v) {
        title_ = std::move(v);
        return *this;
    }
    EndpointSpec& description(std::string v) {
        description_ = std::move(v);
        return *this;
    }
    // Input JSON Schema, from the builder (platform/sdk/schema.hpp); the default accepts only an
    // empty object.
    EndpointSpec& schema(const ::platform::schema::Object& v) {
        input_ = v.dump();
        return *this;
    }
    // The same as JSON text, for schemas that come from elsewhere (a file, another service).
    EndpointSpec& schema_json(std::string v) {
        input_ = std::move(v);
        return *this;
    }
    // The result's JSON Schema (documentation: OpenAPI and the registry show it).
    EndpointSpec& output(const ::platform::schema::Value& v) {
        output_ = v.json().dump();
        return *this;
    }
    EndpointSpec& access(Access a) {
        access_ = static_cast<platform_access_t>(a);
        return *this;
    }
    EndpointSpec& read_only() {
        flags_ |= PLATFORM_FLAG_READ_ONLY;
        return *this;
    }
    EndpointSpec& destructive() {
        flags_ |= PLATFORM_FLAG_DESTRUCTIVE;
        return *this;
    }
    EndpointSpec& idempotent() {
        flags_ |= PLATFORM_FLAG_IDEMPOTENT;
        return *this;
    }
    EndpointSpec& withheld_from_agent() {
        flags_ |= PLATFORM_FLAG_WITHHELD_FROM_AGENT;
        return *this;
    }
    // For other plugins only (ABI 1.6): never routed from outside, never listed.
    EndpointSpec& internal() {
        flags_ |= PLATFORM_FLAG_INTERNAL;
        return *this;
    }
    EndpointSpec& action() {
        flags_ |= PLATFORM_FLAG_ACTION;
        return *this;
    }
    EndpointSpec& streaming() {
        flags_ |= PLATFORM_FLAG_STREAMING;
        return *this;
    }
    EndpointSpec& open_world() {
        flags_ |= PLATFORM_FLAG_OPEN_WORLD;
        return *this;
    }
    EndpointSpec& metered(uint64_t price) {
        flags_ |= PLATFORM_FLAG_METERED;
        price_ = price;
        return *this;
    }
    EndpointSpec& max_body(uint64_t bytes) {
        max_body_ = bytes;
        return *this;
    }
    EndpointSpec& since(std::string v) {
        since_ = std::move(v);
        return *this;
    }
    // An extra HTTP route for this endpoint, e.g. "/items/{id}" ({name} binds an argument). (ABI 1.2)
    EndpointSpec& http_path(std::string v) {
        http_path_ = std::move(v);
        return *this;
    }
    // MCP (ABI 1.4). mcp_content(): the handler returns an MCP CallToolResult ({"content": [...]})
    // that tools/call passes through. The roles make the endpoint answer one MCP request instead
    // of being a tool (abi.h, platform_mcp_role_t, gives each one's arguments and result).
    EndpointSpec& mcp_content() {
        flags_ |= PLATFORM_FLAG_MCP_CONTENT;
        return *this;
    }
    EndpointSpec& mcp_resources() { return mcp_role(PLATFORM_MCP_RESOURCES); }
    EndpointSpec& mcp_resource_templates() { return mcp_role(PLATFORM_MCP_RESOURCE_TEMPLATES); }
    EndpointSpec& mcp_resource_read(std::string uri_prefix) {
        mcp_uri_prefix_ = std::move(uri_prefix);
        return mcp_role(PLATFORM_MCP_RESOURCE_READ);
    }
    EndpointSpec& mcp_prompts() { return mcp_role(PLATFORM_MCP_PROMPTS); }
    EndpointSpec& mcp_prompt_get() { return mcp_role(PLATFORM_MCP_PROMPT_GET); }
    EndpointSpec& mcp_complete() { return mcp_role(PLATFORM_MCP_COMPLETE); }
    EndpointSpec& mcp_hidden() { return mcp_role(PLATFORM_MCP_HIDDEN); }
    // Live streams over a WebSocket (ABI 1.8; abi.h, platform_endpoint_t.live_input): each
    // message the client sends is merged over the stream's arguments and calls `method`, a
    // sibling endpoint.
    EndpointSpec& live_input(std::string method) {
        live_input_ = std::move(method);
        return *this;
    }
    // The argument the host sets to the last forwarded chunk's `cursor` when it calls the stream
    // again after a normal end (ABI 1.8), and from an SSE client's Last-Event-ID.
    EndpointSpec& resume_arg(std::string arg) {
        resume_arg_ = std::move(arg);
        return *this;
    }
    EndpointSpec& mcp_role(platform_mcp_role_t role) {
        mcp_role_ = role;
        return *this;
    }

    // A handler returning the JSON result (or throwing platform::Error).
    EndpointSpec& handler(json (T::*fn)(Request&)) {
        sync_ = [fn](T& self, Request& r) { return (self.*fn)(r); };
        return *this;
    }
    // A handler returning its result as JSON text (json_text.hpp), sent without a dump.
    EndpointSpec& handler(JsonText (T::*fn)(Request&)) {
        async_ = [fn](T& self, Request& r, Responder out) { out.ok_text((self.*fn)(r)); };
        return *this;
    }
    // A handler answering through the Responder, now or later from any thread.
    EndpointSpec& async(void (T::*fn)(Request&, Responder)) {
        async_ = [fn](T& self, Request& r, Responder out) { (self.*fn)(r, std::move(out)); };
        return *this;
    }

    // The C view; points into this object, which must not move afterwards.
    platform_endpoint_t c_view() const {
        platform_endpoint_t e{};
        e.struct_size = sizeof e;
        e.name = view(name_);
        e.title = view(title_);
        e.description = view(description_);
        e.verb = verb_;
        e.access = access_;
        e.flags = flags_;
        e.input_schema = view(input_);
        e.output_schema = view(output_);
        e.max_body_bytes = max_body_;
        e.price = price_;
        e.since = view(since_);
        e.http_path = view(http_path_);
        e.mcp_role = mcp_role_;
        e.mcp_uri_prefix = view(mcp_uri_prefix_);
        e.live_input = view(live_input_);
        e.resume_arg = view(resume_arg_);
        return e;
    }

    const SyncFn& sync_handler() const { return sync_; }
    const AsyncFn& async_handler() const { return async_; }
    const std::string& name() const { return name_; }

private:
    std::string name_, title_, description_;
    platform_verb_t verb_;
    platform_access_t access_ = PLATFORM_ACCESS_PUBLIC;
    uint64_t flags_ = 0, max_body_ = 0, price_ = 0;
    std::string input_ = R"({"type":"object","properties":{},"additionalProperties":false})";
    std::string output_, since_ = "1.0.0", http_path_, mcp_uri_prefix_, live_input_, resume_arg_;
    platform_mcp_role_t mcp_role_ = PLATFORM_MCP_TOOL;
    SyncFn sync_;
    AsyncFn async_;
};

}  // namespace platform
