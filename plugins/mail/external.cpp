#include "external.hpp"

#include <algorithm>

#include "external_cursor.hpp"
#include "imap_commands.hpp"
#include "mime.hpp"

namespace mail {

using platform::json;

namespace {

const char* kHowToConnect =
    "no external mailbox connected: connect one with mail/connect {url: "
    "\"imaps://imap.example.org/INBOX\", user, password} (CLI: platform mail connect --url ... "
    "--user ... --password ...)";

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = char(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// imap(s)://host[:port][/mailbox] as a mailbox without its login; 400 naming the rule.
ExternalMailbox parse_url(const std::string& url) {
    auto bad = [](const std::string& why) { return platform::invalid_argument("url: " + why); };
    const std::string l = platform::lower(url);
    ExternalMailbox box;
    box.tls = l.rfind("imaps://", 0) == 0;
    if (!box.tls && l.rfind("imap://", 0) != 0)
        throw bad("must start with imaps:// or imap:// (imaps://imap.example.org/INBOX)");
    const size_t start = box.tls ? 8 : 7, slash = url.find('/', start);
    const std::string authority = url.substr(start, slash - start);
    if (authority.find('@') != std::string::npos)
        throw bad("give the login in user and password, not in the URL");
    const size_t close = authority.rfind(']'), colon = authority.rfind(':');
    const bool has_port =
        colon != std::string::npos && (close == std::string::npos || colon > close);
    box.host = platform::lower(authority.substr(0, has_port ? colon : std::string::npos));
    const std::string port = has_port ? authority.substr(colon + 1) : "";
    const bool v6 = box.host.size() > 2 && box.host.front() == '[' && box.host.back() == ']';
    bool host_ok = !box.host.empty() && box.host.size() <= 253;
    for (char c : v6 ? box.host.substr(1, box.host.size() - 2) : box.host)
        host_ok = host_ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                              (v6 && c == ':'));
    if (!host_ok) throw bad("invalid host '" + box.host + "'");
    box.port = box.tls ? 993 : 143;
    if (has_port) {
        const bool digits =
            !port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), ::isdigit);
        if (!digits || std::stoi(port) < 1 || std::stoi(port) > 65535)
            throw bad("invalid port '" + port + "' (1-65535)");
        box.port = std::stoi(port);
    }
    const std::string path = slash == std::string::npos ? "" : url.substr(slash + 1);
    for (size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '%' && i + 2 < path.size() && hex(path[i + 1]) >= 0 &&
            hex(path[i + 2]) >= 0) {
            box.mailbox += char(hex(path[i + 1]) * 16 + hex(path[i + 2]));
            i += 2;
        } else {
            box.mailbox += path[i];
        }
    }
    for (unsigned char c : box.mailbox)
        if (c < 0x20 || c == 0x7F || c == '?' || c == '#') throw bad("invalid mailbox name");
    if (box.mailbox.empty()) box.mailbox = "INBOX";
    if (box.mailbox.size() > 200) throw bad("the mailbox name is at most 200 characters");
    box.url = std::string(box.tls ? "imaps://" : "imap://") + box.host + ":" +
              std::to_string(box.port) + "/";
    return box;
}

}  // namespace

const platform_secrets_api_t& External::secrets() const {
    auto* s = host_.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!s)
        throw platform::unavailable(
            "mail: keeping an external mailbox's login sealed needs the host's \"secrets\" "
            "sub-table: list mail under privileged: in the profile");
    return *s;
}

bool External::trusted(const std::string& host, int port) const {
    const json list = host_.config("trusted_mailboxes");
    const std::string entry = host + ":" + std::to_string(port);
    if (list.is_array())
        for (const auto& e : list)
            if (e.is_string() && platform::lower(e.get<std::string>()) == entry) return true;
    return false;
}

ImapReply External::run(const ExternalMailbox& box, const std::vector<std::string>& commands,
                        bool connecting) const {
    platform::HttpRequest req;
    req.method = "POST";
    req.url = box.url;
    req.headers = {
        {"Authorization", "Basic " + platform::base64_encode(box.user + ":" + box.password)}};
    req.body = examine_command(box.mailbox);
    for (const auto& c : commands) req.body += "\n" + c;
    req.operator_url = trusted(box.host, box.port);
    req.max_bytes = 8 << 20;
    const platform::HttpResponse resp = host_.fetch(req);
    if (resp.status == 401) {
        const std::string why = "the IMAP server " + box.host + " refused the login for '" +
                                box.user + "' (" + resp.error + ")";
        if (connecting) throw platform::invalid_argument("user, password: " + why);
        throw platform::Error(platform::Code::bad_gateway,
                              why + "; connect again with mail/connect");
    }
    if (resp.status != 200)
        throw platform::Error(platform::Code::bad_gateway,
                              resp.error.empty() ? "the IMAP server failed" : resp.error);
    ImapReply reply = parse_reply(resp.body);
    if (!reply.uidvalidity)
        throw platform::Error(
            platform::Code::bad_gateway,
            "the IMAP server " + box.host + " announced no UIDVALIDITY for " + box.mailbox);
    return reply;
}

