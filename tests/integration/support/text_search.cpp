#include "text_search.hpp"

#include <sstream>

namespace platform::test {

nlohmann::json access_line(const std::string& log, const std::string& id) {
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] != '{') continue;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && j.value("request_id", "") == id) return j;
    }
    return nullptr;
}

}  // namespace platform::test
