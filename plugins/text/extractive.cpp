#include "extractive.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

namespace text_extractive {

namespace {

const std::set<std::string, std::less<>>& stop_words() {
    static const std::set<std::string, std::less<>> words = {
        "about",  "above",    "after",      "again",  "against", "all",    "also",
        "am",     "an",       "and",        "any",    "are",     "as",     "at",
        "be",     "because",  "been",       "before", "being",   "below",  "between",
        "both",   "but",      "by",         "can",    "could",   "did",    "do",
        "does",   "doing",    "don",        "down",   "during",  "each",   "few",
        "for",    "from",     "further",    "had",    "has",     "have",   "having",
        "he",     "her",      "here",       "hers",   "herself", "him",    "himself",
        "his",    "how",      "if",         "in",     "into",    "is",     "it",
        "its",    "itself",   "just",       "let",    "may",     "me",     "might",
        "more",   "most",     "much",       "must",   "my",      "myself", "no",
        "nor",    "not",      "now",        "of",     "off",     "on",     "once",
        "one",    "only",     "or",         "other",  "our",     "ours",   "ourselves",
        "out",    "over",     "own",        "same",   "shall",   "she",    "should",
        "so",     "some",     "such",       "than",   "that",    "the",    "their",
        "theirs", "them",     "themselves", "then",   "there",   "these",  "they",
        "this",   "those",    "through",    "to",     "too",     "under",  "until",
        "up",     "upon",     "us",         "very",   "was",     "we",     "were",
        "what",   "when",     "where",      "which",  "while",   "who",    "whom",
        "why",    "will",     "with",       "would",  "yet",     "you",    "your",
        "yours",  "yourself", "yourselves"};
    return words;
}

// Words that end in a full stop without ending a sentence (compared lower-cased, without the dot).
const std::set<std::string, std::less<>>& abbreviations() {
    static const std::set<std::string, std::less<>> words = {
        "mr",  "mrs", "ms",  "dr",  "prof", "sr",   "jr",  "st",  "mt",  "vs",   "etc",
        "e.g", "i.e", "eg",  "ie",  "cf",   "no",   "nos", "vol", "fig", "figs", "approx",
        "ca",  "inc", "ltd", "co",  "corp", "dept", "est", "jan", "feb", "mar",  "apr",
        "jun", "jul", "aug", "sep", "sept", "oct",  "nov", "dec", "u.s", "u.k",  "a.m",
        "p.m", "op",  "ed",  "eds", "al",   "p",    "pp"};
    return words;
}

bool word_byte(unsigned char c) {
    return std::isalnum(c) || c >= 0x80;
}

std::string trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return std::string(s.substr(a, b - a));
}

// White space runs (line breaks included) folded to one space.
std::string fold_spaces(const std::string& s) {
    std::string out;
    bool space = false;
    for (unsigned char c : s) {
        if (std::isspace(c)) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += static_cast<char>(c);
    }
    return out;
}

// The length of a list marker at the start of `line` ("- ", "* ", "+ ", "1. ", "12) "), or 0.
size_t list_marker(const std::string& line) {
    if (line.size() >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ')
        return 2;
    size_t i = 0;
    while (i < line.size() && i < 4 && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i > 0 && i + 1 < line.size() && (line[i] == '.' || line[i] == ')') && line[i + 1] == ' ')
        return i + 2;
    return 0;
}

bool has_word(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return word_byte(c); });
}

