#include "common/reminder/reminder.hpp"

#include <cctype>
#include <regex>
#include <vector>

namespace common::reminder {

using common::upstream::Malformed;

const common::upstream::Provider kReminder{"reminder", "Reminder (reminder.dev)", kSite,
                                           24 * 60 * 60 * 1000};

namespace {

const json& field(const json& o, const char* name) {
    if (!o.is_object()) throw Malformed("expected an object");
    auto it = o.find(name);
    if (it == o.end()) throw Malformed(std::string("no `") + name + "`");
    return *it;
}
std::string text(const json& o, const char* name) {
    const json& v = field(o, name);
    if (!v.is_string()) throw Malformed(std::string("`") + name + "` is not text");
    return v.get<std::string>();
}
std::string text_or(const json& o, const char* name, const char* other = nullptr) {
    if (!o.is_object()) return "";
    for (const char* n : {name, other})
        if (n)
            if (auto it = o.find(n); it != o.end() && it->is_string())
                return it->get<std::string>();
    return "";
}
int number(const json& o, const char* name) {
    const json& v = field(o, name);
    if (v.is_number_integer()) return v.get<int>();
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (!s.empty() && s.size() < 7 && std::all_of(s.begin(), s.end(), ::isdigit))
            return std::stoi(s);
    }
    throw Malformed(std::string("`") + name + "` is not a number");
}
// A member in either spelling: Go's untagged fields are capitalised ("Text"), tagged ones not.
const json* member(const json& o, const char* lower, const char* upper) {
    if (!o.is_object()) return nullptr;
    if (auto it = o.find(lower); it != o.end()) return &*it;
    if (auto it = o.find(upper); it != o.end()) return &*it;
    return nullptr;
}
std::string trim(std::string s) {
    while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ':'))
        s.pop_back();
    size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
}
// "Volume 1, Book 2, Number 13:" -> 13; 0 without one.
int hadith_number(const std::string& info) {
    static const std::regex n("Number\\s*([0-9]{1,6})");
    std::smatch m;
    return std::regex_search(info, m, n) ? std::stoi(m[1]) : 0;
}
bool digits(const std::string& s) {
    return !s.empty() && s.size() <= 6 && std::all_of(s.begin(), s.end(), ::isdigit);
}
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t at; (at = s.find(sep, from)) != std::string::npos; from = at + 1)
        out.push_back(s.substr(from, at - from));
    out.push_back(s.substr(from));
    return out;
}

}  // namespace

std::string collection_of(const std::string& source) {
    if (source == "quran" || source == "tafsir") return "quran";
    if (source == "bukhari" || source == "hadith") return "hadith";
    return source;
}

json verse_from(const json& body) {
    const int chapter = number(body, "chapter");
    const int verse = number(body, "number");
    const std::string ref = std::to_string(chapter) + ":" + std::to_string(verse);
    json out = {{"collection", "quran"}, {"source", "The Quran"}, {"reference", "Quran " + ref},
                {"chapter", chapter},    {"verse", verse},        {"text", text(body, "text")}};
    if (auto a = text_or(body, "arabic"); !a.empty()) out["arabic"] = a;
    out["path"] = "/api/quran/" + std::to_string(chapter) + "/" + std::to_string(verse);
    out["url"] =
        std::string(kSite) + "/quran/" + std::to_string(chapter) + "#" + std::to_string(verse);
    return out;
}

std::optional<json> chapter_from(const json& body, int only_verse) {
    const int chapter = number(body, "number");
    const json& verses = field(body, "verses");
    if (!verses.is_array()) throw Malformed("`verses` is not a list");
    json list = json::array();
    for (const json& v : verses) {
        json one = v;
        if (one.is_object() && !one.contains("chapter")) one["chapter"] = chapter;
        json excerpt = verse_from(one);
        if (only_verse > 0 && excerpt["verse"] == only_verse) return excerpt;
        list.push_back(std::move(excerpt));
    }
    if (only_verse > 0) return std::nullopt;
    return json{{"collection", "quran"},
                {"source", "The Quran"},
                {"reference", "Quran " + std::to_string(chapter)},
                {"chapter", chapter},
                {"name", text(body, "name")},
                {"english", text_or(body, "english")},
                {"verses", list},
                {"path", "/api/quran/" + std::to_string(chapter)},
                {"url", std::string(kSite) + "/quran/" + std::to_string(chapter)}};
}

json books_from(const json& body) {
    const json& list = body.is_object() && body.contains("books") ? body["books"] : body;
    if (!list.is_array()) throw Malformed("the books are not a list");
    json out = json::array();
    for (const json& b : list)
        out.push_back({{"number", number(b, "number")}, {"name", text(b, "name")}});
    if (out.empty()) throw Malformed("no books");
    return out;
}