json External::connect(const std::string& account, const std::string& url, const std::string& user,
                       const std::string& password) const {
    ExternalMailbox box = parse_url(url);
    box.user = user;
    box.password = password;
    const auto& s = secrets();
    run(box, {}, true);
    std::string sealed;
    platform::check(
        s.seal(host_.ctx(), platform::view(json{{"user", user}, {"password", password}}.dump()),
               platform::append_sink, &sealed),
        "mail: sealing the mailbox login failed");
    records(account).put("mailbox", {{"url", box.url},
                                     {"host", box.host},
                                     {"port", box.port},
                                     {"tls", box.tls},
                                     {"mailbox", box.mailbox},
                                     {"sealed", sealed},
                                     {"connected", platform::rfc3339(host_.now_ms())}});
    return info(account);
}

bool External::disconnect(const std::string& account) const {
    return records(account).erase("mailbox");
}

ExternalMailbox External::load(const std::string& account) const {
    const auto rec = records(account).get("mailbox");
    if (!rec) throw platform::unavailable(kHowToConnect);
    ExternalMailbox box;
    box.url = rec->value("url", "");
    box.host = rec->value("host", "");
    box.port = rec->value("port", 0);
    box.tls = rec->value("tls", false);
    box.mailbox = rec->value("mailbox", "INBOX");
    std::string plain;
    platform::check(secrets().open(host_.ctx(), platform::view(rec->value("sealed", "")),
                                   platform::append_sink, &plain),
                    "mail: the stored mailbox login cannot be opened (was the host's secret key "
                    "changed?); connect again with mail/connect");
    const json login = json::parse(plain, nullptr, false);
    box.user = login.is_object() ? login.value("user", "") : "";
    box.password = login.is_object() ? login.value("password", "") : "";
    return box;
}

json External::info(const std::string& account) const {
    const auto rec = records(account).get("mailbox");
    if (!rec) return {{"connected", false}};
    json out = {{"connected", true},
                {"url", rec->value("url", "") + rec->value("mailbox", "")},
                {"host", rec->value("host", "")},
                {"mailbox", rec->value("mailbox", "")},
                {"connected_at", rec->value("connected", "")}};
    try {
        out["user"] = load(account).user;
    } catch (const platform::Error& e) {  // info stays readable; search and read say the same
        out["user"] = nullptr;
        out["problem"] = e.what();
    }
    return out;
}

json External::search(const std::string& account, const std::string& query, const std::string& page,
                      int64_t limit) const {
    std::optional<MessageRef> after;
    if (!page.empty() && !(after = read_page_cursor(page)))
        throw platform::invalid_argument("page: not a cursor from externalsearch's next_page");
    const ExternalMailbox box = load(account);
    const int64_t since = host_.now_ms() - kExternalDays * 86400000;
    json out = {{"messages", json::array()}, {"since", imap_date(since)}};
    if (after && after->uid <= 1) return out;
    ImapReply found = run(box, {search_command(since, query, after ? after->uid : 0)}, false);
    if (after && after->uidvalidity != found.uidvalidity)
        throw platform::conflict(
            "page: the mailbox was renumbered since (UIDVALIDITY changed); "
            "search again without page");
    std::vector<uint32_t> uids = found.found;
    std::sort(uids.rbegin(), uids.rend());
    uids.erase(std::unique(uids.begin(), uids.end()), uids.end());
    if (uids.size() > size_t(limit)) {
        uids.resize(size_t(limit));
        out["next_page"] = page_cursor({found.uidvalidity, uids.back()});
    }
    if (uids.empty()) return out;
    ImapReply headers = run(box, {fetch_headers_command(uids)}, false);
    if (headers.uidvalidity != found.uidvalidity)
        throw platform::conflict("the mailbox was renumbered during the search; search again");
    std::sort(headers.fetched.begin(), headers.fetched.end(),
              [](const Fetched& a, const Fetched& b) { return a.uid > b.uid; });
    for (const Fetched& f : headers.fetched) {
        const ParsedMessage h = parse_message(f.data).value_or(ParsedMessage{});
        out["messages"].push_back({{"id", external_id({found.uidvalidity, f.uid})},
                                   {"from", h.from_written},
                                   {"to", h.to},
                                   {"subject", h.subject},
                                   {"date", h.date},
                                   {"message_id", h.message_id}});
    }
    return out;
}

json External::message(const std::string& account, const std::string& id) const {
    const auto ref = read_external_id(id);
    if (!ref)
        throw platform::invalid_argument(
            "id: not an external message id (\"<uidvalidity>-<uid>\" from externalsearch)");
    const ExternalMailbox box = load(account);
    ImapReply reply = run(box, {fetch_message_command(ref->uid)}, false);
    if (reply.uidvalidity != ref->uidvalidity)
        throw platform::conflict(
            "id: the mailbox was renumbered since this id was given "
            "(UIDVALIDITY changed); search again");
    auto it = std::find_if(reply.fetched.begin(), reply.fetched.end(),
                           [&](const Fetched& f) { return f.uid == ref->uid; });
    if (it == reply.fetched.end())
        throw platform::not_found("id: no message " + id + " in the external mailbox");
    const auto m = parse_message(it->data);
    if (!m)
        throw platform::Error(platform::Code::bad_gateway,
                              "id: the server's copy of message " + id + " is not one");
    json attachments = json::array();
    for (const Attachment& a : m->attachments) attachments.push_back(a.name);
    return {{"id", id},        {"from", m->from_written},
            {"to", m->to},     {"subject", m->subject},
            {"date", m->date}, {"message_id", m->message_id},
            {"body", m->body}, {"attachments", attachments}};
}

}  // namespace mail
