#include "build_model.hpp"

#include <algorithm>

#include "fields.hpp"

namespace apps_build {

using platform::json;

namespace {

const char* const kSystem =
    "You build small web apps for the Platform service. Reply by calling the tool app_html exactly "
    "once with the finished app: `name` (a short title), `description` (one sentence) and `html` "
    "(the whole app). The app is ONE self-contained HTML5 document of at most 256 KB: inline "
    "<style> and <script> only; no external scripts, stylesheets, fonts, images or links (data: "
    "URLs are fine). It runs in an iframe sandboxed with allow-scripts only, under a "
    "Content-Security-Policy that blocks every network request: it has no cookies, localStorage, "
    "sessionStorage or indexedDB, and cannot navigate the top window. To use the owner's data it "
    "calls `platform.call(service, method, args)`, which returns a Promise of the method's data "
    "(or rejects with an Error carrying status and message); `fetch('/api/v1/<service>/<method>', "
    "{method: 'POST', body: JSON.stringify(args)})` works the same way. Call only the methods "
    "listed below. Make it accessible (labels, buttons, keyboard use) and keep its state in "
    "memory unless a listed method stores it.";

// The <title> of a document, or "".
std::string title_of(const std::string& html) {
    const std::string low = platform::lower(html);
    const size_t open = low.find("<title");
    if (open == std::string::npos) return "";
    const size_t start = low.find('>', open);
    const size_t end = low.find("</title>", open);
    if (start == std::string::npos || end == std::string::npos || end < start) return "";
    std::string t = html.substr(start + 1, end - start - 1);
    t.erase(0, t.find_first_not_of(" \t\r\n"));
    t.erase(t.find_last_not_of(" \t\r\n") + 1);
    return t;
}

// A whole HTML document in a text answer: a ```html fence, else <!doctype/<html ... </html>.
std::string document_in(const std::string& text) {
    const size_t fence = text.find("```html");
    if (fence != std::string::npos) {
        const size_t start = text.find('\n', fence);
        const size_t end = start == std::string::npos ? start : text.find("```", start);
        if (end != std::string::npos) return text.substr(start + 1, end - start - 1);
    }
    const std::string low = platform::lower(text);
    size_t start = low.find("<!doctype html");
    if (start == std::string::npos) start = low.find("<html");
    const size_t end = low.rfind("</html>");
    if (start == std::string::npos || end == std::string::npos || end < start) return "";
    return text.substr(start, end + 7 - start);
}

}  // namespace

json model_request(const std::string& prompt, const std::vector<std::string>& methods) {
    std::string system = kSystem;
    system += "\n\nMethods the app may call (service/method):";
    const size_t shown = std::min<size_t>(methods.size(), 150);
    for (size_t i = 0; i < shown; ++i) system += (i ? ", " : " ") + methods[i];
    if (shown == 0) system += " none";
    json schema = {{"type", "object"},
                   {"properties",
                    {{"name", {{"type", "string"}, {"description", "The app's title"}}},
                     {"description", {{"type", "string"}, {"description", "What it does"}}},
                     {"html", {{"type", "string"}, {"description", "The whole HTML document"}}}}},
                   {"required", {"name", "html"}}};
    return {{"system", system},
            {"messages", json::array({{{"role", "user"}, {"content", prompt}}})},
            {"tools", json::array({{{"name", kTool},
                                    {"description", "Hands back the finished app (call it once)"},
                                    {"input_schema", schema}}})},
            {"max_tokens", 16000}};
}

std::optional<Built> read_reply(const json& reply, std::string* why) {
    if (!reply.is_object()) {
        *why = "the model's answer is not a JSON object";
        return std::nullopt;
    }
    for (const auto& call : reply.value("tool_calls", json::array())) {
        if (!call.is_object() || apps_fields::text(call, "name") != kTool) continue;
        json args = call.value("arguments", json::object());
        if (args.is_string()) args = json::parse(args.get<std::string>(), nullptr, false);
        if (!args.is_object() || apps_fields::text(args, "html").empty()) {
            *why = "the model called app_html without an `html` string";
            return std::nullopt;
        }
        return Built{apps_fields::text(args, "name"), apps_fields::text(args, "description"),
                     apps_fields::text(args, "html")};
    }
    const std::string text = apps_fields::text(reply, "text");
    const std::string doc = document_in(text);
    if (!doc.empty()) return Built{title_of(doc), "", doc};
    *why = text.empty() ? "the model answered neither app_html nor an HTML document"
                        : "the model did not build an app: " + platform::utf8_prefix(text, 400) +
                              (platform::utf8_length(text) > 400 ? "..." : "");
    return std::nullopt;
}

}  // namespace apps_build
