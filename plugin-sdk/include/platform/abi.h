/*
 * platform/abi.h — the whole contract between the Platform host and its plugins.
 *
 * This header is pure C99 (stdint.h, stddef.h, stdbool.h only). It is compiled as C and as C++ in
 * the test suite. No C++ type, exception or RTTI ever crosses this boundary.
 *
 * COMPATIBILITY POLICY
 *   - The ABI version is packed as (major << 16) | minor.
 *   - The host refuses a plugin whose major differs from its own, and a plugin built against a
 *     newer minor than the host speaks (it may call functions the host does not have).
 *   - The host accepts plugins built against an older minor: every table and struct only grows.
 *   - Every struct starts with `uint32_t struct_size`. New fields are appended at the end, never
 *     inserted, removed or retyped. A field is present iff offset + size <= struct_size
 *     (PLATFORM_HAS_FIELD). A reader never reads or writes past the struct_size it was given.
 *   - Arrays a plugin hands the host carry their element stride, so the host walks them with the
 *     plugin's element size, not its own.
 *   - Enumerations are int32_t with explicit values; unknown values read as the documented default
 *     (an unknown status code is PLATFORM_INTERNAL).
 *   - History: 1.0 the initial host table (log .. respond_end); 1.1 added get_service and the
 *     privileged "registry" and "clock" sub-tables; 1.2 added call_service, http_fetch, the events
 *     functions and provider table, registry write/watch (sub-table version 2), the "network"
 *     sub-table, the privileged "store" and "secrets" sub-tables, platform_store_provider_t.tables
 *     and platform_endpoint_t.http_path; 1.3 added compare-and-set and atomic batches to the store:
 *     PLATFORM_STORE_CAS/TRANSACTIONS, platform_store_op_t, platform_store_provider_t.cas/batch,
 *     host_api.store_cas/store_batch and the "store" sub-table's cas/batch (version 2), and
 *     platform_auth_provider_t.rules_version/rules; 1.4 added MCP: platform_endpoint_t.mcp_role
 *     and mcp_uri_prefix, PLATFORM_FLAG_MCP_CONTENT, and host_api.call_progress, call_log,
 *     call_client_request and resource_updated; 1.5 added the model provider table
 *     (platform_model_provider_t, PLATFORM_KIND_MODEL) and host_api.model_complete and
 *     call_tools; 1.6 added PLATFORM_FLAG_INTERNAL and grants (host_api.grant_create,
 *     grant_call_service, grant_revoke); 1.7 added PLATFORM_LOG_OPERATOR; 1.8 added
 *     platform_endpoint_t.live_input and resume_arg; 1.9 added host_api.respond_raw_headers.
 *   - Any change to this file bumps PLATFORM_ABI_MINOR in the same commit. A breaking change would
 *     need a new major and a new entry symbol; none is planned.
 *
 * NAMING
 *   - Types are platform_*_t; host callbacks live in platform_host_api_t and its sub-tables;
 *     plugin hooks are the on_* members of platform_plugin_desc_t.
 *
 * MEMORY AND LIFETIME
 *   - Strings are platform_str_t views: UTF-8 (or raw bytes where noted), not NUL-terminated,
 *     borrowed for the duration of the call that passes them. Copy what you keep.
 *   - No allocation crosses the boundary. Data flows host -> plugin through views and sink
 *     callbacks (the host calls the sink during the call; the view dies when the sink returns).
 *     Data flows plugin -> host through host functions that copy at once (respond, store_put...).
 *
 * THREADS
 *   - The host loads plugins and calls the entry, on_create and on_start from one thread at start-up.
 *   - on_call may run concurrently on several host worker threads, never on the HTTP I/O threads.
 *   - Host-table functions are thread-safe unless stated otherwise.
 */
#ifndef PLATFORM_ABI_H
#define PLATFORM_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Versions
 * ------------------------------------------------------------------------------------------- */

#define PLATFORM_ABI_MAJOR 1u
#define PLATFORM_ABI_MINOR 9u
#define PLATFORM_ABI_PACK(major, minor) ((((uint32_t)(major)) << 16) | ((uint32_t)(minor)&0xffffu))
#define PLATFORM_ABI_VERSION PLATFORM_ABI_PACK(PLATFORM_ABI_MAJOR, PLATFORM_ABI_MINOR)
#define PLATFORM_ABI_MAJOR_OF(v) (((uint32_t)(v)) >> 16)
#define PLATFORM_ABI_MINOR_OF(v) (((uint32_t)(v)) & 0xffffu)

/* The one symbol a plugin exports (see platform_plugin_entry_fn). */
#define PLATFORM_ENTRY_SYMBOL "platform_plugin_entry"

/* True when `field` lies within the struct_size the other side gave for *ptr. */
#define PLATFORM_HAS_FIELD(type, ptr, field) \
    (offsetof(type, field) + sizeof(((type*)0)->field) <= (size_t)(ptr)->struct_size)

/* ---------------------------------------------------------------------------------------------
 * Basic types
 * ------------------------------------------------------------------------------------------- */

/* A borrowed byte range. ptr may be NULL only when len is 0. */
typedef struct platform_str {
    const char* ptr;
    size_t len;
} platform_str_t;

/*
 * Status codes. Append-only. The host maps each code once, everywhere:
 *
 *   code                 HTTP  /api/v1 error.code   CLI exit
 *   OK                    200  -                    0
 *   INVALID_ARGUMENT      400  invalid_argument     1
 *   UNAUTHENTICATED       401  unauthenticated      3
 *   PAYMENT_REQUIRED      402  payment_required     6
 *   PERMISSION_DENIED     403  permission_denied    3
 *   NOT_FOUND             404  not_found            5
 *   METHOD_NOT_ALLOWED    405  method_not_allowed   1
 *   TIMEOUT               408  timeout              1   (the handler's own timeout)
 *   CONFLICT              409  conflict             1
 *   PAYLOAD_TOO_LARGE     413  payload_too_large    1
 *   RATE_LIMITED          429  rate_limited         1
 *   INTERNAL              500  internal             1   (and any unknown code)
 *   UNSUPPORTED           501  unsupported          1
 *   BAD_GATEWAY           502  bad_gateway          1   (an upstream failed or answered nonsense)
 *   UNAVAILABLE           503  unavailable          1   (not configured, provider down)
 *   DEADLINE_EXCEEDED     504  deadline_exceeded    1   (the host's deadline on a plugin call)
 */
