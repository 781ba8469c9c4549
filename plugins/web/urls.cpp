// urls.cpp — resolve (readable.hpp): RFC 3986 reference resolution for the links of a page.
#include <platform/sdk/text.hpp>
#include <string>

#include "readable.hpp"

namespace web {

namespace {

struct Parts {
    std::string scheme, authority, path, query, fragment;
    bool has_scheme = false, has_authority = false, has_query = false, has_fragment = false;
};

Parts split(const std::string& u) {
    Parts p;
    std::string rest = u;
    const auto colon = rest.find(':');
    const auto first_delim = rest.find_first_of("/?#");
    if (colon != std::string::npos && colon > 0 &&
        (first_delim == std::string::npos || colon < first_delim) &&
        std::isalpha(static_cast<unsigned char>(rest[0]))) {
        bool ok = true;
        for (size_t i = 0; i < colon; ++i) {
            const char c = rest[i];
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.')
                ok = false;
        }
        if (ok) {
            p.has_scheme = true;
            p.scheme = platform::lower(rest.substr(0, colon));
            rest = rest.substr(colon + 1);
        }
    }
    if (const auto hash = rest.find('#'); hash != std::string::npos) {
        p.has_fragment = true;
        p.fragment = rest.substr(hash + 1);
        rest = rest.substr(0, hash);
    }
    if (const auto q = rest.find('?'); q != std::string::npos) {
        p.has_query = true;
        p.query = rest.substr(q + 1);
        rest = rest.substr(0, q);
    }
    if (rest.rfind("//", 0) == 0) {
        p.has_authority = true;
        const auto slash = rest.find('/', 2);
        p.authority = rest.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
        rest = slash == std::string::npos ? "" : rest.substr(slash);
    }
    p.path = rest;
    return p;
}

std::string remove_dot_segments(const std::string& in) {
    std::string input = in, out;
    while (!input.empty()) {
        if (input.rfind("../", 0) == 0)
            input.erase(0, 3);
        else if (input.rfind("./", 0) == 0)
            input.erase(0, 2);
        else if (input.rfind("/./", 0) == 0)
            input.replace(0, 3, "/");
        else if (input == "/.")
            input = "/";
        else if (input.rfind("/../", 0) == 0 || input == "/..") {
            input = input == "/.." ? "/" : input.substr(3);
            const auto last = out.rfind('/');
            out.erase(last == std::string::npos ? 0 : last);
        } else if (input == "." || input == "..")
            input.clear();
        else {
            const auto next = input.find('/', input[0] == '/' ? 1 : 0);
            out += input.substr(0, next);
            input = next == std::string::npos ? "" : input.substr(next);
        }
    }
    return out;
}

}  // namespace

std::string resolve(const std::string& base_url, const std::string& ref_in) {
    // Browsers strip leading and trailing spaces and drop tabs and line ends inside.
    std::string ref;
    for (char c : trim_space(ref_in))
        if (c != '\t' && c != '\n' && c != '\r') ref += c == '\\' ? '/' : c;
    const Parts base = split(base_url);
    if (!base.has_scheme) return {};
    const Parts r = split(ref);
    Parts t;
    if (r.has_scheme) {
        t = r;
        t.path = remove_dot_segments(r.path);
    } else {
        if (r.has_authority) {
            t.authority = r.authority;
            t.has_authority = true;
            t.path = remove_dot_segments(r.path);
            t.query = r.query;
            t.has_query = r.has_query;
        } else {
            if (r.path.empty()) {
                t.path = base.path;
                t.query = r.has_query ? r.query : base.query;
                t.has_query = r.has_query || base.has_query;
            } else {
                if (r.path[0] == '/') {
                    t.path = remove_dot_segments(r.path);
                } else {
                    std::string merged;
                    if (base.has_authority && base.path.empty())
                        merged = "/" + r.path;
                    else {
                        const auto last = base.path.rfind('/');
                        merged = (last == std::string::npos ? "" : base.path.substr(0, last + 1)) +
                                 r.path;
                    }
                    t.path = remove_dot_segments(merged);
                }
                t.query = r.query;
                t.has_query = r.has_query;
            }
            t.authority = base.authority;
            t.has_authority = base.has_authority;
        }
        t.scheme = base.scheme;
        t.has_scheme = true;
        t.fragment = r.fragment;
        t.has_fragment = r.has_fragment;
    }
    std::string out = t.scheme + ":";
    if (t.has_authority) out += "//" + t.authority;
    if (t.has_authority && (t.scheme == "http" || t.scheme == "https") && t.path.empty())
        out += "/";
    out += t.path;
    if (t.has_query) out += "?" + t.query;
    if (t.has_fragment) out += "#" + t.fragment;
    return out;
}

}  // namespace web