// Whether the '.' at `dot` in `s` follows an abbreviation or an initial.
bool abbreviation_before(const std::string& s, size_t dot) {
    size_t start = dot;
    while (start > 0 && s[start - 1] != ' ' && s[start - 1] != '(' && s[start - 1] != '"') --start;
    std::string w = s.substr(start, dot - start);
    if (w.size() == 1 && std::isupper(static_cast<unsigned char>(w[0]))) return true;
    std::transform(w.begin(), w.end(), w.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return abbreviations().count(w) > 0;
}

// Appends the sentences of one unit (white space already folded).
void split_unit(const std::string& s, std::vector<Sentence>& out) {
    size_t start = 0, i = 0;
    auto emit = [&](size_t end) {
        std::string t = trim(std::string_view(s).substr(start, end - start));
        if (!t.empty()) out.push_back({t, has_word(t)});
    };
    while (i < s.size()) {
        const bool ellipsis = s.compare(i, 3, "\xE2\x80\xA6") == 0;
        if (s[i] != '.' && s[i] != '!' && s[i] != '?' && !ellipsis) {
            ++i;
            continue;
        }
        const size_t mark = i;
        size_t j = i + (ellipsis ? 3 : 1);
        while (j < s.size() && (s[j] == '.' || s[j] == '!' || s[j] == '?')) ++j;
        for (;;) {  // closing quotes and brackets
            if (j < s.size() && (s[j] == '"' || s[j] == '\'' || s[j] == ')' || s[j] == ']'))
                ++j;
            else if (s.compare(j, 3, "\xE2\x80\x9D") == 0 || s.compare(j, 3, "\xE2\x80\x99") == 0)
                j += 3;
            else
                break;
        }
        const bool at_end = j >= s.size();
        bool boundary = at_end || s[j] == ' ';
        if (boundary && !at_end && s[mark] == '.' && j == mark + 1) {
            if (abbreviation_before(s, mark)) boundary = false;
            if (j + 1 < s.size() && std::islower(static_cast<unsigned char>(s[j + 1])))
                boundary = false;  // "approx. three": a sentence does not start in lower case
        }
        if (boundary) {
            emit(j);
            start = j;
        }
        i = j;
    }
    emit(s.size());
}

}  // namespace

std::vector<Sentence> split_sentences(const std::string& text) {
    std::vector<Sentence> out;
    std::string unit;
    auto flush = [&] {
        const std::string folded = fold_spaces(unit);
        if (!folded.empty()) split_unit(folded, out);
        unit.clear();
    };
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string line = trim(std::string_view(text).substr(pos, nl - pos));
        pos = nl + 1;
        if (line.empty()) {
            flush();
        } else if (line[0] == '#') {
            flush();
            const size_t start = line.find_first_not_of('#');
            const std::string heading =
                start == std::string::npos ? std::string() : trim(line.substr(start));
            if (!heading.empty()) out.push_back({fold_spaces(heading), false});
        } else if (size_t m = list_marker(line)) {
            flush();
            unit = line.substr(m);
        } else {
            unit += (unit.empty() ? "" : " ") + line;
        }
    }
    flush();
    return out;
}

std::vector<std::string> words(const std::string& sentence) {
    std::vector<std::string> out;
    std::string w;
    auto take = [&] {
        if (w.size() > 1 && !stop_words().count(w)) out.push_back(w);
        w.clear();
    };
    for (unsigned char c : sentence) {
        if (word_byte(c))
            w += static_cast<char>(c < 0x80 ? std::tolower(c) : c);
        else
            take();
    }
    take();
    return out;
}

std::vector<std::string> summarise(const std::string& text, size_t lines) {
    const std::vector<Sentence> sentences = split_sentences(text);
    std::vector<std::vector<std::string>> sentence_words;
    std::map<std::string, double> count;
    for (const auto& s : sentences) {
        sentence_words.push_back(words(s.text));
        for (const auto& w : sentence_words.back()) count[w] += 1;
    }
    double top = 0;
    for (const auto& [w, n] : count) top = std::max(top, n);
    std::vector<std::pair<double, size_t>> scored;  // (score, index)
    for (size_t i = 0; i < sentences.size(); ++i) {
        if (!sentences[i].pickable) continue;
        double sum = 0;
        for (const auto& w : sentence_words[i]) sum += count[w] / top;
        const double n = static_cast<double>(sentence_words[i].size());
        scored.push_back({top > 0 ? sum / std::max(8.0, n) : 0.0, i});
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    if (scored.size() > lines) scored.resize(lines);
    std::vector<size_t> picked;
    for (const auto& [score, i] : scored) picked.push_back(i);
    std::sort(picked.begin(), picked.end());
    std::vector<std::string> out;
    for (size_t i : picked) out.push_back(sentences[i].text);
    return out;
}

std::string render(const std::vector<std::string>& sentences, bool bullets) {
    std::string out;
    for (const auto& s : sentences) {
        if (!out.empty()) out += bullets ? "\n" : " ";
        if (bullets) out += "- ";
        out += s;
    }
    return out;
}

}  // namespace text_extractive