typedef int32_t platform_status_t;
enum {
    PLATFORM_OK = 0,
    PLATFORM_INVALID_ARGUMENT = 1,
    PLATFORM_UNAUTHENTICATED = 2,
    PLATFORM_PAYMENT_REQUIRED = 3,
    PLATFORM_PERMISSION_DENIED = 4,
    PLATFORM_NOT_FOUND = 5,
    PLATFORM_METHOD_NOT_ALLOWED = 6,
    PLATFORM_TIMEOUT = 7,
    PLATFORM_CONFLICT = 8,
    PLATFORM_PAYLOAD_TOO_LARGE = 9,
    PLATFORM_RATE_LIMITED = 10,
    PLATFORM_INTERNAL = 11,
    PLATFORM_UNSUPPORTED = 12,
    PLATFORM_BAD_GATEWAY = 13,
    PLATFORM_UNAVAILABLE = 14,
    PLATFORM_DEADLINE_EXCEEDED = 15
};

/* What a plugin is. Unknown kinds are refused at load. */
typedef int32_t platform_kind_t;
enum {
    PLATFORM_KIND_SERVICE = 1, /* serves endpoints */
    PLATFORM_KIND_STORE = 2,   /* provider: platform_store_provider_t */
    PLATFORM_KIND_BROKER = 3,  /* provider: platform_broker_provider_t */
    PLATFORM_KIND_EVENTS = 4,  /* provider: platform_events_provider_t (1.2) */
    PLATFORM_KIND_AUTH = 5,    /* provider: platform_auth_provider_t */
    PLATFORM_KIND_MODEL = 6    /* provider: platform_model_provider_t (1.5) */
};

typedef int32_t platform_log_level_t;
enum {
    PLATFORM_LOG_DEBUG = 0,
    PLATFORM_LOG_INFO = 1,
    PLATFORM_LOG_WARN = 2,
    PLATFORM_LOG_ERROR = 3,
    /* (1.7) A message for the person who started the server, such as a secret generated at first
     * start. The host prints it once on stderr, in a box, after its `listening` line (at once when
     * it is already listening), and writes it to no log: not the log output, not `platform logs`.
     * The host keeps no copy. Lines are separated by '\n'. */
    PLATFORM_LOG_OPERATOR = 4
};

/* Opaque handles. The host owns both. */
typedef struct platform_host_ctx platform_host_ctx_t; /* one per loaded plugin */
typedef struct platform_call platform_call_t;         /* one per in-flight endpoint call */

/* Receives bytes the host lends for the duration of the callback. */
typedef void (*platform_bytes_sink_fn)(void* user, platform_str_t bytes);

/* Receives one store record; return false to stop the scan early. */
typedef bool (*platform_record_sink_fn)(void* user, platform_str_t key, platform_str_t value);

/* Receives one broker message, on a host thread. headers_json is a JSON object of strings. */
typedef void (*platform_message_fn)(void* user, platform_str_t topic, platform_str_t body,
                                    platform_str_t headers_json);

/* Receives the answer of a call made with call_service: the JSON result when code is OK, else the
 * error message. Runs once, on a host thread. (1.2) */
typedef void (*platform_reply_fn)(void* user, platform_status_t code, platform_str_t body);

/* ---------------------------------------------------------------------------------------------
 * Events (1.2): an ordered, persistent stream per topic, kept by the profile's events provider.
 * ------------------------------------------------------------------------------------------- */

typedef struct platform_event {
    uint32_t struct_size;
    platform_str_t id; /* unique; the host fills it on publish when empty */
    platform_str_t topic;
    uint64_t offset;              /* position in its topic, from 1; ignored on publish */
    int64_t timestamp_ms;         /* business time; 0 on publish means now */
    platform_str_t metadata_json; /* JSON object of strings; empty = {} */
    platform_str_t payload;       /* bytes; decoding is the consumer's job */
} platform_event_t;

/* Receives one event lent for the call; return false to stop. */
typedef bool (*platform_event_sink_fn)(void* user, const platform_event_t* event);

/* ---------------------------------------------------------------------------------------------
 * Outbound HTTP (1.2): through the host's client, never a plugin's own socket.
 * ------------------------------------------------------------------------------------------- */

/* The URL is an operator-configured upstream: checked against the operator allow-list instead of
 * the SSRF guard (which refuses loopback, private, link-local, metadata... targets). */
#define PLATFORM_HTTP_OPERATOR_URL (1u << 0)
/* Do not follow redirects (by default up to 5, each re-checked by the guard). */
#define PLATFORM_HTTP_NO_REDIRECTS (1u << 1)

typedef struct platform_http_request {
    uint32_t struct_size;
    platform_str_t method; /* "GET" when empty */
    platform_str_t url;    /* absolute http(s) URL; with `provider`, a path under its base URL */
    platform_str_t headers_json; /* JSON object of strings; empty = none */
    platform_str_t body;
    /* A provider name: the URL is joined to config providers.<name>.base_url, and the request
     * fails with UNAVAILABLE naming providers.<name>.api_key when that key is required and unset.
     * Empty = none. */
    platform_str_t provider;
    int32_t timeout_ms;          /* 0 = 30000 */
    uint64_t max_response_bytes; /* 0 = 10 MiB; larger bodies fail with PAYLOAD_TOO_LARGE */
    uint32_t flags;              /* PLATFORM_HTTP_* */
} platform_http_request_t;

typedef struct platform_http_response {
    uint32_t struct_size;
    int32_t status;              /* HTTP status, or 0 when no response arrived (see error) */
    platform_str_t headers_json; /* JSON object, lower-case names */
    platform_str_t body;
    platform_str_t error;     /* why the request failed or was refused; empty on success */
    platform_str_t final_url; /* after redirects */
} platform_http_response_t;

typedef void (*platform_http_response_fn)(void* user, const platform_http_response_t* response);

/* ---------------------------------------------------------------------------------------------
 * Endpoint descriptors (plugin -> host). Static data owned by the plugin, alive while loaded.
 * One description drives validation, HTTP routes, 405/401/403, the registry listing, MCP tools,
 * CLI flags and help, and the OpenAPI document. Never describe an endpoint twice.
 * ------------------------------------------------------------------------------------------- */

typedef int32_t platform_verb_t;
enum {
    PLATFORM_VERB_GET = 1, /* reads; arguments in the query string or a JSON body */
    PLATFORM_VERB_POST = 2 /* changes data or searches privately; JSON body only (GET -> 405) */
};

typedef int32_t platform_access_t;
enum {
    PLATFORM_ACCESS_PUBLIC = 0,  /* anyone, credentials optional */
    PLATFORM_ACCESS_ACCOUNT = 1, /* any identified account (else 401) */
    PLATFORM_ACCESS_OWNER = 2,   /* an identified account acting on its own data (else 401) */
    PLATFORM_ACCESS_ADMIN = 3    /* an account with the `admin` scope (401 anonymous, 403 others) */
};