json book_from(const json& body, int book_number) {
    const json& hadiths = field(body, "hadiths");
    if (!hadiths.is_array()) throw Malformed("`hadiths` is not a list");
    json list = json::array();
    int position = 0;
    for (const json& h : hadiths) {
        ++position;
        const std::string info = text_or(h, "info");
        const std::string body_text = text_or(h, "text", "english");
        if (body_text.empty()) throw Malformed("a hadith without text");
        int n = h.is_object() && h.contains("number") ? number(h, "number") : hadith_number(info);
        list.push_back({{"number", n ? n : position},
                        {"reference", info.empty() ? "" : trim(info)},
                        {"narrator", trim(text_or(h, "by", "narrator"))},
                        {"text", body_text}});
    }
    return {{"collection", "hadith"},
            {"source", "Sahih al-Bukhari"},
            {"book", {{"number", book_number}, {"name", text(body, "name")}}},
            {"hadiths", list}};
}

json hadith_excerpt(const json& book, const json& hadith) {
    const int b = book["book"]["number"].get<int>();
    const int n = hadith["number"].get<int>();
    const std::string where = hadith["reference"].get<std::string>();
    return {{"collection", "hadith"},
            {"source", "Sahih al-Bukhari"},
            {"reference", "Sahih al-Bukhari " + (where.empty() ? std::to_string(n) : where)},
            {"book", book["book"]},
            {"number", n},
            {"narrator", hadith["narrator"]},
            {"text", hadith["text"]},
            {"path", "/api/hadith/" + std::to_string(b) + "#" + std::to_string(n)},
            {"url", std::string(kSite) + "/hadith/" + std::to_string(b) + "#" + std::to_string(n)}};
}

json name_from(const json& body, int number_hint) {
    int n = body.is_object() && body.contains("number") ? number(body, "number") : number_hint;
    std::string name = text_or(body, "english", "name");
    if (name.empty()) throw Malformed("a name without `english` or `name`");
    const std::string meaning = text_or(body, "meaning");
    std::string body_text = text_or(body, "description", "summary");
    json out = {{"collection", "names"},
                {"source", "The names of Allah"},
                {"reference", name + (meaning.empty() ? "" : " — " + meaning)},
                {"number", n},
                {"name", name},
                {"arabic", text_or(body, "arabic")},
                {"meaning", meaning},
                {"text", body_text}};
    if (n > 0) {
        out["path"] = "/api/names/" + std::to_string(n);
        out["url"] = std::string(kSite) + "/names/" + std::to_string(n);
    }
    return out;
}

json names_from(const json& body) {
    const json& list = body.is_object() && body.contains("names") ? body["names"] : body;
    if (!list.is_array()) throw Malformed("the names are not a list");
    json out = json::array();
    int position = 0;
    for (const json& n : list) out.push_back(name_from(n, ++position));
    return out;
}

json daily_from(const json& body) {
    if (!body.is_object()) throw Malformed("expected an object");
    const json links = body.value("links", json::object());
    auto part = [&](const char* key, const char* collection) {
        const std::string all = text(body, key);
        if (all.empty()) throw Malformed(std::string("`") + key + "` is empty");
        const auto cut = all.find("\n\n");
        json out = {{"collection", collection},
                    {"heading", cut == std::string::npos ? "" : trim(all.substr(0, cut))},
                    {"text", cut == std::string::npos ? all : all.substr(cut + 2)}};
        const std::string link = text_or(links, key);
        if (!link.empty() && link[0] == '/') {
            out["path"] = link;
            out["url"] = std::string(kSite) + link;
        }
        return out;
    };
    return {{"date", text_or(body, "date")},   {"hijri", text_or(body, "hijri")},
            {"verse", part("verse", "quran")}, {"saying", part("hadith", "hadith")},
            {"name", part("name", "names")},   {"source", kSite}};
}

