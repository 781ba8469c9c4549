// stream_reader.hpp — streamed answers read whole, for the tests of endpoints that stream
// (events/consume, broker/subscribe) where HttpClient, which frames by Content-Length, cannot:
//
//   RawAnswer r = raw_get(host.api_port(), "/events/consume?topic=t&limit=3", bearer("alice"));
//   ASSERT_EQ(r.status, 200) << r.headers;
//   for (const json& e : stream_chunks(r.body)) ...
//
// raw_get blocks the calling thread (run it with std::async to publish meanwhile); each call has
// its own connection.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "http_client.hpp"

namespace platform::test {

struct RawAnswer {
    int status = 0;
    std::string headers;  // the head as sent, status line first
    std::string body;     // chunked transfer decoded; cut at Content-Length
};

// One GET of `target` on its own connection (Connection: close) with `headers`, read until the
// answer is complete (its Content-Length, or its last chunk) or the server closes, for at most
// `timeout_ms`. Throws when it cannot connect or no answer head came.
RawAnswer raw_get(int port, const std::string& target, const Headers& headers = {},
                  int timeout_ms = 60000);

// The messages of a streamed body, read leniently: the JSON of each Server-Sent Events frame
// (`data:` lines; an `event: error` frame fails the test and is left out), or else JSON values one
// after another or in one array (while a surface cannot stream).
std::vector<nlohmann::json> stream_chunks(const std::string& body);

// The messages (stream_chunks) of a streaming GET as the holder of `token`, asking for Server-Sent
// Events; throws unless it answers 200.
std::vector<nlohmann::json> stream_messages(int port, const std::string& target,
                                            const std::string& token, int timeout_ms);

}  // namespace platform::test