/* Endpoint flags (bit set). */
#define PLATFORM_FLAG_READ_ONLY (1ull << 0)
#define PLATFORM_FLAG_DESTRUCTIVE (1ull << 1)
#define PLATFORM_FLAG_WITHHELD_FROM_AGENT (1ull << 2)
#define PLATFORM_FLAG_IDEMPOTENT (1ull << 3)
#define PLATFORM_FLAG_METERED (1ull << 4)    /* price in platform_endpoint_t.price */
#define PLATFORM_FLAG_ACTION (1ull << 5)     /* needs the "Allow actions" capability */
#define PLATFORM_FLAG_STREAMING (1ull << 6)  /* replies with respond_chunk/respond_end */
#define PLATFORM_FLAG_OPEN_WORLD (1ull << 7) /* reaches the outside world */
/* (1.4) The result is an MCP CallToolResult ({"content": [...], "isError"?, "structuredContent"?})
 * and MCP's tools/call returns it as it is (text, image, audio, resource content) instead of
 * wrapping the JSON result; HTTP callers still get it as the JSON result. */
#define PLATFORM_FLAG_MCP_CONTENT (1ull << 8)
/* (1.6) For other plugins only: reachable through call_service and grant_call_service, never
 * from outside. The gateway, /rpc and MCP answer NOT_FOUND as for a method that does not exist,
 * and the endpoint is left out of every listing (registry, MCP tools, OpenAPI, CLI, call_tools).
 * Access level, token restrictions and payment apply to the caller a call acts for as usual. */
#define PLATFORM_FLAG_INTERNAL (1ull << 9)

/*
 * (1.4) What an endpoint is to MCP (platform_endpoint_t.mcp_role). A tool is listed by tools/list
 * and run by tools/call. The other roles answer one MCP request for the plugin's part of it; the
 * host merges the answers of every plugin (lists) or asks them in turn until one does not answer
 * NOT_FOUND (reads, gets, completions). They are called through the same dispatcher as tools (the
 * caller's identity, the endpoint's access level and owner scoping apply) and are not tools. Over
 * HTTP they stay ordinary endpoints. Arguments and results are MCP's own shapes:
 *   RESOURCES           {} -> {"resources": [Resource...]}
 *   RESOURCE_TEMPLATES  {} -> {"resourceTemplates": [ResourceTemplate...]}
 *   RESOURCE_READ       {"uri"} -> {"contents": [...]}; NOT_FOUND when the uri is not its
 *                       (asked only for URIs starting with mcp_uri_prefix, when one is set)
 *   PROMPTS             {} -> {"prompts": [Prompt...]}
 *   PROMPT_GET          {"name", "arguments"?} -> {"description"?, "messages": [...]}; NOT_FOUND
 *                       when the prompt is not its
 *   COMPLETE            {"ref", "argument", "context"?} -> {"completion": {"values", ...}};
 *                       NOT_FOUND when the reference is not its
 *   HIDDEN              not exposed over MCP at all
 */
typedef int32_t platform_mcp_role_t;
enum {
    PLATFORM_MCP_TOOL = 0,
    PLATFORM_MCP_RESOURCES = 1,
    PLATFORM_MCP_RESOURCE_TEMPLATES = 2,
    PLATFORM_MCP_RESOURCE_READ = 3,
    PLATFORM_MCP_PROMPTS = 4,
    PLATFORM_MCP_PROMPT_GET = 5,
    PLATFORM_MCP_COMPLETE = 6,
    PLATFORM_MCP_HIDDEN = 7
};

/* Body limit used when max_body_bytes is 0. */
#define PLATFORM_DEFAULT_MAX_BODY (1024u * 1024u)

typedef struct platform_endpoint {
    uint32_t struct_size;
    /* Method name as written in paths: "add", "mark_read", "listServices". The canonical RPC name
     * is Service.Method with each `_`/`-` separated word capitalised ("Inbox.MarkRead"). */
    platform_str_t name;
    platform_str_t title;       /* short human title */
    platform_str_t description; /* what it does, limits, notes */
    platform_verb_t verb;
    platform_access_t access;
    uint64_t flags;               /* PLATFORM_FLAG_* */
    platform_str_t input_schema;  /* JSON Schema (draft 2020-12 subset), root type "object" */
    platform_str_t output_schema; /* JSON Schema of the result, or empty */
    uint64_t max_body_bytes;      /* 0 = PLATFORM_DEFAULT_MAX_BODY */
    uint64_t price;               /* credits per call when METERED */
    platform_str_t since;         /* plugin version that added it, e.g. "1.0.0" */
    /* (1.2) Optional HTTP route template, e.g. "/notes/{title}": the gateway also serves the
     * endpoint there with the verb above, binding {name} segments to arguments. */
    platform_str_t http_path;
    /* (1.4) PLATFORM_MCP_* (unknown values read as HIDDEN), and for RESOURCE_READ the URI prefix
     * it serves ("notes://"; empty = asked for every URI). */
    platform_mcp_role_t mcp_role;
    platform_str_t mcp_uri_prefix;
    /* (1.8) Live streams, for a STREAMING endpoint served over a WebSocket; empty = none.
     * live_input: the name of a sibling endpoint of the same service. Each text message the client
     * sends (a JSON object) is merged over the stream's own arguments (resume_arg left out) and
     * called as that endpoint for the same caller; the answer goes back on the socket as {"reply": result} or
     * {"error": {code, message}}.
     * resume_arg: an argument of this endpoint. When a stream ends normally while its client is
     * still connected, the host calls the endpoint again with that argument set to the `cursor`
     * field of the last chunk it forwarded; Server-Sent Events carry that cursor as the event id
     * and a reconnecting client's Last-Event-ID becomes the argument. */
    platform_str_t live_input;
    platform_str_t resume_arg;
} platform_endpoint_t;

/* ---------------------------------------------------------------------------------------------
 * Calls
 * ------------------------------------------------------------------------------------------- */

/* Facts about a call, filled by host_api.call_info up to out->struct_size. Views stay valid until
 * the call is answered (respond/respond_raw/respond_end) or cancelled. */
typedef struct platform_call_info {
    uint32_t struct_size;
    platform_str_t service;    /* full service name, e.g. "go.core.api.v1.notes" */
    platform_str_t endpoint;   /* canonical name, e.g. "Notes.Add" */
    platform_str_t account;    /* caller's account id; empty when anonymous */
    platform_str_t scopes;     /* caller's scopes, comma-separated */
    platform_str_t request_id; /* X-Request-Id of the HTTP request, or a generated id */
    int64_t deadline_ms;       /* monotonic milliseconds after which the host answers 504 */
} platform_call_info_t;

/* ---------------------------------------------------------------------------------------------
 * Store scans
 * ------------------------------------------------------------------------------------------- */

typedef int32_t platform_order_t;
enum { PLATFORM_ORDER_ASC = 0, PLATFORM_ORDER_DESC = 1 };

typedef struct platform_scan {
    uint32_t struct_size;
    platform_str_t prefix;  /* keys starting with these bytes; empty = all */
    platform_order_t order; /* by key, bytewise */
    uint32_t limit;         /* 0 = no limit */
    uint32_t offset;        /* records skipped first */
} platform_scan_t;

