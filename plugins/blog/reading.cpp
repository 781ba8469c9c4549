#include <algorithm>

#include "blog.hpp"

using platform::json;

namespace {

bool newer(const json& a, const json& b) {
    return a.value("seq", 0LL) > b.value("seq", 0LL);
}

}  // namespace

std::vector<json> Blog::public_cards(const std::string& id) const {
    platform::ScanOptions o;
    o.prefix = id + "/";
    std::vector<json> out;
    for (auto& [key, card] : index().list(o)) out.push_back(std::move(card));
    return out;
}

std::optional<json> Blog::visible(platform::Request& r, const std::string& id) const {
    if (!r.anonymous())
        if (auto own = r.owned(kPosts).get(id)) return own;
    for (const auto& card : public_cards(id)) {
        auto post = platform::Collection(host_.store(), kPosts, card.value("author", "")).get(id);
        if (post && !post->value("private", false)) return post;
    }
    return std::nullopt;
}

json Blog::find(platform::Request& r, bool own_only) const {
    const std::string id = r.str("id"), title = r.str("title");
    if (!id.empty()) {
        if (!own_only) {
            if (auto post = visible(r, id)) return *post;
        } else if (auto own = r.owned(kPosts).get(id)) {
            return *own;
        } else if (!public_cards(id).empty()) {
            throw platform::permission_denied("id: post " + id + " was written by another account");
        }
        throw platform::not_found("id: no post '" + id + "'");
    }
    if (title.empty())
        throw platform::invalid_argument("id, title: give the post's id or its exact title");
    std::vector<json> matches;
    if (!r.anonymous())
        for (auto& [key, post] : r.owned(kPosts).list())
            if (post.value("title", "") == title) matches.push_back(std::move(post));
    if (matches.empty() && !own_only)
        for (auto& [key, card] : index().list())
            if (card.value("title", "") == title)
                if (auto post =
                        platform::Collection(host_.store(), kPosts, card.value("author", ""))
                            .get(card.value("id", ""));
                    post && !post->value("private", false))
                    matches.push_back(std::move(*post));
    if (matches.empty()) throw platform::not_found("title: no post titled '" + title + "'");
    if (matches.size() > 1) {
        std::string ids;
        for (const auto& m : matches) ids += (ids.empty() ? "" : ", ") + m.value("id", "");
        throw platform::invalid_argument("title: " + std::to_string(matches.size()) +
                                         " posts are titled '" + title + "'; give the id (" + ids +
                                         ")");
    }
    return matches.front();
}

std::vector<json> Blog::readable(platform::Request& r) const {
    std::vector<json> out;
    if (!r.anonymous())
        for (auto& [id, post] : r.owned(kPosts).list()) out.push_back(blog::card(post));
    for (auto& [key, card] : index().list())
        if (card.value("author", "") != r.account()) out.push_back(std::move(card));
    std::stable_sort(out.begin(), out.end(), newer);
    return out;
}

json Blog::read(platform::Request& r) {
    return blog::visible(find(r, false));
}

json Blog::list(platform::Request& r) {
    auto cards = readable(r);
    if (r.args().contains("limit"))
        cards.resize(std::min<size_t>(cards.size(), r["limit"].get<size_t>()));
    json out = json::array();
    for (auto& c : cards) out.push_back(blog::visible(std::move(c)));
    return {{"posts", out}};
}

json Blog::feed(platform::Request& r) {
    std::vector<json> cards;
    for (auto& [key, card] : index().list()) cards.push_back(std::move(card));
    std::stable_sort(cards.begin(), cards.end(), newer);
    const size_t offset = r["offset"].get<size_t>(), limit = r["limit"].get<size_t>();
    json posts = json::array();
    for (size_t i = offset; i < cards.size() && posts.size() < limit; ++i) {
        const json& card = cards[i];
        auto post = platform::Collection(host_.store(), kPosts, card.value("author", ""))
                        .get(card.value("id", ""));
        if (post && !post->value("private", false))
            posts.push_back(blog::visible(std::move(*post)));
    }
    return {{"posts", posts}, {"total", cards.size()}, {"offset", offset}};
}
