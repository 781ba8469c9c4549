// mcp_internal.hpp — private to host/src/mcp: the pieces of the MCP server (mcp.hpp).
//   mcp_server.cpp    the Streamable HTTP transport (checks, sessions, POST/GET/DELETE)
//   mcp_methods.cpp   the JSON-RPC methods
//   mcp_catalog.cpp   tools and role endpoints from the descriptors, tool results
//   mcp_sessions.cpp  session records in the store provider
//   mcp_messages.cpp  JSON-RPC messages, event-stream frames, versions, levels
//   mcp_channel.cpp   one POST's answer (JSON, or SSE once something precedes it) and the
//                     CallClient of a tools/call
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/tool_catalog.hpp>
#include <platform/host/mcp/mcp.hpp>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace platform::host::mcp {

using nlohmann::json;

inline constexpr const char* kLatestVersion = "2025-11-25";
inline constexpr const char* kDefaultVersion = "2025-03-26";  // no MCP-Protocol-Version header
bool supported_version(std::string_view v);
// MCP logging levels, least severe first; -1 for an unknown name.
int log_severity(std::string_view level);

// JSON-RPC error codes.
enum : int {
    kParseError = -32700,
    kInvalidRequest = -32600,
    kMethodNotFound = -32601,
    kInvalidParams = -32602,
    kInternalError = -32603,
    kResourceNotFound = -32002,
    kRequestCancelled = -32800
};
json error_message(const json& id, int code, const std::string& message);
// An HTTP answer carrying a JSON-RPC error (id null) for transport-level refusals.
// `id` is echoed when the offending message carried a readable one (JSON-RPC 2.0 §5).
HttpResponse http_error(int status, int code, const std::string& message, const json& id = nullptr);
json result_message(const json& id, json result);
// {"id":…,"jsonrpc":"2.0","result":<result_text>} with `result_text` spliced in as it is.
std::string result_message_text(const json& id, std::string_view result_text);
std::string sse_frame(const json& message);
std::string sse_frame_text(std::string_view message_text);

// ---- sessions (mcp_sessions.cpp) ----------------------------------------------------------------

struct Session {
    std::string id;
    std::string version;  // negotiated protocol version
    std::string account;  // who created it; "" = anonymous
    json client_info = json::object();
    json client_capabilities = json::object();
    std::string log_level = "info";
    std::vector<std::string> subscriptions;
    int64_t touched_ms = 0;  // business time of the last write
};

class SessionStore {
public:
    SessionStore(Runtime& runtime, int64_t idle_ms);
    // A live session; its expiry moves forward when a quarter of the idle time went by unused.
    std::optional<Session> get(const std::string& id);
    bool put(Session& s);  // (re)writes it, expiring idle_ms from now
    void erase(const std::string& id);
    std::string new_id() const;

private:
    Runtime& runtime_;
    int64_t idle_ms_;
    std::mutex m_;                               // guards memory_ (no store provider)
    std::map<std::string, std::string> memory_;  // id -> record JSON with "expires"
};

// ---- tools and role endpoints (mcp_catalog.cpp)
// ----------------------------------------------------

// The tools are the runtime's ToolCatalog (tool_catalog.hpp), shared with call_tools.
using ToolRef = Tool;

class Catalog {
public:
    explicit Catalog(Runtime& runtime);
    // The runtime's catalogue, rebuilt after a registry change.
    std::shared_ptr<const std::vector<ToolRef>> tools();
    const ToolRef* find(const std::vector<ToolRef>& tools, std::string_view name) const;
    // In-process endpoints with an MCP role, in service order.
    std::vector<std::pair<const ServiceEntry*, const Endpoint*>> with_role(
        platform_mcp_role_t role);

private:
    Runtime& runtime_;
};

// The tools/call result of an outcome: content + structuredContent (the /api/v1 `data`), or an
// isError result carrying the message.
json tool_result(const Endpoint& ep, const Outcome& o);
// The same result as JSON text, made without parsing the plugin's answer: for a successful
// answer that is JSON (checked by validation::json_valid, as /api/v1 checks it), its text is
// spliced in as it is — escaped as the content's text, and as structuredContent (inside
// {"data": …} when it is not an object). nullopt for every other outcome (errors, bytes, an
// endpoint whose answer is MCP content itself): tool_result makes those.
std::optional<std::string> tool_result_text(const Endpoint& ep, const Outcome& o);

// ---- one POST's answer and the tools/call client (mcp_channel.cpp)
// -------------------------------

