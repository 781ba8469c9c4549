#include <algorithm>
#include <cctype>

#include "social.hpp"

using platform::json;

namespace {

using platform::lower;

}  // namespace

namespace social {

std::vector<json> public_posts(const platform::Host& host, platform::Request& r) {
    std::vector<json> out;
    for (size_t offset = 0;;) {
        platform::Host::CallResult page;
        try {
            page = host.call("v1.blog", "feed", {{"offset", offset}, {"limit", 100}}, r.call());
        } catch (const platform::Error& e) {
            if (e.code() == platform::Code::not_found) return out;  // no blog service
            throw;
        }
        if (!page.ok()) throw platform::Error(page.code, "blog/feed: " + page.body);
        const json body = json::parse(page.body, nullptr, false);
        const json posts = body.is_object() ? body.value("posts", json::array()) : json::array();
        for (const auto& p : posts) out.push_back(p);
        offset += posts.size();
        if (posts.empty() || offset >= body.value("total", size_t{0})) return out;
    }
}

json announcement(const json& post) {
    const std::string title = post.value("title", ""), content = post.value("content", "");
    size_t cut =
        std::min<size_t>(content.size(), 200);  // bytes, backed off to a whole UTF-8 character
    while (cut < content.size() && cut > 0 &&
           (static_cast<unsigned char>(content[cut]) & 0xC0) == 0x80)
        --cut;
    const std::string snippet = content.substr(0, cut);
    return {{"id", post.value("id", "")},
            {"title", title},
            {"text", title + " — " + snippet + (content.size() > snippet.size() ? "…" : "")},
            {"author", post.value("author", "")},
            {"url", post.value("url", "")},
            {"tags", post.value("tags", "")},
            {"post", post.value("id", "")},
            {"created", post.value("created", "")}};
}

bool matches(const json& item, const std::string& query,
             std::initializer_list<const char*> fields) {
    std::string hay;
    for (const char* f : fields)
        if (item.contains(f) && item[f].is_string())
            hay += lower(item[f].get<std::string>()) + "\n";
    const std::string q = lower(query);
    size_t i = 0, found = 0;
    while (i < q.size()) {
        while (i < q.size() && std::isspace(static_cast<unsigned char>(q[i]))) ++i;
        size_t j = i;
        while (j < q.size() && !std::isspace(static_cast<unsigned char>(q[j]))) ++j;
        if (j > i) {
            if (hay.find(q.substr(i, j - i)) == std::string::npos) return false;
            ++found;
        }
        i = j;
    }
    return found > 0;
}

}  // namespace social