/* ---------------------------------------------------------------------------------------------
 * Store batches (1.3): writes applied together, all or none.
 * ------------------------------------------------------------------------------------------- */

/* What one write of a batch does. Unknown kinds refuse the whole batch (INVALID_ARGUMENT). */
enum {
    PLATFORM_STORE_OP_PUT = 1, /* sets key to value (with expires_at_ms) */
    PLATFORM_STORE_OP_DEL = 2  /* removes key; a key that is absent (or expired) is not an error */
};

/* One write of a batch. Arrays of them are walked with the op_stride the caller gives; each
 * element's struct_size says which fields it has (absent ones read as zero/empty). The views
 * are borrowed for the call that passes the array. */
typedef struct platform_store_op {
    uint32_t struct_size;
    uint32_t kind;        /* PLATFORM_STORE_OP_* */
    platform_str_t key;   /* bytes, as for store_put */
    platform_str_t value; /* PUT: the new value (empty is a value); DEL: ignored */
    /* PUT: absolute business time (Unix ms, see clock_now_ms) after which the record is
     * invisible; 0 = never. Absolute, not a TTL, in the host table and the provider table alike.
     * DEL: ignored. */
    int64_t expires_at_ms;
} platform_store_op_t;

/* ---------------------------------------------------------------------------------------------
 * Host services table (host -> plugin). Append-only; grouped by the minor that added each entry.
 * `ctx` is the handle given to on_create; it identifies the plugin (its store table, its
 * subscriptions, its log name). All functions are thread-safe.
 * ------------------------------------------------------------------------------------------- */

