// text_search.hpp — looking for things in the text tests get back: a host's log, a command's
// output, an answer's body.
//
//   EXPECT_TRUE(has(r.body, "limit")) << r.body;
//   EXPECT_EQ(count_of(host.log(), "cancelled"), 1u);
//   json line = access_line(host.log(), "req-7");  // the access-log entry of request req-7
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace platform::test {

// Whether `part` occurs in `text`.
inline bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// How many times `what` occurs in `text`, overlapping occurrences included.
inline size_t count_of(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// The access-log line (a JSON object on a line of its own) whose request_id is `id`; null when
// the log has none.
nlohmann::json access_line(const std::string& log, const std::string& id);

}  // namespace platform::test