// Answers one POST: a JSON body, or — once a notification or server request must go first and
// the client accepts it — an event stream that ends with the response. Thread-safe.
class Channel {
public:
    Channel(std::function<void(HttpResponse)> reply, OpenStream open, bool accepts_sse,
            bool accepts_json, std::vector<std::pair<std::string, std::string>> headers,
            std::string www_authenticate);
    // Sends a notification or request before the response; false when it cannot go out.
    bool send(const json& message);
    // The response; later calls do nothing.
    void finish(const json& message);
    // The response as JSON text already made (result_message_text).
    void finish_text(std::string message_text);
    // Ends without a response (a cancelled request): an open stream closes, else 202.
    void drop();
    // 401 with WWW-Authenticate (an error message instead when a stream already started).
    void unauthorized(const std::string& message);

private:
    std::mutex m_;
    std::function<void(HttpResponse)> reply_;
    OpenStream open_;
    bool sse_ok_, json_ok_;
    std::vector<std::pair<std::string, std::string>> headers_;
    std::string www_authenticate_;
    std::shared_ptr<HttpStream> stream_;
    bool done_ = false;
};

struct Live;  // below

class ToolCallClient : public CallClient, public std::enable_shared_from_this<ToolCallClient> {
public:
    ToolCallClient(std::shared_ptr<Live> live, std::shared_ptr<Channel> channel,
                   const Session& session, json request_id, json progress_token);
    ~ToolCallClient() override;
    void attached(const std::shared_ptr<Call>& call) override;
    platform_status_t progress(double done, double total, std::string_view message) override;
    platform_status_t log(std::string_view level, std::string_view logger,
                          std::string_view data_json) override;
    platform_status_t request(std::string_view method, std::string_view params_json,
                              int64_t timeout_ms,
                              std::function<void(platform_status_t, std::string)> reply) override;
    // The call is over: forget it and fail the requests still waiting for the client.
    void finished();

private:
    std::shared_ptr<Live> live_;
    std::shared_ptr<Channel> channel_;
    std::string session_, key_;
    json caps_, progress_token_;
    int min_severity_;
    std::mutex m_;
    double last_progress_ = -1;
    std::vector<std::string> pending_;
    bool finished_ = false;
};

// ---- process-local state ----------------------------------------------------------------------

struct Live {
    struct Pending {
        std::function<void(platform_status_t, std::string)> reply;
        TimerQueue::Id timer;  // its timeout, cancelled when the client answers first
    };
    std::mutex m;
    std::map<std::string, std::shared_ptr<HttpStream>> streams;  // session -> its GET stream
    // Frames broadcast to a session whose GET stream is still opening (null in `streams`): the
    // client may have its 200 already and act on it; GET /mcp writes them once the stream is in.
    std::map<std::string, std::vector<std::string>> opening;
    std::map<std::string, std::weak_ptr<Call>> calls;  // session \n request id -> call
    std::map<std::string, Pending> pending;            // session \n server request id
    std::set<std::string> cancelled;                   // calls the client cancelled
    std::atomic<uint64_t> next_request{1};
    Runtime* runtime = nullptr;

    static std::string key(const std::string& session, const json& id) {
        return session + "\n" + id.dump();
    }
    // Takes a waiting server request out (cancelling its timeout); false when nobody waits.
    bool take_pending(const std::string& pending_key, Pending& out);
    // Delivers a client's response to a server request; false when nobody waits for it.
    bool answer(const std::string& session, const json& message);
    // Cancels a session's in-flight request (notifications/cancelled).
    void cancel(const std::string& session, const json& id, const std::string& reason);
};

}  // namespace platform::host::mcp

namespace platform::host {

struct McpServer::Impl {
    using json = nlohmann::json;
    Impl(Runtime& runtime, std::string version);
    ~Impl();

    Runtime& runtime;
    std::string version;
    mcp::SessionStore sessions;
    mcp::Catalog catalog;
    std::shared_ptr<mcp::Live> live = std::make_shared<mcp::Live>();
    std::vector<std::string> allowed_hosts;  // lower case; "*" = any
    std::mutex stop_m;
    std::condition_variable stop_cv;
    bool stopping = false;
    std::thread heartbeat;

    // One JSON-RPC request of a session (mcp_methods.cpp). `done` gets the response message.
    struct Context {
        mcp::Session session;
        Identity who;
        std::string credential;
        std::map<std::string, std::string> headers;
        std::shared_ptr<mcp::Channel> channel;
    };
    void request(std::shared_ptr<Context> ctx, const json& message, std::function<void(json)> done);
    json initialize_result(const json& params, std::string& version) const;
    // Writes `message` to the GET stream of every session `wanted` accepts.
    void broadcast(const json& message, const std::function<bool(const mcp::Session&)>& wanted);
    // Pushes notifications/resources/updated to subscribed sessions' GET streams.
    void resource_updated(const std::string& uri, const std::string& account);
    // Pushes notifications/tools/list_changed to every session's GET stream.
    void tools_changed();
    // Runs `ep` for the context's caller with `args` (the HTTP dispatcher).
    void call(const Context& ctx, const ServiceEntry& svc, const Endpoint& ep, json args,
              std::shared_ptr<CallClient> client, std::function<void(Outcome)> done);
};

}  // namespace platform::host