typedef struct platform_host_api {
    uint32_t struct_size;
    uint32_t abi_version; /* the version the host speaks */

    /* ---- 1.0 ---- */

    /* Writes one log line attributed to the plugin. */
    void (*log)(platform_host_ctx_t* ctx, platform_log_level_t level, platform_str_t message);

    /* Lends the plugin's configuration (from the profile) at a dotted path ("" = all) as JSON.
     * NOT_FOUND when absent. Paths under "platform." are the host's, the same for every plugin
     * (since 1.7; a plugin's own config cannot shadow them):
     *   platform.namespace   the namespace services are registered under ("go.core.api") */
    platform_status_t (*config_get)(platform_host_ctx_t* ctx, platform_str_t path,
                                    platform_bytes_sink_fn sink, void* user);

    /* Key-value store, one table per plugin service, backed by the profile's store provider.
     * Keys are bytes ordered bytewise. Expired records are invisible. */
    platform_status_t (*store_get)(platform_host_ctx_t* ctx, platform_str_t key,
                                   platform_bytes_sink_fn sink, void* user); /* NOT_FOUND */
    platform_status_t (*store_put)(platform_host_ctx_t* ctx, platform_str_t key,
                                   platform_str_t value, int64_t ttl_ms); /* ttl 0 = forever */
    platform_status_t (*store_delete)(platform_host_ctx_t* ctx, platform_str_t key); /* NOT_FOUND */
    platform_status_t (*store_scan)(platform_host_ctx_t* ctx, const platform_scan_t* scan,
                                    platform_record_sink_fn sink, void* user);

    /* Broker: fire-and-forget pub/sub through the profile's broker provider. `queue` non-empty
     * makes a queue group (one member receives each message). The callback runs on a host thread
     * until broker_unsubscribe returns. */
    platform_status_t (*broker_publish)(platform_host_ctx_t* ctx, platform_str_t topic,
                                        platform_str_t body, platform_str_t headers_json);
    platform_status_t (*broker_subscribe)(platform_host_ctx_t* ctx, platform_str_t topic,
                                          platform_str_t queue, platform_message_fn fn, void* user,
                                          uint64_t* out_subscription);
    platform_status_t (*broker_unsubscribe)(platform_host_ctx_t* ctx, uint64_t subscription);

    /* Business time in Unix milliseconds (the profile's clock: real or manual). */
    int64_t (*clock_now_ms)(platform_host_ctx_t* ctx);

    /* Fills *out (up to out->struct_size) with facts about the call. */
    void (*call_info)(platform_call_t* call, platform_call_info_t* out);

    /* A request header (case-insensitive name) of the call; empty view when absent. Valid until
     * the call is answered. */
    platform_str_t (*call_header)(platform_call_t* call, platform_str_t name);

    /* Answers a call, exactly once, from any thread. code OK: body is the JSON result.
     * Any other code: body is a human message naming the argument and the rule. The host copies
     * body. Call handles are ids, never pointers: answering a call that was already answered, timed
     * out or cancelled is always safe and returns INVALID_ARGUMENT. */
    platform_status_t (*respond)(platform_call_t* call, platform_status_t code,
                                 platform_str_t body);

    /* Answers with raw bytes and a content type (files, images, pages). HTTP 200. */
    platform_status_t (*respond_raw)(platform_call_t* call, platform_str_t content_type,
                                     platform_str_t bytes);

    /* Streams (endpoints flagged STREAMING): any number of chunks, then respond_end (code OK, or an
     * error with a message). Each chunk is one message, normally a JSON value; the HTTP surfaces
     * deliver each at once as a Server-Sent Event (`data: <chunk>`). respond_chunk returns
     * INVALID_ARGUMENT once the call is over: the client went away or the deadline passed (the
     * host then calls on_cancel), so a producer loop should stop on it. */
    platform_status_t (*respond_chunk)(platform_call_t* call, platform_str_t bytes);
    platform_status_t (*respond_end)(platform_call_t* call, platform_status_t code,
                                     platform_str_t message);

    /* ---- 1.1 ---- */

    /* Optional sub-tables by name ("registry", "clock"), or NULL when absent, older than
     * min_version, or privileged and the plugin is not. */
    const void* (*get_service)(platform_host_ctx_t* ctx, platform_str_t name, uint32_t min_version);

    /* ---- 1.2 ---- */

    /* Calls another service's endpoint through the host's dispatcher: the same validation, access
     * checks and deadline as an HTTP call. `parent` is the call being handled (its caller becomes
     * this call's caller and its deadline caps this one) or NULL for no caller. With
     * PLATFORM_CALL_AS_SERVICE the call is made as this plugin's own service account instead.
     * `done` runs exactly once on a host thread, possibly before this returns. Returns NOT_FOUND
     * for an unknown service or method, and then `done` is not called. */
    platform_status_t (*call_service)(platform_host_ctx_t* ctx, platform_call_t* parent,
                                      platform_str_t service, platform_str_t method,
                                      platform_str_t request_json, uint32_t flags,
                                      platform_reply_fn done, void* user);

    /* Outbound HTTP through the host's client (timeouts, size caps, redirects re-checked, the SSRF
     * guard, provider base URLs). Blocking: `done` is called once, before this returns, whenever
     * a response arrived (any HTTP status) or the request failed. Returns OK with a response,
     * PERMISSION_DENIED when the guard refused the target, UNAVAILABLE when the provider is not
     * configured, TIMEOUT, PAYLOAD_TOO_LARGE, or BAD_GATEWAY for network failures; `error` says
     * which setting or rule. Call it from a worker thread (a handler), never from a callback. */
    platform_status_t (*http_fetch)(platform_host_ctx_t* ctx,
                                    const platform_http_request_t* request,
                                    platform_http_response_fn done, void* user);

    /* Events. publish appends to the event's topic and writes its offset; read lends events of a
     * topic in offset order from `from_offset` (1 = the start), at most `limit` (0 = all);
     * wait blocks until the topic has an event after `after_offset` (OK) or timeout_ms passes
     * (TIMEOUT). */
    platform_status_t (*events_publish)(platform_host_ctx_t* ctx, const platform_event_t* event,
                                        uint64_t* out_offset);
    platform_status_t (*events_read)(platform_host_ctx_t* ctx, platform_str_t topic,
                                     uint64_t from_offset, uint32_t limit,
                                     platform_event_sink_fn sink, void* user);
    platform_status_t (*events_wait)(platform_host_ctx_t* ctx, platform_str_t topic,
                                     uint64_t after_offset, int32_t timeout_ms);

    /* ---- 1.3 ---- */

    /* Compare-and-set on the plugin's own store table, atomically with respect to every other
     * store write. `expected` NULL: the key must be absent (an expired record counts as absent);
     * else its current value must equal *expected byte for byte. `value` NULL deletes the key,
     * else sets it, expiring at `expires_at_ms` (absolute business time, Unix ms; 0 = never;
     * unlike store_put's ttl). Returns OK when the swap happened, CONFLICT when the current value
     * differs (nothing written), UNSUPPORTED when the profile's store provider does not declare
     * PLATFORM_STORE_CAS (or PLATFORM_STORE_TTL for an expiry), INVALID_ARGUMENT for a negative
     * expiry, UNAVAILABLE without a store. `expected` and `value` are read during the call only. */
    platform_status_t (*store_cas)(platform_host_ctx_t* ctx, platform_str_t key,
                                   const platform_str_t* expected, const platform_str_t* value,
                                   int64_t expires_at_ms);

    /* Applies `count` puts and deletes (platform_store_op_t, `op_stride` bytes apart) to the
     * plugin's own store table as one transaction: either every op is applied and visible
     * together or none is. Ops apply in order (a later op on the same key wins). Returns OK,
     * INVALID_ARGUMENT (nothing applied) for an unknown kind, a negative expiry, an element
     * smaller than its key field or ops NULL with count > 0, UNSUPPORTED when the provider does
     * not declare PLATFORM_STORE_TRANSACTIONS (or PLATFORM_STORE_TTL for an expiry), or the
     * provider's error, with nothing applied. count 0 is OK and does nothing. */
    platform_status_t (*store_batch)(platform_host_ctx_t* ctx, const platform_store_op_t* ops,
                                     uint32_t count, uint32_t op_stride);

    /* ---- 1.4: MCP, during a call --------------------------------------------------------------
     * These reach the MCP client of a call that came in through /mcp (tools/call); for any other
     * call they return UNSUPPORTED and do nothing, so a plugin may use them unconditionally.
     * INVALID_ARGUMENT for an unknown or already answered call. Any thread. */

    /* Sends notifications/progress {progressToken, progress, total?, message?} when the caller
     * asked for progress (_meta.progressToken); UNSUPPORTED otherwise. total <= 0 = unknown.
     * Progress must increase from one notification to the next (INVALID_ARGUMENT otherwise). */
    platform_status_t (*call_progress)(platform_call_t* call, double progress, double total,
                                       platform_str_t message);
    /* Sends notifications/message {level, logger?, data} when `level` is at or above the level
     * the client set with logging/setLevel (OK without sending when below). level is one of
     * MCP's: debug, info, notice, warning, error, critical, alert, emergency (else
     * INVALID_ARGUMENT); data_json is any JSON value (a bare string is sent as a string). */
    platform_status_t (*call_log)(platform_call_t* call, platform_str_t level,
                                  platform_str_t logger, platform_str_t data_json);
    /* Sends a request to the MCP client (sampling/createMessage, elicitation/create, roots/list)
     * and calls `reply` exactly once, on a host thread, with OK and the result JSON, or with the
     * client's error (INVALID_ARGUMENT, message as body), DEADLINE_EXCEEDED after timeout_ms
     * (<= 0: the call's deadline), or UNAVAILABLE when the client went away. Returns UNSUPPORTED
     * (reply not called) when the client did not declare the capability the method needs
     * (sampling, elicitation, roots) or the call did not come over MCP. A handler may block on
     * the reply: it runs on a host worker thread, never on the handler's own. */
    platform_status_t (*call_client_request)(platform_call_t* call, platform_str_t method,
                                             platform_str_t params_json, int64_t timeout_ms,
                                             platform_reply_fn reply, void* user);
    /* Tells MCP clients subscribed to `uri` (resources/subscribe) that it changed:
     * notifications/resources/updated on their sessions' streams. `account` limits it to the
     * sessions of that account (an owner's resource: others learn nothing of it); empty = every
     * subscriber. Any thread, any time. */
    void (*resource_updated)(platform_host_ctx_t* ctx, platform_str_t uri, platform_str_t account);

    /* ---- 1.5: the model --------------------------------------------------------------------- */

    /* Asks the configured model for one completion (the JSON shapes are those of
     * platform_model_provider_t.complete). The provider is config `model.provider` ("openai",
     * "anthropic", "builtin": plugin model-<name>), else the profile's `model` provider, else
     * model-builtin when loaded. Blocking, like http_fetch: call it from a handler's worker
     * thread, never from a callback. On OK lends the answer JSON to sink; on failure lends the
     * reason: UNAVAILABLE when no model provider is loaded or the chosen one is not configured
     * (the message names the missing setting), BAD_GATEWAY for an upstream failure, TIMEOUT,
     * INVALID_ARGUMENT for a request that is not the shape below. */
    platform_status_t (*model_complete)(platform_host_ctx_t* ctx, platform_str_t request_json,
                                        platform_bytes_sink_fn sink, void* user);

    /* Lends a JSON array of the tools the call's caller may use, as MCP's tools/list would list
     * them for that caller's credential (token scopes and capabilities, endpoint access), minus
     * endpoints flagged WITHHELD_FROM_AGENT and the calling plugin's own: each
     * {"name","title","description","inputSchema","annotations","service","method"} where
     * annotations are MCP's (readOnlyHint, destructiveHint, idempotentHint, openWorldHint; since
     * 1.6) and service/method are what call_service takes. INVALID_ARGUMENT for an unknown or answered call. Any thread. */
    platform_status_t (*call_tools)(platform_call_t* call, platform_bytes_sink_fn sink, void* user);

    /* ---- 1.6: grants: acting later for a caller -------------------------------------------- */

    /* A grant lets this plugin act later for the caller of `call` (background work, an event's
     * prompt at its time) with exactly that caller's identity and credential restrictions (token
     * services and capabilities) as they were at grant time, never more. Lends the grant's id
     * (an opaque printable string of at most 64 bytes) to sink. The host keeps grants in the
     * profile's store, so they outlive restarts; only the plugin that created a grant can use or
     * revoke it. INVALID_ARGUMENT for an unknown or answered call, UNAUTHENTICATED for an
     * anonymous caller, UNAVAILABLE without a store. Any thread. */
    platform_status_t (*grant_create)(platform_call_t* call, platform_bytes_sink_fn sink,
                                      void* user);
    /* As call_service with a parent, acting for the grant's account: rules, token restrictions,
     * access level and payment apply to it. timeout_ms <= 0 is the profile's call timeout (it is
     * capped by the profile's max_call_timeout_ms). NOT_FOUND for an unknown grant (or another
     * plugin's), service or method; on NOT_FOUND `done` is not called. Any thread. */
    platform_status_t (*grant_call_service)(platform_host_ctx_t* ctx, platform_str_t grant,
                                            platform_str_t service, platform_str_t method,
                                            platform_str_t request_json, int64_t timeout_ms,
                                            platform_reply_fn done, void* user);
    /* Forgets a grant; NOT_FOUND when it is unknown or another plugin's. Any thread. */
    platform_status_t (*grant_revoke)(platform_host_ctx_t* ctx, platform_str_t grant);

    /* ---- 1.9: answer headers ----------------------------------------------------------------- */

    /* respond_raw with headers on the HTTP answer (pages a browser shows: their
     * Content-Security-Policy and the like). headers_json is a JSON object of strings, name ->
     * value; empty means none. Only headers that tell a browser how to treat the bytes are
     * taken: Cache-Control, Content-Disposition, Content-Security-Policy,
     * Cross-Origin-Embedder-Policy, Cross-Origin-Opener-Policy, Cross-Origin-Resource-Policy,
     * Permissions-Policy, Referrer-Policy, X-Content-Type-Options, X-Frame-Options (any case).
     * Any other name, a value with a control character, or headers_json that is not such an
     * object answers the call INTERNAL with a message naming the header, and returns
     * INVALID_ARGUMENT. Surfaces that are not HTTP (MCP) drop the headers. HTTP 200. */
    platform_status_t (*respond_raw_headers)(platform_call_t* call, platform_str_t content_type,
                                             platform_str_t headers_json, platform_str_t bytes);
} platform_host_api_t;

