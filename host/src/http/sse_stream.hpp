// sse_stream.hpp — private to the gateway (host/src/http): the Server-Sent Events side of a
// streaming call (Gateway::invoke). The stream opens with the first chunk (status 200,
// text/event-stream, X-Request-Id and Cache-Control: no-cache); each chunk is one event, one
// `data:` line per line of it; with `cursor_ids` (the endpoint declares resume_arg) a chunk's
// `cursor` field is also the event's `id:`. A failure after the stream began is a final
// `event: error` carrying {code, message}.
// Threads: send and finish may come from any thread; they are serialised by `m`.
#pragma once

#include <memory>
#include <mutex>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/http_message.hpp>
#include <string>
#include <string_view>

namespace platform::host {

struct SseStream {
    std::mutex m;
    OpenStream open;          // the server's, unwrapped
    std::string request_id;   // echoed on the stream's headers
    bool cursor_ids = false;  // resume_arg declared: a chunk's `cursor` is its event id
    std::shared_ptr<HttpStream> stream;

    // One event: `event:` and `id:` lines when given, then the chunk's `data:` lines.
    static std::string frame(std::string_view chunk, std::string_view event = {},
                             std::string_view id = {});
    // The chunk's `cursor` as an event id ("" when it has none, or one with a line break).
    static std::string cursor_of(std::string_view chunk);
    // Sends one chunk, opening the stream first; false once the client is gone.
    bool send(std::string_view chunk);
    // Ends a started stream (an error becomes a final `event: error`); false if none started.
    bool finish(const Outcome& o);
};

}  // namespace platform::host