json references_from(const json& body) {
    if (body.is_object() && body.contains("error") && !body.contains("references"))
        throw platform::Error(platform::Code::unavailable,
                              kReminder.title + " is not answering searches now (" +
                                  body["error"].dump() + "); try again later");
    const json& refs = field(body, "references");
    json out = json::array();
    if (refs.is_null()) return out;  // Go's nil slice: no results
    if (!refs.is_array()) throw Malformed("`references` is not a list");
    for (const json& r : refs) {
        const json* t = member(r, "text", "Text");
        if (!t || !t->is_string()) throw Malformed("a reference without text");
        const json* s = member(r, "score", "Score");
        const json* m = member(r, "metadata", "Metadata");
        const json meta = m && m->is_object() ? *m : json::object();
        const std::string source = text_or(meta, "source");
        json e = {{"collection", collection_of(source)}, {"text", t->get<std::string>()}};
        if (s && s->is_number()) e["score"] = s->get<double>();
        const std::string ch = text_or(meta, "chapter"), v = text_or(meta, "verse");
        if ((source == "quran" || source == "tafsir") && digits(ch) && digits(v)) {
            const std::string name = text_or(meta, "name");
            e["source"] = source == "quran" ? "The Quran" : "Tafsir (commentary on the Quran)";
            e["reference"] = std::string(source == "quran" ? "Quran " : "Tafsir of Quran ") + ch +
                             ":" + v + (name.empty() ? "" : " (" + name + ")");
            e["path"] = "/api/quran/" + ch + "/" + v;
            e["url"] = std::string(kSite) + "/quran/" + ch + "#" + v;
        } else if (collection_of(source) == "hadith") {
            const std::string b = text_or(meta, "book_num"), n = text_or(meta, "number");
            const std::string book = text_or(meta, "book");
            e["source"] = "Sahih al-Bukhari";
            e["reference"] = "Sahih al-Bukhari" + (book.empty() ? "" : ", " + book) +
                             (n.empty() ? "" : ", hadith " + n);
            if (auto by = text_or(meta, "narrator"); !by.empty()) e["narrator"] = trim(by);
            if (digits(b)) {
                e["path"] = "/api/hadith/" + b + (digits(n) ? "#" + n : "");
                e["url"] = std::string(kSite) + "/hadith/" + b + (digits(n) ? "#" + n : "");
            }
        } else if (source == "names") {
            const std::string english = text_or(meta, "english"),
                              number_text = text_or(meta, "number");
            e["source"] = "The names of Allah";
            e["reference"] =
                english +
                (text_or(meta, "meaning").empty() ? "" : " — " + text_or(meta, "meaning"));
            if (digits(number_text)) {
                e["path"] = "/api/names/" + number_text;
                e["url"] = std::string(kSite) + "/names/" + number_text;
            } else if (!english.empty()) {
                e["path"] = "/api/names#" + english;
            }
        } else {
            e["source"] = source.empty() ? kReminder.title : source;
            e["reference"] = text_or(meta, "title", "reference");
        }
        out.push_back(std::move(e));
    }
    return out;
}

std::optional<Resource> resource_of(const std::string& input) {
    std::string p = input;
    for (const char* site : {"https://reminder.dev", "http://reminder.dev"}) {
        const std::string s = site;
        if (p.rfind(s, 0) == 0 &&
            (p.size() == s.size() || p[s.size()] == '/' || p[s.size()] == '#')) {
            p = p.substr(s.size());
            break;
        }
    }
    if (p.empty() || p[0] != '/') return std::nullopt;
    std::string fragment;
    if (auto at = p.find('#'); at != std::string::npos) {
        fragment = p.substr(at + 1);
        p = p.substr(0, at);
    }
    if (auto at = p.find('?'); at != std::string::npos) p = p.substr(0, at);
    if (p.rfind("/api/", 0) == 0) p = p.substr(4);
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    const auto seg = split(p.substr(1), '/');
    Resource r{};
    if (seg[0] == "quran" && (seg.size() == 2 || seg.size() == 3) && digits(seg[1])) {
        r.a = std::stoi(seg[1]);
        if (r.a < 1 || r.a > 114) return std::nullopt;
        if (seg.size() == 3) {
            if (!digits(seg[2]) || !fragment.empty()) return std::nullopt;
            r.kind = Resource::verse;
            r.b = std::stoi(seg[2]);
            r.api = "/api/quran/" + seg[1] + "/" + seg[2];
            return r;
        }
        if (!fragment.empty() && !digits(fragment)) return std::nullopt;
        r.kind = Resource::chapter;
        r.b = fragment.empty() ? 0 : std::stoi(fragment);
        r.api = "/api/quran/" + seg[1];
        return r;
    }
    if (seg[0] == "hadith" && seg.size() == 2 && digits(seg[1]) && std::stoi(seg[1]) > 0) {
        if (!fragment.empty() && !digits(fragment)) return std::nullopt;
        r.kind = Resource::book;
        r.a = std::stoi(seg[1]);
        r.b = fragment.empty() ? 0 : std::stoi(fragment);
        r.api = "/api/hadith/" + seg[1];
        return r;
    }
    if (seg[0] == "names" && seg.size() == 2 && digits(seg[1]) && fragment.empty() &&
        std::stoi(seg[1]) > 0) {
        r.kind = Resource::name;
        r.a = std::stoi(seg[1]);
        r.api = "/api/names/" + seg[1];
        return r;
    }
    if (seg[0] == "names" && seg.size() == 1) {
        r.kind = Resource::names_list;
        r.key = fragment;
        r.api = "/api/names";
        return r;
    }
    return std::nullopt;
}

}  // namespace common::reminder
