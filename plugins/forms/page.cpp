#include <platform/sdk/text.hpp>

#include "forms.hpp"

using forms_util::html_escape;
using platform::json;

namespace {

std::string page_html(const std::string& title, const std::string& body) {
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           "<title>" +
           html_escape(title) +
           "</title>"
           "<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em}"
           "label{display:block;margin-top:1em}input,textarea{width:100%;box-sizing:border-box}</"
           "style>"
           "</head><body>\n" +
           body + "</body></html>\n";
}

std::string form_html(const json& form) {
    std::string out = "<h1>" + html_escape(form.value("title", "")) + "</h1>\n";
    const std::string description = form.value("description", "");
    if (!description.empty()) out += "<p>" + html_escape(description) + "</p>\n";
    if (form.value("closed", false)) return out + "<p><strong>This form is closed.</strong></p>\n";
    out +=
        "<form method=\"post\" action=\"/ui/forms/" + html_escape(form.value("id", "")) + "\">\n";
    for (const auto& f : form.at("fields")) {
        const std::string name = html_escape(f.value("name", "")), type = f.value("type", "text");
        const std::string required = f.value("required", false) ? " required" : "";
        out += "<label for=\"f-" + name + "\">" + html_escape(f.value("label", "")) +
               (required.empty() ? "" : " *") + "</label>\n";
        if (type == "textarea")
            out += "<textarea id=\"f-" + name + "\" name=\"" + name +
                   "\" rows=\"6\" maxlength=\"10000\"" + required + "></textarea>\n";
        else
            out += "<input id=\"f-" + name + "\" name=\"" + name + "\" type=\"" +
                   (type == "email" ? "email" : "text") + "\" maxlength=\"" +
                   (type == "email" ? "254" : "1000") + "\"" + required + ">\n";
    }
    return out + "<p><button type=\"submit\">Send</button></p>\n</form>\n";
}

// A form-encoded post came from a browser: it gets HTML back.
bool from_browser(const platform::Request& r) {
    const std::string type = platform::lower(r.header("content-type"));
    return type.rfind("application/x-www-form-urlencoded", 0) == 0;
}

}  // namespace

void Forms::page(platform::Request& r, platform::Responder out) {
    const std::string id = r.str("id");
    auto found = find(id);
    if (!found || (!found->second.value("public", false) && found->first != r.account()))
        throw platform::not_found("id: no form '" + id + "'");
    out.raw("text/html; charset=utf-8",
            page_html(found->second.value("title", ""), form_html(found->second)));
}

void Forms::submit(platform::Request& r, platform::Responder out) {
    const std::string id = r.str("id");
    auto found = find(id);
    if (!found || (!found->second.value("public", false) && found->first != r.account()))
        throw platform::not_found("id: no form '" + id + "'");
    const json& form = found->second;
    if (form.value("closed", false)) throw platform::permission_denied("id: this form is closed");
    json response = store_response(found->first, form, validate(form, r.args()));
    if (!from_browser(r)) return out.ok({{"response_id", response["response_id"]}, {"form", id}});
    out.raw("text/html; charset=utf-8",
            page_html(form.value("title", ""),
                      "<h1>" + html_escape(form.value("title", "")) +
                          "</h1>\n<p>Thank you: your answers were sent.</p>\n"));
}
