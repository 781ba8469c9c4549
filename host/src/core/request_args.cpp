#include <algorithm>
#include <platform/host/core/request_args.hpp>
#include <platform/sdk/text.hpp>
#include <platform/validation/json_depth.hpp>
#include <platform/validation/query.hpp>
#include <vector>

using platform::validation::json_depth_ok;
using platform::validation::kMaxJsonDepth;
using platform::validation::parse_form;
using platform::validation::parse_query;
using platform::validation::valid_utf8;

namespace platform::host {

using nlohmann::json;

namespace {
std::string media_type(const std::string& content_type) {
    std::string t = content_type.substr(0, content_type.find(';'));
    t.erase(std::remove_if(t.begin(), t.end(), ::isspace), t.end());
    return platform::lower(t);
}
bool is_json(const std::string& t) {
    return t.empty() || t == "application/json" || t == "text/json" ||
           t == "application/json-rpc" ||
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

// Follows the parse as far as it gets: the open containers and the key or index being read.
class PathAtError : public nlohmann::json_sax<json> {
public:
    std::string path;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override {
        stack_.back().key = k;
        stack_.back().in_value = true;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        for (const auto& f : stack_) {
            if (!f.array && !f.in_value) {
                path = path.empty() ? "an argument name" : path + " (a key)";
                return false;
            }
            path += (path.empty() ? "" : ".") + (f.array ? std::to_string(f.index) : f.key);
        }
        return false;
    }

private:
    struct Frame {
        bool array = false;
        std::size_t index = 0;
        std::string key;
        bool in_value = false;
    };
    bool value() {
        if (stack_.empty()) return true;
        Frame& f = stack_.back();
        if (f.array)
            ++f.index;
        else
            f.in_value = false;
        return true;
    }
    bool open(bool array) {
        stack_.emplace_back();
        stack_.back().array = array;
        return true;
    }
    bool close() {
        stack_.pop_back();
        return value();
    }
    std::vector<Frame> stack_;
};
}  // namespace

std::optional<std::string> invalid_utf8_path(const std::string& json_text) {
    if (valid_utf8(json_text)) return std::nullopt;
    PathAtError sax;
    json::sax_parse(json_text, &sax);
    return sax.path;
}

namespace {

// Where the parse of `json_text` stops: "tags.2", "title", or "request body".
std::string where_parse_stops(const std::string& json_text) {
    PathAtError sax;
    json::sax_parse(json_text, &sax);
    return sax.path.empty() ? "request body" : sax.path;
}

}  // namespace

std::variant<json, ArgsError> parse_body(const HttpRequest& req, const Schema* schema,
                                         BodyForms forms) {
    if (req.body.empty()) return json::object();
    const std::string type = media_type(req.header("content-type"));
    if (type == "application/x-www-form-urlencoded" && forms == BodyForms::refused)
        return ArgsError{415, PLATFORM_INVALID_ARGUMENT,
                         "Content-Type application/x-www-form-urlencoded: this endpoint takes a "
                         "JSON body (send Content-Type: application/json; curl: -H "
                         "'Content-Type: application/json' or --json)"};
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
    if (!json_depth_ok(req.body))
        return ArgsError{
            400, PLATFORM_INVALID_ARGUMENT,
            "request body: nested more than " + std::to_string(kMaxJsonDepth) + " levels deep"};
    json body;
    try {
        body = json::parse(req.body);
    } catch (const json::parse_error& e) {
        if (auto path = invalid_utf8_path(req.body))
            return ArgsError{400, PLATFORM_INVALID_ARGUMENT,
                             (path->empty() ? "request body" : *path) + ": must be valid UTF-8"};
        return ArgsError{400, PLATFORM_INVALID_ARGUMENT,
                         "request body: invalid JSON at byte " + std::to_string(e.byte)};
    } catch (const json::exception&) {
        // The only other failure of a parse: a number beyond a double's range (1e999).
        return ArgsError{400, PLATFORM_INVALID_ARGUMENT,
                         where_parse_stops(req.body) +
                             ": number out of range (JSON numbers here must fit a double, at most "
                             "about 1.8e308)"};
    }
    if (!body.is_object())
        return ArgsError{400, PLATFORM_INVALID_ARGUMENT, "request body: must be a JSON object"};
    return body;
}

std::variant<json, ArgsError> request_args(const HttpRequest& req, const Schema* schema,
                                           uint64_t max_body, const std::string& skip_query_key,
                                           BodyForms forms) {
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
            return ArgsError{400, PLATFORM_INVALID_ARGUMENT,
                             std::string("query string: ") + e.what()};
        }
    }
    auto body = parse_body(req, schema, forms);
    if (auto* err = std::get_if<ArgsError>(&body)) return *err;
    args.update(std::get<json>(body), true);
    return args;
}

}  // namespace platform::host
