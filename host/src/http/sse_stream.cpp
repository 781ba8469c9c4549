#include "sse_stream.hpp"

#include <nlohmann/json.hpp>
#include <platform/host/core/status.hpp>

namespace platform::host {

using nlohmann::json;

std::string SseStream::frame(std::string_view chunk, std::string_view event, std::string_view id) {
    std::string out;
    if (!event.empty()) out += "event: " + std::string(event) + "\n";
    if (!id.empty()) out += "id: " + std::string(id) + "\n";
    for (size_t i = 0;;) {
        size_t j = chunk.find('\n', i);
        out += "data: ";
        out.append(chunk.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
        out += "\n";
        if (j == std::string_view::npos) break;
        i = j + 1;
    }
    return out + "\n";
}

std::string SseStream::cursor_of(std::string_view chunk) {
    json j = json::parse(chunk, nullptr, false);
    if (!j.is_object() || !j.contains("cursor")) return "";
    const json& c = j["cursor"];
    std::string id = c.is_string() ? c.get<std::string>() : c.dump();
    return id.find_first_of("\r\n") == std::string::npos ? id : "";
}

bool SseStream::send(std::string_view chunk) {
    std::lock_guard<std::mutex> g(m);
    if (!stream)
        stream = open(200, "text/event-stream",
                      {{"X-Request-Id", request_id}, {"Cache-Control", "no-cache"}});
    return stream && stream->write(frame(chunk, {}, cursor_ids ? cursor_of(chunk) : ""));
}

bool SseStream::finish(const Outcome& o) {
    std::lock_guard<std::mutex> g(m);
    if (!stream) return false;
    if (o.code != PLATFORM_OK) {
        const auto& info = status_info(o.code);
        stream->write(frame(json{{"code", info.name}, {"message", o.body}}.dump(
                                -1, ' ', false, json::error_handler_t::replace),
                            "error"));
    }
    stream->end();
    return true;
}

}  // namespace platform::host