/* call_service flags (1.2). */
#define PLATFORM_CALL_AS_SERVICE (1u << 0)

/* ---- privileged sub-table "registry" (version 1 since ABI 1.1, version 2 since 1.2) ----------
 * The host's service registry. JSON shapes are those of the registry service. */
#define PLATFORM_SERVICE_REGISTRY "registry"
typedef struct platform_registry_api {
    uint32_t struct_size;
    uint32_t version;
    /* Lends a JSON array of every service: {name, version, endpoints[], nodes[], metadata}. */
    platform_status_t (*list_services)(platform_host_ctx_t* ctx, platform_bytes_sink_fn sink,
                                       void* user);
    /* Lends a JSON array of the versions of one service (full or short name). NOT_FOUND. */
    platform_status_t (*get_service)(platform_host_ctx_t* ctx, platform_str_t name,
                                     platform_bytes_sink_fn sink, void* user);
    /* -- version 2 -- */
    /* Registers (or refreshes, as a heartbeat) an external service: JSON {name, version,
     * endpoints[], nodes[{id, address, metadata}], metadata}; `ttl_seconds` 0 = the default 90.
     * INVALID_ARGUMENT for a bad record, CONFLICT for a name a plugin serves; on failure the
     * reason (naming the field) is lent to error_sink. */
    platform_status_t (*register_service)(platform_host_ctx_t* ctx, platform_str_t service_json,
                                          int64_t ttl_seconds, platform_bytes_sink_fn error_sink,
                                          void* user);
    /* Removes a registered service (all nodes, or those listed in the JSON). NOT_FOUND. */
    platform_status_t (*deregister_service)(platform_host_ctx_t* ctx, platform_str_t service_json,
                                            platform_bytes_sink_fn error_sink, void* user);
    /* Calls fn with JSON {action: create|update|delete, service} for every change, on a host
     * thread, until unwatch returns. */
    platform_status_t (*watch)(platform_host_ctx_t* ctx, platform_bytes_sink_fn fn, void* user,
                               uint64_t* out_watch);
    platform_status_t (*unwatch)(platform_host_ctx_t* ctx, uint64_t watch);
} platform_registry_api_t;

/* ---- privileged sub-table "store" (version 1 since ABI 1.2, version 2 since 1.3) -----------
 * Any table of the profile's store, for the built-in store service and admin tools. Same
 * semantics as the host table's store functions, with the table named explicitly. */
#define PLATFORM_SERVICE_STORE "store"
typedef struct platform_store_api {
    uint32_t struct_size;
    uint32_t version;
    platform_status_t (*get)(platform_host_ctx_t* ctx, platform_str_t table, platform_str_t key,
                             platform_bytes_sink_fn sink, void* user);
    platform_status_t (*put)(platform_host_ctx_t* ctx, platform_str_t table, platform_str_t key,
                             platform_str_t value, int64_t ttl_ms);
    platform_status_t (*del)(platform_host_ctx_t* ctx, platform_str_t table, platform_str_t key);
    platform_status_t (*scan)(platform_host_ctx_t* ctx, platform_str_t table,
                              const platform_scan_t* scan, platform_record_sink_fn sink,
                              void* user);
    /* Lends a JSON array of table names; UNSUPPORTED when the provider cannot list them. */
    platform_status_t (*tables)(platform_host_ctx_t* ctx, platform_bytes_sink_fn sink, void* user);
    /* -- version 2 -- as host_api.store_cas and store_batch, on `table` */
    platform_status_t (*cas)(platform_host_ctx_t* ctx, platform_str_t table, platform_str_t key,
                             const platform_str_t* expected, const platform_str_t* value,
                             int64_t expires_at_ms);
    platform_status_t (*batch)(platform_host_ctx_t* ctx, platform_str_t table,
                               const platform_store_op_t* ops, uint32_t count, uint32_t op_stride);
} platform_store_api_t;

/* ---- privileged sub-table "secrets" (version 1, since ABI 1.2) -----------------------------
 * Seals values at rest with the host's secret key (AES-256-GCM; PLATFORM_CONFIG_SECRET_KEY or a
 * key generated once into PLATFORM_HOME). The key never leaves the host. */
