#include "static_check.hpp"

#include <algorithm>
#include <optional>

namespace apps_check {

namespace {

constexpr size_t kMaxProblems = 100;

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
bool letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool ident_char(char c) {
    return letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
}
std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}
bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}
std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && space(s[b])) ++b;
    while (e > b && space(s[e - 1])) --e;
    return std::string(s.substr(b, e - b));
}
// At most 60 characters of `s`, for messages.
std::string shown(std::string_view s) {
    return s.size() <= 60 ? std::string(s) : std::string(s.substr(0, 57)) + "...";
}

bool one_of(std::string_view s, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (s == n) return true;
    return false;
}
bool void_element(std::string_view n) {
    return one_of(n, {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                      "param", "source", "track", "wbr"});
}
// Elements whose end tag HTML lets an author leave out.
bool optional_end(std::string_view n) {
    return one_of(n, {"html",   "head",     "body",    "p",  "li", "dt",    "dd",
                      "option", "optgroup", "tr",      "td", "th", "thead", "tbody",
                      "tfoot",  "colgroup", "caption", "rb", "rt", "rtc",   "rp"});
}
// A URL that leaves the app: a scheme with an authority, or protocol-relative.
bool absolute_url(std::string_view raw) {
    const std::string v = lower(trim(raw));
    for (const char* scheme : {"http:", "https:", "ws:", "wss:", "ftp:", "file:"})
        if (starts_with(v, scheme)) return true;
    return starts_with(v, "//");
}
// A reference with something to load that is not inside the document itself.
bool loads_outside(std::string_view raw) {
    const std::string v = lower(trim(raw));
    return !(v.empty() || starts_with(v, "data:") || starts_with(v, "blob:") ||
             starts_with(v, "#"));
}
// The first absolute URL in a script string (XML namespaces of www.w3.org excepted), or "".
std::string url_in(std::string_view s) {
    const std::string low = lower(s);
    for (const char* scheme : {"http://", "https://", "ws://", "wss://"}) {
        for (size_t at = low.find(scheme); at != std::string::npos; at = low.find(scheme, at + 1)) {
            if (low.compare(at, 18, "http://www.w3.org/") == 0) continue;
            size_t end = at;
            while (end < s.size() && !space(s[end]) && s[end] != '"' && s[end] != '\'') ++end;
            return std::string(s.substr(at, end - at));
        }
    }
    if (starts_with(low, "//") && low.size() > 2 && ident_char(low[2])) return std::string(s);
    return "";
}

struct Token {
    enum Kind { ident, string, punct, number } kind;
    std::string text;  // the identifier, the string's contents, the punctuation character
    size_t offset;     // in the HTML
};

