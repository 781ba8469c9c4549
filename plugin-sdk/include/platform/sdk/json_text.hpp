// platform/sdk/json_text.hpp — a result that is already JSON text, answered as it is.
//
// A handler normally returns an nlohmann::json value, which the SDK dumps once. When the answer is
// made of records the plugin stored (each written by Collection as JSON text), parsing every
// record only to dump it again costs more than the rest of the call: Collection::list_array()
// gives the stored texts joined into one JSON array, and a handler returning JsonText has it sent
// without a parse or a dump.
//
// The text must be one valid JSON value (RFC 8259). The host checks every answer before it is
// put in the `/api/v1` envelope and answers 500 "invalid JSON" otherwise, so a mistake is seen,
// never passed on; the fake host of the plugin tests parses it like any answer.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace platform {

struct JsonText {
    std::string text;

    // {"<key>": <value>}: `key` is written as a JSON string (escaped), `value` as it is.
    static JsonText object_of(std::string_view key, const JsonText& value) {
        std::string out;
        out.reserve(key.size() + value.text.size() + 8);
        out += "{";
        append_string(out, key);
        out += ":";
        out += value.text;
        out += "}";
        return JsonText{std::move(out)};
    }

    // `s` as a JSON string literal (quotes, backslashes and control characters escaped; other
    // bytes as they are).
    static void append_string(std::string& out, std::string_view s) {
        static const char hex[] = "0123456789abcdef";
        out += '"';
        for (const char c : s) {
            const auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                out += '\\';
                out += c;
            } else if (u < 0x20) {
                out += "\\u00";
                out += hex[u >> 4];
                out += hex[u & 15];
            } else {
                out += c;
            }
        }
        out += '"';
    }
};

}  // namespace platform