#define PLATFORM_SERVICE_SECRETS "secrets"
typedef struct platform_secrets_api {
    uint32_t struct_size;
    uint32_t version;
    /* Lends the sealed form of plaintext (printable text, safe to store as a JSON string). */
    platform_status_t (*seal)(platform_host_ctx_t* ctx, platform_str_t plaintext,
                              platform_bytes_sink_fn sink, void* user);
    /* Lends the plaintext; PERMISSION_DENIED when it was sealed with another key or altered. */
    platform_status_t (*open)(platform_host_ctx_t* ctx, platform_str_t sealed,
                              platform_bytes_sink_fn sink, void* user);
} platform_secrets_api_t;

/* ---- privileged sub-table "network" (version 1, since ABI 1.2) -----------------------------
 * The nodes this host knows (itself; later its replicas) and the services each serves. */
#define PLATFORM_SERVICE_NETWORK "network"
typedef struct platform_network_api {
    uint32_t struct_size;
    uint32_t version;
    /* Lends a JSON array of {id, address, metadata, services[]} */
    platform_status_t (*nodes)(platform_host_ctx_t* ctx, platform_bytes_sink_fn sink, void* user);
} platform_network_api_t;

/* ---- privileged sub-table "clock" (version 1, since ABI 1.1) ----------------------------------------------
 * Moves business time when the profile's clock is `manual`; UNSUPPORTED on a real clock. */
#define PLATFORM_SERVICE_CLOCK "clock"
typedef struct platform_clock_api {
    uint32_t struct_size;
    uint32_t version;
    bool (*is_manual)(platform_host_ctx_t* ctx);
    platform_status_t (*set_ms)(platform_host_ctx_t* ctx, int64_t unix_ms);
    platform_status_t (*advance_ms)(platform_host_ctx_t* ctx, int64_t delta_ms);
} platform_clock_api_t;

/* ---------------------------------------------------------------------------------------------
 * Provider tables (plugin -> host), pointed to by platform_plugin_desc_t.provider.
 * `inst` is what on_create returned. Called from any host thread; must be thread-safe.
 * ------------------------------------------------------------------------------------------- */

/* Store features a provider declares; the conformance suite tests exactly these, and the host
 * answers UNSUPPORTED for a request that needs a feature the provider does not declare.
 *   TTL          put/cas/batch honour expires_at_ms: records with 0 < expires_at_ms <= now_ms are
 *                invisible to get, scan and cas. Without it the host refuses writes that expire.
 *   PREFIX       scan returns only the keys starting with scan->prefix. Without it the provider
 *                may ignore the prefix; the host then filters and applies offset and limit itself.
 *   ORDER        scan returns keys in bytewise order, ascending or descending, limit and offset
 *                counted in that order. Without it the order is unspecified.
 *   PERSISTENT   records survive the provider's restart (a put that returned OK is durable).
 *   CAS          (1.3) cas is set and compares and writes atomically.
 *   TRANSACTIONS (1.3) batch is set and applies a batch all or nothing, never seen half done. */
#define PLATFORM_STORE_TTL (1ull << 0)
#define PLATFORM_STORE_PREFIX (1ull << 1)
#define PLATFORM_STORE_ORDER (1ull << 2)
#define PLATFORM_STORE_PERSISTENT (1ull << 3)
#define PLATFORM_STORE_CAS (1ull << 4)          /* 1.3 */
#define PLATFORM_STORE_TRANSACTIONS (1ull << 5) /* 1.3 */

typedef struct platform_store_provider {
    uint32_t struct_size;
    uint64_t features; /* PLATFORM_STORE_* */
    /* now_ms is business time; records with 0 < expires_at_ms <= now_ms are invisible. */
    platform_status_t (*get)(void* inst, platform_str_t table, platform_str_t key, int64_t now_ms,
                             platform_bytes_sink_fn sink, void* user);
    platform_status_t (*put)(void* inst, platform_str_t table, platform_str_t key,
                             platform_str_t value, int64_t expires_at_ms /* 0 = never */);
    platform_status_t (*del)(void* inst, platform_str_t table, platform_str_t key);
    platform_status_t (*scan)(void* inst, platform_str_t table, const platform_scan_t* scan,
                              int64_t now_ms, platform_record_sink_fn sink, void* user);
    /* (1.2) Lends a JSON array of the table names that hold records. */
    platform_status_t (*tables)(void* inst, platform_bytes_sink_fn sink, void* user);
    /* (1.3) Set iff features has PLATFORM_STORE_CAS. Atomically: when the live value of key
     * (a record with 0 < expires_at <= now_ms counts as absent) equals *expected, or the key is
     * absent and expected is NULL, writes *value with expires_at_ms (0 = never), or deletes the
     * key when value is NULL, and returns OK; otherwise writes nothing and returns CONFLICT.
     * The host has checked its arguments (expires_at_ms >= 0). */
    platform_status_t (*cas)(void* inst, platform_str_t table, platform_str_t key,
                             const platform_str_t* expected, const platform_str_t* value,
                             int64_t expires_at_ms, int64_t now_ms);
    /* (1.3) Set iff features has PLATFORM_STORE_TRANSACTIONS. Applies the ops in order as one
     * transaction: on any failure nothing is applied, and no reader ever sees part of a batch.
     * The host has checked the ops (kinds PUT or DEL, expires_at_ms >= 0) and hands them with
     * every field the host knows filled in; walk them by op_stride. */
    platform_status_t (*batch)(void* inst, platform_str_t table, const platform_store_op_t* ops,
                               uint32_t count, uint32_t op_stride);
} platform_store_provider_t;

typedef struct platform_broker_provider {
    uint32_t struct_size;
    platform_status_t (*publish)(void* inst, platform_str_t topic, platform_str_t body,
                                 platform_str_t headers_json);
    platform_status_t (*subscribe)(void* inst, platform_str_t topic, platform_str_t queue,
                                   platform_message_fn fn, void* user, uint64_t* out_subscription);
    /* After it returns, fn is never called again for that subscription. */
    platform_status_t (*unsubscribe)(void* inst, uint64_t subscription);
} platform_broker_provider_t;

/* Events provider (1.2). Offsets start at 1 per topic and grow by one per event. */
typedef struct platform_events_provider {
    uint32_t struct_size;
    bool persistent;
    /* Appends; the host has filled id and timestamp. Writes the new offset. */
    platform_status_t (*append)(void* inst, const platform_event_t* event, uint64_t* out_offset);
    platform_status_t (*read)(void* inst, platform_str_t topic, uint64_t from_offset,
                              uint32_t limit, platform_event_sink_fn sink, void* user);
    /* OK once the topic has an event after after_offset, TIMEOUT after timeout_ms. */
    platform_status_t (*wait)(void* inst, platform_str_t topic, uint64_t after_offset,
                              int32_t timeout_ms);
    /* Lends a JSON array of {topic, events, last_offset}. */
    platform_status_t (*topics)(void* inst, platform_bytes_sink_fn sink, void* user);
} platform_events_provider_t;