// A JavaScript lexer good enough to find calls: comments skipped, strings and template literals
// read (their ${} parts stay inside the string), regular expression literals skipped when a '/'
// cannot be division.
std::vector<Token> lex(std::string_view code, size_t base) {
    std::vector<Token> out;
    size_t i = 0;
    auto regex_allowed = [&] {
        if (out.empty()) return true;
        const Token& t = out.back();
        if (t.kind == Token::punct) return t.text != ")" && t.text != "]" && t.text != "}";
        return t.kind == Token::ident &&
               one_of(t.text, {"return", "typeof", "case", "do", "else", "in", "of", "new",
                               "delete", "void", "throw", "yield", "await"});
    };
    while (i < code.size()) {
        const char c = code[i];
        if (space(c)) {
            ++i;
        } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
            while (i < code.size() && code[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
            const size_t end = code.find("*/", i + 2);
            i = end == std::string_view::npos ? code.size() : end + 2;
        } else if (c == '"' || c == '\'' || c == '`') {
            const size_t start = i++;
            std::string text;
            while (i < code.size() && code[i] != c) {
                if (code[i] == '\\' && i + 1 < code.size()) ++i;
                if (c != '`' && code[i] == '\n') break;
                text += code[i++];
            }
            ++i;
            out.push_back({Token::string, std::move(text), base + start});
        } else if (c == '/' && regex_allowed()) {
            bool in_class = false;
            for (++i; i < code.size() && code[i] != '\n'; ++i) {
                if (code[i] == '\\') {
                    ++i;
                } else if (code[i] == '[') {
                    in_class = true;
                } else if (code[i] == ']') {
                    in_class = false;
                } else if (code[i] == '/' && !in_class) {
                    ++i;
                    break;
                }
            }
            while (i < code.size() && letter(code[i])) ++i;  // flags
        } else if (ident_char(c) && !(c >= '0' && c <= '9')) {
            const size_t start = i;
            while (i < code.size() && ident_char(code[i])) ++i;
            out.push_back({Token::ident, std::string(code.substr(start, i - start)), base + start});
        } else if (c >= '0' && c <= '9') {
            const size_t start = i;
            while (i < code.size() && (ident_char(code[i]) || code[i] == '.')) ++i;
            out.push_back(
                {Token::number, std::string(code.substr(start, i - start)), base + start});
        } else {
            out.push_back({Token::punct, std::string(1, c), base + i});
            ++i;
        }
    }
    return out;
}

class Checker {
public:
    Checker(std::string_view html, const std::set<std::string>& callable, bool check_calls)
        : html_(html), callable_(callable), check_calls_(check_calls) {
        lines_.push_back(0);
        for (size_t i = 0; i < html.size(); ++i)
            if (html[i] == '\n') lines_.push_back(i + 1);
    }

    std::vector<Problem> run(size_t max_bytes) {
        if (html_.size() > max_bytes)
            add("size", "the HTML is " + std::to_string(html_.size()) + " bytes; at most " +
                            std::to_string(max_bytes) + " (256 KB)");
        markup();
        std::stable_sort(out_.begin(), out_.end(),
                         [](const Problem& a, const Problem& b) { return a.line < b.line; });
        return std::move(out_);
    }

private:
    struct Open {
        std::string name;
        size_t offset;
    };

    int line(size_t offset) const {
        return static_cast<int>(std::upper_bound(lines_.begin(), lines_.end(), offset) -
                                lines_.begin());
    }
    void add(const char* rule, std::string message, std::optional<size_t> offset = {}) {
        if (out_.size() >= kMaxProblems) return;
        out_.push_back({rule, std::move(message), offset ? line(*offset) : 0});
    }
    bool foreign() const {
        for (const auto& o : stack_)
            if (o.name == "svg" || o.name == "math") return true;
        return false;
    }

    // The tags, in order; stops at the first thing that swallows the rest of the document.
    void markup() {
        size_t pos = 0;
        while (pos < html_.size()) {
            const size_t lt = html_.find('<', pos);
            if (lt == std::string_view::npos) break;
            const std::string_view rest = html_.substr(lt);
            if (starts_with(rest, "<!--")) {
                const size_t end = html_.find("-->", lt + 4);
                if (end == std::string_view::npos)
                    return add("well-formed", "a comment (<!--) is never closed with -->", lt);
                pos = end + 3;
            } else if (starts_with(rest, "<![CDATA[")) {
                const size_t end = html_.find("]]>", lt);
                if (end == std::string_view::npos)
                    return add("well-formed", "a CDATA section is never closed with ]]>", lt);
                pos = end + 3;
            } else if (starts_with(rest, "<!") || starts_with(rest, "<?")) {
                const size_t end = html_.find('>', lt);
                if (end == std::string_view::npos)
                    return add(
                        "well-formed",
                        "a declaration (" + shown(rest.substr(0, 9)) + ") is never closed with >",
                        lt);
                pos = end + 1;
            } else if (starts_with(rest, "</")) {
                size_t i = lt + 2;
                while (i < html_.size() &&
                       (ident_char(html_[i]) || html_[i] == ':' || html_[i] == '-'))
                    ++i;
                const std::string name = lower(html_.substr(lt + 2, i - lt - 2));
                const size_t end = html_.find('>', i);
                if (name.empty()) {
                    add("well-formed", "'</' starts no end tag (write &lt;/ for the text)", lt);
                    pos = lt + 2;
                    continue;
                }
                if (end == std::string_view::npos)
                    return add("well-formed", "</" + name + " is never closed with >", lt);
                close(name, lt);
                pos = end + 1;
            } else if (lt + 1 < html_.size() && letter(html_[lt + 1])) {
                if (!open_tag(lt, pos)) return;
            } else {
                pos = lt + 1;  // a '<' in text
            }
        }
        for (const auto& o : stack_)
            if (!optional_end(o.name))
                add("well-formed",
                    "<" + o.name + "> opened on line " + std::to_string(line(o.offset)) +
                        " is never closed",
                    o.offset);
        stack_.clear();
    }

    // One start tag at `lt`; `pos` moves past it (and past a script's or style's text). False
    // when the rest of the document is swallowed.
    bool open_tag(size_t lt, size_t& pos) {
        size_t i = lt + 1;
        while (i < html_.size() && (ident_char(html_[i]) || html_[i] == ':' || html_[i] == '-'))
            ++i;
        const std::string name = lower(html_.substr(lt + 1, i - lt - 1));
        std::set<std::string> seen;
        std::string script_type;
        bool self_closing = false;
        for (;;) {
            while (i < html_.size() && space(html_[i])) ++i;
            if (i >= html_.size()) {
                add("well-formed", "<" + name + " is never closed with >", lt);
                return false;
            }
            if (html_[i] == '>') {
                ++i;
                break;
            }
            if (html_[i] == '/') {
                if (i + 1 < html_.size() && html_[i + 1] == '>') {
                    self_closing = true;
                    i += 2;
                    break;
                }
                ++i;
                continue;
            }
            const size_t at = i;
            while (i < html_.size() && !space(html_[i]) && html_[i] != '>' && html_[i] != '=' &&
                   !(html_[i] == '/' && i + 1 < html_.size() && html_[i + 1] == '>'))
                ++i;
            const std::string attr = lower(html_.substr(at, i - at));
            while (i < html_.size() && space(html_[i])) ++i;
            std::string_view value;
            size_t value_at = i;
            if (i < html_.size() && html_[i] == '=') {
                ++i;
                while (i < html_.size() && space(html_[i])) ++i;
                if (i < html_.size() && (html_[i] == '"' || html_[i] == '\'')) {
                    const char q = html_[i];
                    const size_t end = html_.find(q, i + 1);
                    if (end == std::string_view::npos) {
                        add("well-formed",
                            "the value of " + attr + " in <" + name + "> never ends (no closing " +
                                q + ")",
                            at);
                        return false;
                    }
                    value_at = i + 1;
                    value = html_.substr(i + 1, end - i - 1);
                    i = end + 1;
                } else {
                    value_at = i;
                    while (i < html_.size() && !space(html_[i]) && html_[i] != '>') ++i;
                    value = html_.substr(value_at, i - value_at);
                }
            }
            if (!seen.insert(attr).second)
                add("well-formed", "<" + name + "> has the attribute " + attr + " twice", at);
            attribute(name, attr, value, value_at);
            if (name == "script" && attr == "type") script_type = lower(trim(value));
        }
        pos = i;
        if (void_element(name)) return true;
        if (self_closing) {
            if (!foreign() && name != "svg" && name != "math")
                add("well-formed",
                    "<" + name + "/>: HTML ignores the / on a non-void element; write <" + name +
                        "></" + name + ">",
                    lt);
            return true;
        }
        if (one_of(name, {"script", "style", "textarea", "title"})) {
            const std::string low = lower(html_.substr(i));
            const size_t close = low.find("</" + name);
            if (close == std::string::npos) {
                add("well-formed",
                    "<" + name + "> opened on line " + std::to_string(line(lt)) +
                        " is never closed",
                    lt);
                return false;
            }
            const std::string_view text = html_.substr(i, close);
            if (name == "script" && (script_type.empty() || script_type == "module" ||
                                     script_type.find("javascript") != std::string::npos ||
                                     script_type.find("ecmascript") != std::string::npos))
                script(text, i);
            if (name == "style") style(text, i);
            const size_t end = html_.find('>', i + close);
            if (end == std::string_view::npos) {
                add("well-formed", "</" + name + " is never closed with >", i + close);
                return false;
            }
            pos = end + 1;
            return true;
        }
        stack_.push_back({name, lt});
        return true;
    }

    void close(const std::string& name, size_t at) {
        if (void_element(name)) {
            add("well-formed", "</" + name + ">: <" + name + "> is a void element with no end tag",
                at);
            return;
        }
        auto it = std::find_if(stack_.rbegin(), stack_.rend(),
                               [&](const Open& o) { return o.name == name; });
        if (it == stack_.rend()) {
            add("well-formed", "</" + name + "> closes nothing: no <" + name + "> is open", at);
            return;
        }
        const size_t index = static_cast<size_t>(stack_.rend() - it) - 1;
        for (size_t k = index + 1; k < stack_.size(); ++k)
            if (!optional_end(stack_[k].name))
                add("well-formed",
                    "<" + stack_[k].name + "> opened on line " +
                        std::to_string(line(stack_[k].offset)) + " is not closed before </" + name +
                        ">",
                    stack_[k].offset);
        stack_.resize(index);
    }

    void attribute(const std::string& tag, const std::string& attr, std::string_view value,
                   size_t at) {
        if (attr.size() > 2 && starts_with(attr, "on")) return script(value, at);
        if (attr == "style") return style(value, at);
        const bool loads = one_of(attr, {"src", "data", "poster", "background", "srcset"}) ||
                           ((attr == "href" || attr == "xlink:href") &&
                            one_of(tag, {"link", "image", "use", "feimage", "script"}));
        const bool links = one_of(attr, {"href", "xlink:href", "action", "formaction", "cite",
                                         "ping", "manifest", "codebase"});
        if (loads) {
            if (attr == "srcset") {
                size_t start = 0;
                while (start < value.size()) {
                    size_t comma = value.find(',', start);
                    if (comma == std::string_view::npos) comma = value.size();
                    std::string item = trim(value.substr(start, comma - start));
                    item = item.substr(0, item.find(' '));
                    if (loads_outside(item))
                        return add("external",
                                   "<" + tag + " srcset> loads \"" + shown(item) +
                                       "\"; an app is one file: use a data: URL",
                                   at);
                    start = comma + 1;
                }
            } else if (loads_outside(value) && tag == "script") {
                add("external",
                    "<script " + attr + "=\"" + shown(value) +
                        "\"> loads another file; an app is one file: put the script "
                        "inline",
                    at);
            } else if (loads_outside(value)) {
                add("external",
                    "<" + tag + " " + attr + "=\"" + shown(value) +
                        "\"> loads something outside the app; use a data: URL",
                    at);
            }
        } else if (links && absolute_url(value)) {
            add("external",
                "<" + tag + " " + attr + "=\"" + shown(value) + "\"> points outside the app", at);
        }
    }

    void style(std::string_view css, size_t base) {
        const std::string low = lower(css);
        for (size_t at = low.find("url("); at != std::string::npos; at = low.find("url(", at + 4)) {
            const size_t end = low.find(')', at);
            std::string arg =
                trim(css.substr(at + 4, (end == std::string::npos ? low.size() : end) - at - 4));
            if (!arg.empty() && (arg.front() == '"' || arg.front() == '\'')) arg = arg.substr(1);
            if (!arg.empty() && (arg.back() == '"' || arg.back() == '\'')) arg.pop_back();
            if (loads_outside(arg))
                add("external",
                    "url(" + shown(arg) +
                        ") in a style loads something outside the app; use a "
                        "data: URL",
                    base + at);
        }
        for (size_t at = low.find("@import"); at != std::string::npos;
             at = low.find("@import", at + 7))
            add("external", "@import loads a stylesheet from outside the app; put it inline",
                base + at);
    }

    void script(std::string_view code, size_t base) {
        const std::vector<Token> t = lex(code, base);
        std::set<size_t> reported;  // strings already named by a fetch problem
        auto is = [&](size_t k, Token::Kind kind, const char* text = nullptr) {
            return k < t.size() && t[k].kind == kind && (!text || t[k].text == text);
        };
        auto after_dot = [&](size_t k) { return k > 0 && is(k - 1, Token::punct, "."); };
        // `name` as a global: not a property of anything but window, self or globalThis.
        auto global = [&](size_t k) {
            return !after_dot(k) || (k >= 2 && t[k - 2].kind == Token::ident &&
                                     one_of(t[k - 2].text, {"window", "self", "globalThis"}));
        };
        for (size_t k = 0; k < t.size(); ++k) {
            const Token& tok = t[k];
            if (tok.kind == Token::string) {
                if (reported.count(k)) continue;
                const std::string url = url_in(tok.text);
                if (!url.empty())
                    add("external", "the script refers to " + shown(url) + ", outside the app",
                        tok.offset);
                continue;
            }
            if (tok.kind != Token::ident) continue;
            const std::string& w = tok.text;
            if (one_of(w, {"XMLHttpRequest", "WebSocket", "EventSource", "importScripts",
                           "RTCPeerConnection"}) &&
                global(k)) {
                add("external",
                    w + " reaches outside the app; call services with platform.call(service, "
                        "method, args)",
                    tok.offset);
            } else if (w == "sendBeacon" && after_dot(k)) {
                add("external", "navigator.sendBeacon reaches outside the app", tok.offset);
            } else if (w == "import" && is(k + 1, Token::punct, "(") && !after_dot(k)) {
                add("external", "import() loads code from outside the app", tok.offset);
            } else if (w == "fetch" && is(k + 1, Token::punct, "(") && global(k)) {
                if (!is(k + 2, Token::string)) continue;  // a computed URL: not checked
                reported.insert(k + 2);
                fetch_call(t[k + 2].text, tok.offset);
            } else if (w == "platform" && is(k + 1, Token::punct, ".") && is(k + 2, Token::ident) &&
                       global(k)) {
                const std::string& member = t[k + 2].text;
                if (member != "call") {
                    add("sdk",
                        "platform." + member +
                            " is not part of the app SDK (platform.call(service, method, args))",
                        tok.offset);
                } else if (is(k + 3, Token::punct, "(") && is(k + 4, Token::string) &&
                           is(k + 5, Token::punct, ",") && is(k + 6, Token::string)) {
                    callable(t[k + 4].text, t[k + 6].text,
                             "platform.call('" + shown(t[k + 4].text) + "', '" +
                                 shown(t[k + 6].text) + "')",
                             tok.offset);
                }
            } else if (w == "cookie" && after_dot(k) && k >= 2 && t[k - 2].text == "document") {
                add("sandbox",
                    "document.cookie: a sandboxed app has no cookies (it has an opaque origin)",
                    tok.offset);
            } else if (one_of(w, {"localStorage", "sessionStorage", "indexedDB"}) && global(k)) {
                add("sandbox",
                    w + " is not available to a sandboxed app (it has an opaque origin); keep "
                        "data through platform.call",
                    tok.offset);
            } else if ((w == "top" || w == "parent") && global(k) && is(k + 1, Token::punct, ".") &&
                       is(k + 2, Token::ident, "location")) {
                add("sandbox", w + ".location: a sandboxed app cannot navigate the page around it",
                    tok.offset);
            }
        }
    }

    void fetch_call(const std::string& url, size_t at) {
        if (starts_with(url, "/api/v1/")) {
            if (url.find("${") != std::string::npos) return;  // a template: not checked
            std::string path = url.substr(8);
            path = path.substr(0, path.find_first_of("?#"));
            const size_t slash = path.find('/');
            if (slash == std::string::npos || slash == 0 || slash + 1 >= path.size() ||
                path.find('/', slash + 1) != std::string::npos)
                return add(
                    "sdk",
                    "fetch('" + shown(url) + "'): the path must be /api/v1/<service>/<method>", at);
            return callable(path.substr(0, slash), path.substr(slash + 1),
                            "fetch('" + shown(url) + "')", at);
        }
        add("external",
            "fetch('" + shown(url) +
                "'): an app reaches only /api/v1/<service>/<method>, through the sandbox bridge",
            at);
    }

    void callable(const std::string& service, const std::string& method, const std::string& what,
                  size_t at) {
        if (service.find("${") != std::string::npos || method.find("${") != std::string::npos)
            return;  // a template: not checked
        if (check_calls_ && !callable_.count(service + "/" + method))
            add("sdk", what + ": " + service + "/" + method + " is not a method this app may call",
                at);
    }

    std::string_view html_;
    const std::set<std::string>& callable_;
    bool check_calls_;
    std::vector<size_t> lines_;
    std::vector<Open> stack_;
    std::vector<Problem> out_;
};

}  // namespace

const std::vector<std::string>& rules() {
    static const std::vector<std::string> all = {"size", "well-formed", "sdk", "external",
                                                 "sandbox"};
    return all;
}

std::vector<Problem> check(std::string_view html, size_t max_bytes,
                           const std::set<std::string>& callable, bool check_calls) {
    return Checker(html, callable, check_calls).run(max_bytes);
}

}  // namespace apps_check
