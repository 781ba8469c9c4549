#include <platform/host/query.hpp>
#include <platform/host/request_args.hpp>

#include <algorithm>

namespace platform::host {

using nlohmann::json;

namespace {
std::string media_type(const std::string& content_type) {
    std::string t = content_type.substr(0, content_type.find(';'));
    t.erase(std::remove_if(t.begin(), t.end(), ::isspace), t.end());
    std::transform(t.begin(), t.end(), t.begin(), ::tolower);
    return t;
}
bool is_json(const std::string& t) {
    return t.empty() || t == "application/json" || t == "text/json" || t == "application/json-rpc" ||
           (t.size() > 5 && t.compare(t.size() - 5, 5, "+json") == 0);
}
std::string without_key(const std::string& query, const std::string& key) {
    if (key.empty()) return query;
    std::string out;
    size_t i = 0;
    while (i <= query.size()) {
        size_t j = query.find('&', i);
        if (j == std::string::npos) j = query.size();
        std::string part = query.substr(i, j - i);
        std::string name = part.substr(0, part.find('='));
        if (!part.empty() && name != key) out += (out.empty() ? "" : "&") + part;
        i = j + 1;
    }
    return out;
}
}  // namespace

std::variant<json, ArgsError> parse_body(const HttpRequest& req, const Schema* schema) {
    if (req.body.empty()) return json::object();
    const std::string type = media_type(req.header("content-type"));
    if (type == "application/x-www-form-urlencoded") {
        try {
            return parse_form(req.body, schema);
        } catch (const std::exception& e) {
            return ArgsError{400, PLATFORM_INVALID_ARGUMENT, std::string("form body: ") + e.what()};
        }
    }
    if (!is_json(type))
        return ArgsError{415, PLATFORM_INVALID_ARGUMENT,
                         "unsupported Content-Type '" + type +
                             "': only JSON bodies are served (send application/json)"};
    json body;
    try {
        body = json::parse(req.body);
    } catch (const json::parse_error& e) {
        return ArgsError{400, PLATFORM_INVALID_ARGUMENT,
                         "request body: invalid JSON at byte " + std::to_string(e.byte)};
    }
    if (!body.is_object())
        return ArgsError{400, PLATFORM_INVALID_ARGUMENT, "request body: must be a JSON object"};
    return body;
}

std::variant<json, ArgsError> request_args(const HttpRequest& req, const Schema* schema, uint64_t max_body,
                                           const std::string& skip_query_key) {
    if (req.body.size() > max_body)
        return ArgsError{413, PLATFORM_PAYLOAD_TOO_LARGE,
                         "request body: " + std::to_string(req.body.size()) +
                             " bytes is more than the " + std::to_string(max_body) +
                             " bytes this method accepts"};
    json args = json::object();
    const std::string query = without_key(req.query, skip_query_key);
    if (!query.empty()) {
        try {
            args = parse_query(query, schema);
        } catch (const std::exception& e) {
            return ArgsError{400, PLATFORM_INVALID_ARGUMENT, std::string("query string: ") + e.what()};
        }
    }
    auto body = parse_body(req, schema);
    if (auto* err = std::get_if<ArgsError>(&body)) return *err;
    args.update(std::get<json>(body), true);
    return args;
}

}  // namespace platform::host
