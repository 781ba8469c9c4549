#include "runtime_format.hpp"

#include <algorithm>

namespace platform::cli {

std::string format_duration(int64_t s) {
    if (s < 0) s = 0;
    const int64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, sec = s % 60;
    if (d > 0)
        return std::to_string(d) + "d" + std::to_string(h) + "h" + std::to_string(m) + "m" +
               std::to_string(sec) + "s";
    if (h > 0) return std::to_string(h) + "h" + std::to_string(m) + "m" + std::to_string(sec) + "s";
    if (m > 0) return std::to_string(m) + "m" + std::to_string(sec) + "s";
    return std::to_string(sec) + "s";
}

std::string first_error(const std::string& text) {
    std::string first_line;
    for (size_t i = 0; i < text.size();) {
        size_t end = std::min(text.find('\n', i), text.size());
        std::string line = text.substr(i, end - i);
        i = end + 1;
        line.erase(0, line.find_first_not_of(" \t\r"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (line.empty()) continue;
        if (line.size() > 300) line = line.substr(0, 297) + "...";
        if (line.find("error:") != std::string::npos || line.find("Error:") != std::string::npos)
            return line;
        if (first_line.empty()) first_line = line;
    }
    return first_line;
}

std::vector<std::string> status_row(const nlohmann::json& r, int64_t now_ms) {
    auto text = [&](const char* key) {
        std::string v = r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : "";
        return v.empty() ? std::string("n/a") : v;
    };
    std::string build = text("build");
    if (build != "n/a" && build.size() > 7) build.resize(7);
    const int64_t updated =
        r.contains("updated") && r["updated"].is_number() ? r["updated"].get<int64_t>() : 0;
    const nlohmann::json md = r.contains("metadata") && r["metadata"].is_object()
                                  ? r["metadata"]
                                  : nlohmann::json::object();
    std::string metadata = "owner=" + md.value("owner", "") + ", group=" + md.value("group", "");
    if (md.contains("error") && md["error"].is_string() && !md["error"].get<std::string>().empty())
        metadata += ", error=" + md["error"].get<std::string>();
    return {text("name"),
            text("version"),
            text("source"),
            text("status"),
            build,
            updated > 0 ? format_duration((now_ms - updated) / 1000) + " ago" : "unknown",
            metadata};
}

}  // namespace platform::cli
