#include "imap_reply.hpp"

#include <optional>
#include <platform/sdk/text.hpp>

namespace mail {

namespace {

enum class Kind { atom, string, open, close, end, bad };

struct Token {
    Kind kind = Kind::end;
    std::string text;
};

// Tokens of one response: atoms (a "[...]" section with its spaces is part of its atom), quoted
// strings, literals, parentheses; `end` after the response's last CRLF.
class Reader {
public:
    Reader(const std::string& s, size_t at) : s_(s), p_(at) {}
    size_t pos() const { return p_; }

    Token next() {
        if (ended_) return {Kind::end, {}};
        while (p_ < s_.size() && s_[p_] == ' ') ++p_;
        if (p_ >= s_.size()) return ended_ = true, Token{Kind::end, {}};
        const char c = s_[p_];
        if (c == '\r' || c == '\n') {
            p_ += (c == '\r' && p_ + 1 < s_.size() && s_[p_ + 1] == '\n') ? 2 : 1;
            return ended_ = true, Token{Kind::end, {}};
        }
        if (c == '(' || c == ')')
            return {c == '(' ? Kind::open : Kind::close, std::string(1, s_[p_++])};
        if (c == '"') return quoted();
        if (c == '{') return literal();
        return atom();
    }

    // Past this response (its literals included), or past the next line break when it is
    // malformed.
    void finish() {
        for (Token t = next(); t.kind != Kind::end; t = next())
            if (t.kind == Kind::bad) {
                const size_t lf = s_.find('\n', p_);
                p_ = lf == std::string::npos ? s_.size() : lf + 1;
                ended_ = true;
                return;
            }
    }

private:
    Token quoted() {
        std::string out;
        for (++p_; p_ < s_.size(); ++p_) {
            const char c = s_[p_];
            if (c == '"') return ++p_, Token{Kind::string, out};
            if (c == '\r' || c == '\n') break;
            if (c == '\\' && p_ + 1 < s_.size()) ++p_;
            out += s_[p_];
        }
        return {Kind::bad, {}};
    }

    Token literal() {
        size_t q = p_ + 1;
        uint64_t n = 0;
        while (q < s_.size() && s_[q] >= '0' && s_[q] <= '9' && n < (uint64_t{1} << 40))
            n = n * 10 + uint64_t(s_[q++] - '0');
        if (q < s_.size() && s_[q] == '+') ++q;
        if (q == p_ + 1 || s_.compare(q, 3, "}\r\n") != 0 || s_.size() - (q + 3) < n)
            return {Kind::bad, {}};
        p_ = q + 3 + n;
        return {Kind::string, s_.substr(q + 3, n)};
    }

    Token atom() {
        const size_t start = p_;
        while (p_ < s_.size()) {
            const char c = s_[p_];
            if (c == '[') {
                const size_t close = s_.find_first_of("]\r\n", p_);
                if (close == std::string::npos || s_[close] != ']') return {Kind::bad, {}};
                p_ = close + 1;
                continue;
            }
            if (c == ' ' || c == '(' || c == ')' || c == '\r' || c == '\n' || c == '"') break;
            ++p_;
        }
        return {Kind::atom, s_.substr(start, p_ - start)};
    }

    const std::string& s_;
    size_t p_;
    bool ended_ = false;
};

std::optional<uint32_t> number(const std::string& s) {
    if (s.empty() || s.size() > 10) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + uint64_t(c - '0');
    }
    if (v > 0xFFFFFFFFu) return std::nullopt;
    return uint32_t(v);
}

bool is(const Token& t, const char* word) {
    return t.kind == Kind::atom && platform::lower(t.text) == platform::lower(word);
}

// Reads past one value: a token, or a parenthesised list with what it holds.
bool skip_value(Reader& r, Token t) {
    if (t.kind != Kind::open) return t.kind == Kind::atom || t.kind == Kind::string;
    for (int depth = 1; depth > 0;) {
        t = r.next();
        if (t.kind == Kind::end || t.kind == Kind::bad) return false;
        depth += t.kind == Kind::open ? 1 : t.kind == Kind::close ? -1 : 0;
    }
    return true;
}

// The list after "* n FETCH".
void fetch(Reader& r, ImapReply& out) {
    if (r.next().kind != Kind::open) return;
    Fetched f;
    for (Token name = r.next(); name.kind != Kind::close; name = r.next()) {
        if (name.kind != Kind::atom) return;
        const std::string item = platform::lower(name.text);
        Token value = r.next();
        if (item == "uid") {
            auto uid = number(value.text);
            if (value.kind != Kind::atom || !uid) return;
            f.uid = *uid;
        } else if (item.rfind("body[", 0) == 0 || item.rfind("binary[", 0) == 0 ||
                   item.rfind("rfc822", 0) == 0) {
            if (value.kind == Kind::string)
                f.data = std::move(value.text);
            else if (!is(value, "NIL"))
                return;
        } else if (!skip_value(r, value)) {
            return;
        }
    }
    if (f.uid) out.fetched.push_back(std::move(f));
}

}  // namespace

ImapReply parse_reply(const std::string& transcript) {
    ImapReply out;
    size_t at = 0;
    while (at < transcript.size()) {
        Reader r(transcript, at);
        if (is(r.next(), "*")) {
            const Token what = r.next();
            if (is(what, "OK")) {
                const Token code = r.next();
                const std::string up = platform::lower(code.text);
                if (code.kind == Kind::atom && up.rfind("[uidvalidity ", 0) == 0) {
                    if (auto v = number(up.substr(13, up.size() - 14))) out.uidvalidity = *v;
                }
            } else if (is(what, "SEARCH")) {
                out.searched = true;
                for (Token t = r.next(); t.kind == Kind::atom; t = r.next())
                    if (auto n = number(t.text)) out.found.push_back(*n);
            } else if (what.kind == Kind::atom && number(what.text) && is(r.next(), "FETCH")) {
                fetch(r, out);
            }
        }
        r.finish();
        at = r.pos() > at ? r.pos() : at + 1;
    }
    return out;
}

}  // namespace mail
