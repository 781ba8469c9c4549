// platform/host/http/access_log.hpp — one JSON line per HTTP request (profile `http.access_log`).
//
//   {"time":"2025-05-20T10:00:00.123Z","request_id":"…","method":"GET","path":"/health",
//    "status":200,"bytes":57,"duration_ms":0.41,"remote":"127.0.0.1","user_agent":"curl/7.88.1",
//    "trace_id":"…","port":"api"}
// `path` has no query string (queries may carry secrets); Authorization is never logged. The
// server's AccessLogWriter (access_log_writer.hpp) formats each line straight into a buffer the
// request's thread keeps (no allocation once it has grown, no lock another thread shares, no system
// call), and its own thread writes the buffers to stderr, under spdlog's console lock, within
// about 10 ms; HttpServer::stop writes what is left. A thread's lines keep their order.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace platform::host {

// The fields of one line. The texts are views: what they point at must outlive the call.
struct AccessRecord {
    std::chrono::system_clock::time_point time;
    std::string_view request_id, method, path, remote, user_agent, trace_id, port;
    int status = 0;
    uint64_t bytes = 0;  // response body bytes
    double duration_ms = 0;
};

// Appends the line (without a newline) to `out`.
void append_access_log_line(std::string& out, const AccessRecord& r);
std::string access_log_line(const AccessRecord& r);

}  // namespace platform::host
