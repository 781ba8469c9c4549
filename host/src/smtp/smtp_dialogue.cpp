#include <cctype>
#include <platform/host/smtp/smtp_dialogue.hpp>

namespace platform::host::smtp {

namespace {

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// Whether `text` starts with `prefix`, ignoring case.
bool starts_with(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() && upper(text.substr(0, prefix.size())) == prefix;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

Reply ok(std::string text) {
    return Reply{250, {std::move(text)}};
}

}  // namespace

std::string Reply::wire() const {
    std::string out;
    const std::string code_text = std::to_string(code);
    if (lines.empty()) return code_text + "\r\n";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += code_text + (i + 1 < lines.size() ? "-" : " ") + lines[i] + "\r\n";
    return out;
}

std::optional<std::pair<std::string, std::string>> parse_path(std::string_view args) {
    args = trim(args);
    if (args.empty() || args.front() != '<') return std::nullopt;
    const std::size_t close = args.find('>');
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view inside = args.substr(1, close - 1);
    for (char c : inside)
        if (c == ' ' || c == '\r' || c == '\n' || c == '\t' || c == '<') return std::nullopt;
    if (!inside.empty() && inside.front() == '@') {  // a source route: "@x,@y:a@b"
        const std::size_t colon = inside.find(':');
        if (colon == std::string_view::npos) return std::nullopt;
        inside.remove_prefix(colon + 1);
    }
    return std::make_pair(std::string(inside), std::string(trim(args.substr(close + 1))));
}

Dialogue::Dialogue(std::string hostname, Limits limits, Policy& policy, bool tls_offered)
    : hostname_(std::move(hostname)), limits_(limits), policy_(policy), tls_offered_(tls_offered) {}

Reply Dialogue::greeting() const {
    return Reply{220, {hostname_ + " ESMTP Platform"}};
}

void Dialogue::tls_started() {
    tls_active_ = true;
    helo_.clear();
    reset_transaction();
}

void Dialogue::reset_transaction() {
    mail_from_.reset();
    rcpt_to_.clear();
    in_data_ = data_too_big_ = data_line_too_long_ = false;
    data_.clear();
}

Reply Dialogue::refuse(int code, std::string text) {
    if (++errors_ >= limits_.max_errors)
        return Reply{421, {"4.7.0 " + hostname_ + " too many errors, closing"}, true};
    return Reply{code, {std::move(text)}};
}

std::optional<Reply> Dialogue::line(std::string_view text, bool overlong) {
    if (!in_data_) {
        if (overlong || text.size() > kMaxCommandLine)
            return refuse(500, "5.5.2 line too long (at most 510 octets)");
        return command(text);
    }
    if (text == ".") return end_of_data();
    if (!text.empty() && text.front() == '.') text.remove_prefix(1);
    if (overlong || text.size() > kMaxTextLine) data_line_too_long_ = true;
    if (data_too_big_ || data_line_too_long_) return std::nullopt;
    if (data_.size() + text.size() + 2 > limits_.max_message_bytes) {
        data_too_big_ = true;
        data_.clear();
        data_.shrink_to_fit();
        return std::nullopt;
    }
    data_.append(text);
    data_.append("\r\n");
    return std::nullopt;
}

Reply Dialogue::command(std::string_view text) {
    const std::size_t space = text.find(' ');
    const std::string verb = upper(text.substr(0, space));
    const std::string_view args =
        space == std::string_view::npos ? std::string_view() : trim(text.substr(space + 1));
    if (verb == "EHLO" || verb == "HELO") {
        if (args.empty()) return refuse(501, "5.5.4 " + verb + " needs a domain");
        helo_ = std::string(args);
        reset_transaction();
        if (verb == "HELO") return ok(hostname_);
        Reply r{250, {hostname_, "SIZE " + std::to_string(limits_.max_message_bytes), "8BITMIME"}};
        if (tls_offered_ && !tls_active_) r.lines.push_back("STARTTLS");
        r.lines.push_back("ENHANCEDSTATUSCODES");
        return r;
    }
    if (verb == "MAIL") return mail(args);
    if (verb == "RCPT") return rcpt(args);
    if (verb == "DATA") {
        if (!args.empty()) return refuse(501, "5.5.4 DATA takes no arguments");
        if (!mail_from_) return refuse(503, "5.5.1 MAIL first");
        if (rcpt_to_.empty()) return refuse(554, "5.5.1 no valid recipients");
        in_data_ = true;
        return Reply{354, {"End data with <CR><LF>.<CR><LF>"}};
    }
    if (verb == "RSET") {
        reset_transaction();
        return ok("2.0.0 OK");
    }
    if (verb == "NOOP") return ok("2.0.0 OK");
    if (verb == "QUIT") return Reply{221, {"2.0.0 " + hostname_ + " closing"}, true};
    if (verb == "VRFY" || verb == "EXPN") return refuse(502, "5.5.1 " + verb + " is not offered");
    if (verb == "HELP") return Reply{214, {"2.0.0 See RFC 5321"}};
    if (verb == "STARTTLS") {
        if (!tls_offered_) return refuse(502, "5.5.1 STARTTLS is not offered");
        if (tls_active_) return refuse(503, "5.5.1 TLS is already on");
        if (!args.empty()) return refuse(501, "5.5.4 STARTTLS takes no arguments");
        Reply r{220, {"2.0.0 Ready to start TLS"}};
        r.start_tls = true;
        return r;
    }
    return refuse(500, "5.5.2 command not recognized");
}

Reply Dialogue::mail(std::string_view args) {
    if (helo_.empty()) return refuse(503, "5.5.1 EHLO or HELO first");
    if (mail_from_) return refuse(503, "5.5.1 a transaction is open (RSET first)");
    if (!starts_with(args, "FROM:")) return refuse(501, "5.5.4 syntax: MAIL FROM:<address>");
    auto path = parse_path(args.substr(5));
    if (!path) return refuse(501, "5.1.7 syntax: MAIL FROM:<address>");
    std::string_view params = path->second;
    while (!params.empty()) {
        const std::size_t end = params.find(' ');
        const std::string_view p = params.substr(0, end);
        params = end == std::string_view::npos ? std::string_view() : trim(params.substr(end));
        const std::string name = upper(p.substr(0, p.find('=')));
        const std::string_view value =
            p.find('=') == std::string_view::npos ? std::string_view() : p.substr(p.find('=') + 1);
        if (name == "SIZE") {
            std::size_t n = 0;
            for (char c : value) {
                if (!std::isdigit(static_cast<unsigned char>(c)) || n > (SIZE_MAX - 9) / 10)
                    return refuse(501, "5.5.4 SIZE must be a number of octets");
                n = n * 10 + static_cast<std::size_t>(c - '0');
            }
            if (value.empty()) return refuse(501, "5.5.4 SIZE must be a number of octets");
            if (n > limits_.max_message_bytes)
                return refuse(552, "5.3.4 message too big (at most " +
                                       std::to_string(limits_.max_message_bytes) + " octets)");
        } else if (name == "BODY") {
            const std::string v = upper(value);
            if (v != "7BIT" && v != "8BITMIME")
                return refuse(501, "5.5.4 BODY is 7BIT or 8BITMIME");
        } else {
            return refuse(555, "5.5.4 parameter " + name + " is not supported");
        }
    }
    mail_from_ = path->first;
    return ok("2.1.0 OK");
}

Reply Dialogue::rcpt(std::string_view args) {
    if (!mail_from_) return refuse(503, "5.5.1 MAIL first");
    if (!starts_with(args, "TO:")) return refuse(501, "5.5.4 syntax: RCPT TO:<address>");
    auto path = parse_path(args.substr(3));
    if (!path || path->first.empty()) return refuse(501, "5.1.3 syntax: RCPT TO:<address>");
    if (!path->second.empty()) return refuse(555, "5.5.4 RCPT TO takes no parameters here");
    if (rcpt_to_.size() >= limits_.max_recipients)
        return Reply{
            452,
            {"4.5.3 too many recipients (at most " + std::to_string(limits_.max_recipients) + ")"}};
    Reply r = policy_.recipient(path->first);
    if (r.code == 250)
        rcpt_to_.push_back(path->first);
    else if (r.code >= 500)
        return refuse(r.code, r.lines.empty() ? "5.1.1 refused" : r.lines.front());
    return r;
}

Reply Dialogue::end_of_data() {
    Reply r;
    if (data_too_big_)
        r = Reply{552,
                  {"5.3.4 message too big (at most " + std::to_string(limits_.max_message_bytes) +
                   " octets)"}};
    else if (data_line_too_long_)
        r = Reply{554, {"5.6.0 a line is longer than 998 octets"}};
    else
        r = policy_.deliver(Envelope{helo_, *mail_from_, rcpt_to_, std::move(data_)});
    reset_transaction();
    return r;
}

}  // namespace platform::host::smtp