typedef struct platform_auth_provider {
    uint32_t struct_size;
    /* Resolves a credential (the bearer token text or the session cookie's value; empty =
     * anonymous) to an identity, lent as JSON:
     *   {"id","type":"user|service","issuer","name","scopes":[...],"metadata":{"timezone":...},
     *    "credential":{"kind":"access|personal|services|session","id":"<token id>",
     *                  "services":[...],      absent or empty: every service
     *                  "capabilities":[...],  absent: every capability
     *                  "csrf":"<expected X-CSRF-Token>"}}   sessions only
     * `credential` is absent for providers without tokens (auth-noop). `{}` for an anonymous
     * caller. UNAUTHENTICATED for a credential that is malformed, forged, expired or revoked. */
    platform_status_t (*authenticate)(void* inst, platform_str_t credential,
                                      platform_bytes_sink_fn sink, void* user);
    /* (1.3) Optional (NULL together with `rules`, or absent for a 1.2 provider: the host then
     * uses exactly the default rule, public GRANTED `*:*:*`). A number that changes whenever the
     * rule set changes: at once for changes made through this host, within 5 s for changes made
     * by a replica sharing the provider's store. The host re-reads `rules` when it changes. */
    uint64_t (*rules_version)(void* inst);
    /* (1.3) Optional, see rules_version. Lends the rule set as a JSON array of
     * {"id","scope","resource","access":"GRANTED|DENIED","priority"}: scope "" is
     * public (shown as "<public>" by the auth service), "*" any account of the namespace, "+" any
     * account of any namespace, else a scope the account must hold; resource is
     * "<type>:<name>:<endpoint>" with "*" wildcards; the highest priority decides. */
    platform_status_t (*rules)(void* inst, platform_bytes_sink_fn sink, void* user);
} platform_auth_provider_t;

/* Model provider (1.5): one completion of a conversation that may call tools. Provider-neutral
 * JSON, translated by each provider to its upstream's format:
 *   request  {"system": "<instructions>",
 *             "messages": [{"role": "user", "content": "<text>"},
 *                          {"role": "assistant", "content": "<text or empty>",
 *                           "tool_calls": [{"id", "name", "arguments": {...}}]},
 *                          {"role": "tool", "tool_call_id", "name", "content": "<result text>",
 *                           "is_error": false}],
 *             "tools": [{"name", "description", "input_schema": {JSON Schema}}],
 *             "max_tokens": 1024,
 *             "context": {"now": "<RFC 3339 in the account's zone>", "timezone": "<IANA>",
 *                         "account": "<id>"}}   (all but messages optional; context is for
 *                                                 providers that work offline, like model-builtin)
 *   answer   {"text": "<reply, empty when only calling tools>",
 *             "tool_calls": [{"id", "name", "arguments": {...}}],   (empty when done)
 *             "stop": "end" | "tool_calls" | "max_tokens",
 *             "model": "<the model that answered>",
 *             "usage": {"input_tokens", "output_tokens"}}
 * `complete` blocks (it may fetch over HTTP through the host table) and runs on host worker
 * threads, concurrently: it must be thread-safe. On OK it lends the answer to sink; on failure it
 * lends a message: UNAVAILABLE naming the missing setting (model.<name>.api_key...), BAD_GATEWAY
 * with the upstream's status and error, TIMEOUT, INVALID_ARGUMENT for a malformed request. */
typedef struct platform_model_provider {
    uint32_t struct_size;
    platform_status_t (*complete)(void* inst, platform_str_t request_json,
                                  platform_bytes_sink_fn sink, void* user);
} platform_model_provider_t;

/* ---------------------------------------------------------------------------------------------
 * Plugin descriptor (plugin -> host). Static, owned by the plugin, alive while loaded.
 * ------------------------------------------------------------------------------------------- */

typedef struct platform_plugin_desc {
    uint32_t struct_size;
    uint32_t abi_version;   /* PLATFORM_ABI_VERSION the plugin was built against */
    platform_str_t id;      /* unique plugin id: "notes", "store-sqlite" */
    platform_str_t version; /* semver of the plugin */
    platform_kind_t kind;
    platform_str_t summary;       /* one line */
    platform_str_t config_schema; /* JSON Schema of its profile config, or empty */
    /* Service name under the namespace: "v1.notes" is served as <ns>.v1.notes and
     * /api/v1/notes/...; "registry" as <ns>.registry. Empty for providers. */
    platform_str_t service;
    const platform_endpoint_t* endpoints;
    uint32_t endpoint_count;
    uint32_t endpoint_stride; /* sizeof(platform_endpoint_t) as the plugin knew it */

    /* Creates the instance. config_json is the plugin's profile config (an object). On failure
     * returns NULL and writes a message into err (NUL-terminated, at most err_size bytes).
     * Called once, on the loading thread. */
    void* (*on_create)(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                       platform_str_t config_json, char* err, size_t err_size);
    /* Optional. Called after every plugin was created; may use the host table. */
    platform_status_t (*on_start)(void* inst);
    /* Optional. Must join the plugin's threads and end its timers and subscriptions. */
    void (*on_stop)(void* inst);
    void (*on_destroy)(void* inst);
    /* Services: handles one call on a host worker thread. request_json is the validated argument
     * object (defaults applied). The plugin answers with respond* exactly once, now or later from
     * any thread. Must not throw or unwind. */
    void (*on_call)(void* inst, platform_call_t* call, uint32_t endpoint_index,
                    platform_str_t request_json);
    /* Optional. The host gave up on a call (deadline, client gone) and has already answered it.
     * Runs on a host worker thread, possibly while on_call for the same call is still running on
     * another; the host holds no lock of its own while calling it, so it may take locks the
     * handler also takes. Views lent for the call stay valid until it returns; afterwards a
     * respond* on the call returns INVALID_ARGUMENT and does nothing. */
    void (*on_cancel)(void* inst, platform_call_t* call);
    /* Providers: the kind's table (platform_store_provider_t...). NULL for services. */
    const void* provider;
} platform_plugin_desc_t;

/* ---------------------------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------------------------- */

typedef struct platform_entry_args {
    uint32_t struct_size;
    uint32_t host_abi_version;      /* the highest version the host speaks */
    const platform_host_api_t* api; /* valid for the life of the process */
    char* error;                    /* on failure, a NUL-terminated message of at most */
    size_t error_size;              /* error_size bytes */
} platform_entry_args_t;

/*
 * Exported as PLATFORM_ENTRY_SYMBOL, with C linkage, by every plugin. Returns the plugin's static
 * descriptor, or NULL after writing a message into args->error. Called once, on the loading
 * thread, before on_create. It must not call the host table.
 */
typedef const platform_plugin_desc_t* (*platform_plugin_entry_fn)(
    const platform_entry_args_t* args);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PLATFORM_ABI_H */
