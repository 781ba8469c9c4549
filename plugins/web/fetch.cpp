// web/fetch: the caller's URL through the host's outbound client as a user URL (the SSRF guard
// decides every hop), then the answer read as readable content (readable.hpp).
#include <algorithm>

#include "readable.hpp"
#include "web.hpp"

using platform::Code;
using platform::Error;
using platform::json;

namespace web {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
}

// "text/html; charset=ISO-8859-1" → ("text/html", "iso-8859-1").
std::pair<std::string, std::string> media_type(const std::string& content_type) {
    const std::string ct = lower(content_type);
    const auto semi = ct.find(';');
    const std::string type = trim(ct.substr(0, semi));
    std::string charset;
    if (semi != std::string::npos) {
        const auto at = ct.find("charset=", semi);
        if (at != std::string::npos) {
            charset = ct.substr(at + 8);
            charset = trim(charset.substr(0, charset.find(';')));
            if (charset.size() >= 2 && charset.front() == '"' && charset.back() == '"')
                charset = charset.substr(1, charset.size() - 2);
        }
    }
    return {type, charset};
}

bool looks_like_markup(const std::string& body) {
    const auto first = body.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    return first != std::string::npos && body[first] == '<';
}

// Line ends as "\n".
std::string unix_lines(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\r') {
            out += '\n';
            if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
        } else {
            out += s[i];
        }
    }
    return out;
}

size_t chars(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

}  // namespace

json page_answer(int status, const std::string& content_type, const std::string& body,
                 const std::string& requested, const std::string& final_url) {
    const std::string where = final_url.empty() ? requested : final_url;
    if (status < 200 || status > 299)
        throw Error(Code::bad_gateway, "url: " + where + " answered HTTP " +
                                           std::to_string(status) + " (only a 2xx answer is read)");
    auto [type, charset] = media_type(content_type);
    const bool html = type == "text/html" || type == "application/xhtml+xml" ||
                      (type.empty() && looks_like_markup(body));
    const bool plain = type == "text/plain" || type == "text/markdown" || type.empty();
    if (!html && !plain)
        throw platform::invalid_argument(
            "url: " + where + " is " + type +
            "; web/fetch reads HTML (text/html, application/xhtml+xml) and plain text only");

    json out = {{"url", requested},
                {"final_url", where},
                {"status", status},
                {"content_type", type.empty() ? json(nullptr) : json(type)}};
    if (html) {
        // gumbo reads UTF-8: another declared charset (the header's, else the page's own
        // <meta>) is converted first.
        if (too_deep(body))
            throw Error(Code::bad_gateway, "url: " + where + " nests its elements more than " +
                                               std::to_string(kMaxNesting) +
                                               " deep; web/fetch does not read it");
        if (charset.empty())
            if (auto declared = declared_charset(body)) charset = *declared;
        const Page page = readable(to_utf8(body, charset), where);
        json links = json::array();
        for (const Link& l : page.links) links.push_back({{"url", l.url}, {"text", l.text}});
        out["title"] = page.title.empty() ? json(nullptr) : json(page.title);
        out["description"] = page.description.empty() ? json(nullptr) : json(page.description);
        out["lang"] = page.lang.empty() ? json(nullptr) : json(page.lang);
        out["text"] = page.text;
        out["characters"] = chars(page.text);
        out["truncated"] = page.truncated;
        out["links"] = links;
        out["links_truncated"] = page.links_truncated;
    } else {
        bool cut = false;
        std::string text = unix_lines(to_utf8(body, charset));
        const auto a = text.find_first_not_of(" \t\n");
        text = a == std::string::npos ? "" : text.substr(a);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\t'))
            text.pop_back();
        text = cut_text(text, kMaxTextChars, &cut);
        out["title"] = nullptr;
        out["description"] = nullptr;
        out["lang"] = nullptr;
        out["text"] = text;
        out["characters"] = chars(text);
        out["truncated"] = cut;
        out["links"] = json::array();
        out["links_truncated"] = false;
    }
    return out;
}

}  // namespace web

json Web::fetch(platform::Request& r) {
    const std::string url = r.str("url");
    platform::HttpRequest req;
    req.url = url;
    req.headers["Accept"] = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1";
    req.max_bytes = web::kMaxPageBytes;
    req.timeout_ms = web::kFetchTimeoutMs;
    req.operator_url = false;  // the caller's URL: the host's SSRF guard applies to every hop
    platform::HttpResponse resp;
    try {
        resp = host_.fetch(req);
    } catch (const Error& e) {
        const std::string why = e.what();
        switch (e.code()) {
            case Code::permission_denied:
                throw Error(Code::permission_denied, "url: " + why);
            case Code::invalid_argument:
                throw platform::invalid_argument("url: " + why);
            case Code::timeout:
            case Code::deadline_exceeded:
                throw Error(Code::deadline_exceeded,
                            "url: the site did not answer in time (" + why + ")");
            case Code::payload_too_large:
                throw Error(Code::bad_gateway, "url: the page is larger than " +
                                                   std::to_string(web::kMaxPageBytes >> 20) +
                                                   " MiB, the most web/fetch reads");
            case Code::bad_gateway:
                throw Error(Code::bad_gateway, "url: could not fetch the page: " + why);
            default:
                throw;
        }
    }
    std::string content_type;
    if (resp.headers.is_object())
        if (auto it = resp.headers.find("content-type");
            it != resp.headers.end() && it->is_string())
            content_type = it->get<std::string>();
    return web::page_answer(resp.status, content_type, resp.body, url, resp.final_url);
}
