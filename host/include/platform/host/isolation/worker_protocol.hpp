// platform/host/isolation/worker_protocol.hpp — the contract between the host and
// `platform-worker`, the process that runs one isolated plugin (docs/decisions.md 25).
//
// TRANSPORT
//   One connected Unix stream socket per worker (a socketpair; the child gets its end as fd 3,
//   `platform-worker --fd 3 <plugin.so>`, or connects to `--socket <path>`). Both sides send
//   frames at any time from any thread (a frame is written whole under a lock) and one reader
//   thread per side reads them.
//
// FRAMES
//   4 bytes big-endian length N (1 <= N <= kMaxFrame), then N bytes of CBOR (RFC 8949) holding one
//   map. JSON values travel as CBOR; bytes (store keys and values, response bodies, event payloads)
//   travel as CBOR byte strings (nlohmann::json::binary), never re-encoded. A frame that is too
//   long, empty, not CBOR or not a map is a protocol error: the reader drops the connection (the
//   host then treats the worker as crashed); nothing is ever answered to garbage.
//
// MESSAGES (maps; every key below is a string)
//   request       {"id": n, "op": "<op>", ...}   n > 0, unique per sender; exactly one reply
//   reply         {"re": n, "code": <platform_status_t>, ...results}
//   notification  {"op": "<op>", ...}            no id, no reply
//   Unknown ops in a request are answered {"code": UNSUPPORTED}; unknown notifications ignored.
//
//   host -> worker
//     describe   request  -> {"desc": <descriptor, see worker_descriptor.hpp>} | {"error"}
//     create     request  {"config": obj, "privileged": bool} -> {} | {"error"}   (on_create)
//     start      request  -> {}                                                   (on_start)
//     ping       request  -> {}   answered by the reader thread: the process is alive
//     call       notif.   {"call": id, "index": i, "args": bytes(JSON), "service", "endpoint",
//                          "account", "scopes", "request_id", "deadline_ms", "headers": obj}
//                         the id is the host's call handle; the worker uses it as its own
//     cancel     notif.   {"call": id}      the host answered the call itself (on_cancel)
//     reply      notif.   {"token": t, "code", "body": bytes}  call_service / client request done
//     message    notif.   {"token": t, "topic", "body": bytes, "headers"}   broker delivery
//     watch      notif.   {"token": t, "event": bytes}                      registry watch event
//   worker -> host
//     returned   notif.   {"call": id}      on_call for that call returned (hang detection)
//     log, resource_updated                 notifications (no reply)
//     every other platform_host_api_t function and privileged sub-table function is a request
//     named after it ("store_get", "respond_chunk", "registry.watch", "secrets.open"...), with its
//     arguments by name; the reply carries the status in "code" and results ("out", "records",
//     "events", "response", "sub"...). host_protocol.hpp lists the ops and which member sends
//     each; the host's serving functions (isolation/host_calls_*.cpp) and the worker's stubs
//     (worker/proxy_api.cpp, proxy_subtables.cpp) are the two halves, the reference for each op's
//     fields. model_complete (1.5)
//     replies "out" whatever its code (the answer, or the reason); call_tools and grant_create
//     (1.6) name a call it was sent, like respond; grant_call_service relays its reply with a
//     token, like call_service.
//
// OWNERSHIP AND LIFETIME
//   Nothing is shared but the socket. Views a plugin lends are copied into the frame before the
//   proxied function returns; views the worker lends the plugin (call_info, call_header) live in
//   the worker's call record until the call is answered or cancelled and on_call returned, as in
//   process. Sinks (store_get, store_scan, events_read, http_fetch...) are called in the worker,
//   before the proxied function returns, with data the reply carried (a scan's records are all in
//   one reply: large unbounded scans cost memory twice).
//
// THREADS
//   Worker: the reader thread answers ping and routes replies; calls, create/start and callbacks
//   run on two elastic pools (handlers, callbacks), so a handler blocked on a host reply never
//   stops callbacks (call_service replies, broker messages) from arriving. Host: the reader thread
//   routes replies; the worker's requests run on the plugin's own pool, never the dispatcher's.
//
// SECURITY
//   The host trusts a worker no more than a network peer: it answers call functions only for call
//   ids it sent to that worker and not yet forgotten, and re-checks the descriptor with the
//   in-process loader's rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host::worker {

constexpr size_t kMaxFrame = 64u * 1024u * 1024u;

// One message as a frame (length prefix + CBOR).
std::string encode_frame(const nlohmann::json& message);

// Turns a byte stream into messages. Not thread-safe; one per reader.
class FrameDecoder {
public:
    // Appends bytes; false (and error()) once the stream is broken. After that, feed does nothing.
    bool feed(const char* data, size_t size);
    // The next complete message, if any.
    std::optional<nlohmann::json> next();
    const std::string& error() const { return error_; }
    size_t buffered() const { return buffer_.size() - pos_; }

private:
    std::string buffer_;
    size_t pos_ = 0;
    std::vector<nlohmann::json> ready_;
    size_t ready_pos_ = 0;
    std::string error_;
};

// Bytes <-> the JSON value carrying them (a CBOR byte string; a text string is accepted too).
nlohmann::json bytes(std::string_view b);
std::string bytes_of(const nlohmann::json& v);

}  // namespace platform::host::worker
