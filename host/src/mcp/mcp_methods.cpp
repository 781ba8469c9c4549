// The JSON-RPC methods of a session (mcp.hpp lists them). Tools and role endpoints run through
// the HTTP dispatcher as the session's caller.
#include <algorithm>
#include <platform/host/core/status.hpp>

#include "mcp_internal.hpp"

namespace platform::host {

using namespace mcp;
using Context = McpServer::Impl::Context;

namespace {
constexpr size_t kPageSize = 100;
constexpr size_t kMaxSubscriptions = 1000;
using Endpoints = std::vector<std::pair<const ServiceEntry*, const Endpoint*>>;

// An opaque cursor is the offset into the merged, ordered list; nullopt when malformed.
std::optional<size_t> cursor_of(const json& params) {
    if (!params.contains("cursor") || params["cursor"].is_null()) return 0;
    if (!params["cursor"].is_string()) return std::nullopt;
    const std::string c = params["cursor"].get<std::string>();
    if (c.size() < 2 || c.rfind("o", 0) != 0 || c.size() > 12 ||
        !std::all_of(c.begin() + 1, c.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        return std::nullopt;
    return std::stoull(c.substr(1));
}

json page(const json& items, size_t offset, const char* field) {
    json out = {{field, json::array()}};
    for (size_t i = offset; i < items.size() && i < offset + kPageSize; ++i)
        out[field].push_back(items[i]);
    if (offset + kPageSize < items.size())
        out["nextCursor"] = "o" + std::to_string(offset + kPageSize);
    return out;
}

json bad_params(const json& id, const std::string& message) {
    return error_message(id, kInvalidParams, message);
}

// A failed role call as a JSON-RPC error.
json role_error(const json& id, const Outcome& o) {
    const int code = o.code == PLATFORM_INVALID_ARGUMENT ? kInvalidParams : kInternalError;
    return error_message(id, code, std::string(status_info(o.code).name) + ": " + o.body);
}
}  // namespace

void McpServer::Impl::call(const Context& ctx, const ServiceEntry& svc, const Endpoint& ep,
                           json args, std::shared_ptr<CallClient> client,
                           std::function<void(Outcome)> done) {
    Invocation inv;
    inv.service = &svc;
    inv.endpoint = &ep;
    inv.args = std::move(args);
    inv.credential = ctx.credential;
    inv.http_method = "POST";
    auto ns = ctx.headers.find("platform-namespace");
    if (ns != ctx.headers.end()) inv.ns = ns->second;
    auto rid = ctx.headers.find("x-request-id");
    if (rid != ctx.headers.end()) inv.request_id = rid->second;
    inv.headers = ctx.headers;
    inv.client = std::move(client);
    runtime.dispatch_as(ctx.who, std::move(inv), std::move(done));
}

namespace {
// Calls every endpoint of a listing role and concatenates their `field` arrays, in order; an
// endpoint the caller may not use contributes nothing.
void gather(McpServer::Impl& self, std::shared_ptr<Context> ctx, Endpoints eps, const char* field,
            std::function<void(json)> done) {
    if (eps.empty()) return done(json::array());
    struct State {
        std::mutex m;
        size_t left;
        std::vector<json> parts;
    };
    auto st = std::make_shared<State>();
    st->left = eps.size();
    st->parts.resize(eps.size(), json::array());
    for (size_t i = 0; i < eps.size(); ++i) {
        self.call(*ctx, *eps[i].first, *eps[i].second, json::object(), nullptr,
                  [st, i, field, done, n = eps.size()](Outcome o) {
                      json part =
                          o.code == PLATFORM_OK ? json::parse(o.body, nullptr, false) : json();
                      std::unique_lock<std::mutex> g(st->m);
                      if (part.is_object() && part.contains(field) && part[field].is_array())
                          st->parts[i] = part[field];
                      if (--st->left) return;
                      g.unlock();
                      json all = json::array();
                      for (auto& p : st->parts)
                          for (auto& item : p) all.push_back(std::move(item));
                      done(std::move(all));
                  });
    }
}

// Asks the endpoints in turn until one answers something other than NOT_FOUND. An endpoint the
// caller may not use (401, 403: another plugin's prompts for accounts only) is passed over; its
// refusal is the answer only when no later endpoint answers.
void first_answer(McpServer::Impl& self, std::shared_ptr<Context> ctx,
                  std::shared_ptr<Endpoints> eps, size_t i, json args,
                  std::function<void(std::optional<Outcome>)> done,
                  std::optional<Outcome> refused = std::nullopt) {
    if (i >= eps->size()) return done(std::move(refused));
    const auto [svc, ep] = (*eps)[i];
    self.call(*ctx, *svc, *ep, args, nullptr, [&self, ctx, eps, i, args, done, refused](Outcome o) {
        if (o.code == PLATFORM_NOT_FOUND)
            return first_answer(self, ctx, eps, i + 1, args, done, refused);
        if (o.code == PLATFORM_UNAUTHENTICATED || o.code == PLATFORM_PERMISSION_DENIED)
            return first_answer(self, ctx, eps, i + 1, args, done,
                                refused ? refused : std::optional<Outcome>(o));
        done(std::move(o));
    });
}
}  // namespace

json McpServer::Impl::initialize_result(const json& params, std::string& negotiated) const {
    std::string asked = params.contains("protocolVersion") && params["protocolVersion"].is_string()
                            ? params["protocolVersion"].get<std::string>()
                            : "";
    negotiated = supported_version(asked) ? asked : kLatestVersion;
    return {{"protocolVersion", negotiated},
            {"capabilities",
             {{"tools", {{"listChanged", true}}},
              {"resources", {{"subscribe", true}, {"listChanged", false}}},
              {"prompts", {{"listChanged", false}}},
              {"logging", json::object()},
              {"completions", json::object()}}},
            {"serverInfo", {{"name", "platform"}, {"title", "Platform"}, {"version", version}}},
            {"instructions",
             "Every catalogue method of this Platform host is a tool named <service>_<method>; "
             "its answer is the same as POST /api/v1/<service>/<method>."}};
}

void McpServer::Impl::request(std::shared_ptr<Context> ctx, const json& msg,
                              std::function<void(json)> done) {
    const json id = msg["id"];
    const std::string method = msg["method"].get<std::string>();
    json params = msg.contains("params") ? msg["params"] : json::object();
    if (!params.is_object()) return done(bad_params(id, "params: must be an object"));
    auto string_param = [&](const char* name) -> std::optional<std::string> {
        if (!params.contains(name) || !params[name].is_string()) return std::nullopt;
        return params[name].get<std::string>();
    };

    if (method == "ping") return done(result_message(id, json::object()));
    if (method == "initialize")
        return done(error_message(id, kInvalidRequest,
                                  "this session is initialized already; send initialize without "
                                  "Mcp-Session-Id to start another"));

    if (method == "tools/list") {
        auto offset = cursor_of(params);
        if (!offset) return done(bad_params(id, "cursor: not a cursor this server gave"));
        auto tools = catalog.tools();
        json visible = json::array();
        const std::string ns =
            ctx->headers.count("platform-namespace") ? ctx->headers.at("platform-namespace") : "";
        for (const ToolRef* t : tools_for(runtime.admission(), *tools, ctx->who, ns))
            visible.push_back(t->definition);
        return done(result_message(id, page(visible, *offset, "tools")));
    }

    if (method == "tools/call") {
        auto name = string_param("name");
        if (!name) return done(bad_params(id, "name: required, a tool name from tools/list"));
        auto tools = catalog.tools();
        const ToolRef* tool = catalog.find(*tools, *name);
        if (!tool) return done(bad_params(id, "Unknown tool: " + *name));
        json args = params.contains("arguments") && !params["arguments"].is_null()
                        ? params["arguments"]
                        : json::object();
        const Endpoint& ep = *tool->endpoint;
        if (!args.is_object())
            return done(result_message(
                id, tool_result(
                        ep, Outcome{PLATFORM_INVALID_ARGUMENT, "arguments: must be an object"})));
        json token;
        if (params.contains("_meta") && params["_meta"].is_object() &&
            params["_meta"].contains("progressToken"))
            token = params["_meta"]["progressToken"];
        if (!token.is_null() && !token.is_string() && !token.is_number_integer())
            return done(bad_params(id, "_meta.progressToken: must be a string or an integer"));
        auto client = std::make_shared<ToolCallClient>(live, ctx->channel, ctx->session, id, token);
        auto live_state = live;
        const std::string key = Live::key(ctx->session.id, id);
        return call(*ctx, *tool->service, ep, std::move(args), client,
                    [client, live_state, key, ctx, id, done, &ep](Outcome o) {
                        client->finished();
                        bool cancelled;
                        {
                            std::lock_guard<std::mutex> g(live_state->m);
                            cancelled = live_state->cancelled.erase(key) > 0;
                        }
                        if (cancelled) return ctx->channel->drop();
                        if (o.code == PLATFORM_UNAUTHENTICATED)
                            return ctx->channel->unauthorized(o.body);
                        if (auto text = tool_result_text(ep, o))
                            return ctx->channel->finish_text(result_message_text(id, *text));
                        done(result_message(id, tool_result(ep, o)));
                    });
    }

    if (method == "logging/setLevel") {
        auto level = string_param("level");
        if (!level || log_severity(*level) < 0)
            return done(bad_params(
                id,
                "level: one of debug, info, notice, warning, error, critical, alert, emergency"));
        ctx->session.log_level = *level;
        sessions.put(ctx->session);
        return done(result_message(id, json::object()));
    }

    if (method == "resources/list" || method == "resources/templates/list" ||
        method == "prompts/list") {
        auto offset = cursor_of(params);
        if (!offset) return done(bad_params(id, "cursor: not a cursor this server gave"));
        const bool templates = method == "resources/templates/list",
                   prompts = method == "prompts/list";
        const char* field = templates ? "resourceTemplates" : prompts ? "prompts" : "resources";
        auto role = templates ? PLATFORM_MCP_RESOURCE_TEMPLATES
                    : prompts ? PLATFORM_MCP_PROMPTS
                              : PLATFORM_MCP_RESOURCES;
        return gather(*this, ctx, catalog.with_role(role), field,
                      [id, done, field, offset](json all) {
                          done(result_message(id, page(all, *offset, field)));
                      });
    }

    if (method == "resources/read") {
        auto uri = string_param("uri");
        if (!uri || uri->empty()) return done(bad_params(id, "uri: required, a resource URI"));
        auto eps = std::make_shared<Endpoints>();
        for (auto& e : catalog.with_role(PLATFORM_MCP_RESOURCE_READ))
            if (uri->rfind(e.second->mcp_uri_prefix, 0) == 0) eps->push_back(e);
        return first_answer(
            *this, ctx, eps, 0, {{"uri", *uri}},
            [id, done, ctx, uri = *uri](std::optional<Outcome> o) {
                if (!o)
                    return done(error_message(id, kResourceNotFound, "Resource not found: " + uri));
                if (o->code == PLATFORM_UNAUTHENTICATED) return ctx->channel->unauthorized(o->body);
                if (o->code != PLATFORM_OK) return done(role_error(id, *o));
                json r = json::parse(o->body, nullptr, false);
                if (!r.is_object() || !r.contains("contents") || !r["contents"].is_array())
                    return done(error_message(id, kInternalError,
                                              "the resource's plugin answered without contents"));
                done(result_message(id, std::move(r)));
            });
    }

    if (method == "resources/subscribe" || method == "resources/unsubscribe") {
        auto uri = string_param("uri");
        if (!uri || uri->empty()) return done(bad_params(id, "uri: required, a resource URI"));
        auto& subs = ctx->session.subscriptions;
        auto it = std::find(subs.begin(), subs.end(), *uri);
        if (method == "resources/subscribe" && it == subs.end()) {
            if (subs.size() >= kMaxSubscriptions)
                return done(bad_params(id, "uri: a session may watch at most " +
                                               std::to_string(kMaxSubscriptions) + " resources"));
            subs.push_back(*uri);
        } else if (method == "resources/unsubscribe" && it != subs.end()) {
            subs.erase(it);
        }
        sessions.put(ctx->session);
        return done(result_message(id, json::object()));
    }

    if (method == "prompts/get") {
        auto name = string_param("name");
        if (!name) return done(bad_params(id, "name: required, a prompt name from prompts/list"));
        json args = {{"name", *name}};
        if (params.contains("arguments") && !params["arguments"].is_null()) {
            if (!params["arguments"].is_object())
                return done(bad_params(id, "arguments: must be an object of strings"));
            args["arguments"] = params["arguments"];
        }
        auto eps = std::make_shared<Endpoints>(catalog.with_role(PLATFORM_MCP_PROMPT_GET));
        return first_answer(
            *this, ctx, eps, 0, args, [id, done, ctx, name = *name](std::optional<Outcome> o) {
                if (!o) return done(bad_params(id, "Unknown prompt: " + name));
                if (o->code == PLATFORM_UNAUTHENTICATED) return ctx->channel->unauthorized(o->body);
                if (o->code != PLATFORM_OK) return done(role_error(id, *o));
                json r = json::parse(o->body, nullptr, false);
                if (!r.is_object() || !r.contains("messages"))
                    return done(error_message(id, kInternalError,
                                              "the prompt's plugin answered without messages"));
                done(result_message(id, std::move(r)));
            });
    }

    if (method == "completion/complete") {
        if (!params.contains("ref") || !params["ref"].is_object() ||
            !params["ref"].contains("type"))
            return done(bad_params(
                id, "ref: required, {type: ref/prompt, name} or {type: ref/resource, uri}"));
        if (!params.contains("argument") || !params["argument"].is_object())
            return done(bad_params(id, "argument: required, {name, value}"));
        json args = {{"ref", params["ref"]}, {"argument", params["argument"]}};
        if (params.contains("context") && params["context"].is_object())
            args["context"] = params["context"];
        auto eps = std::make_shared<Endpoints>(catalog.with_role(PLATFORM_MCP_COMPLETE));
        return first_answer(*this, ctx, eps, 0, args, [id, done](std::optional<Outcome> o) {
            json r = o && o->code == PLATFORM_OK ? json::parse(o->body, nullptr, false) : json();
            if (!r.is_object() || !r.contains("completion"))  // nothing to suggest
                r = {{"completion", {{"values", json::array()}, {"hasMore", false}}}};
            done(result_message(id, std::move(r)));
        });
    }

    done(error_message(id, kMethodNotFound, "Method not found: " + method));
}

}  // namespace platform::host
