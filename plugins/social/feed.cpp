#include <algorithm>
#include <cctype>

#include "common/paging/paged_call.hpp"
#include "social.hpp"

using platform::json;

namespace {

using platform::lower;

const common::paging::PagedMethod kBlogFeed{"v1.blog", "feed", "posts", "blog/feed"};

}  // namespace

namespace social {

std::vector<json> public_posts(const platform::Host& host, platform::Request& r) {
    return common::paging::all_pages(host, r.call(), kBlogFeed);
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
