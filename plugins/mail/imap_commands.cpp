#include "imap_commands.hpp"

#include <ctime>

namespace mail {

std::string imap_quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string imap_date(int64_t unix_ms) {
    static const char* const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    return std::to_string(tm.tm_mday) + "-" + months[tm.tm_mon] + "-" +
           std::to_string(tm.tm_year + 1900);
}

std::string examine_command(const std::string& mailbox) {
    return "EXAMINE " + imap_quoted(mailbox);
}

std::string search_command(int64_t since_ms, const std::string& query, uint32_t below_uid) {
    bool ascii = true;
    for (unsigned char c : query) ascii = ascii && c < 0x80;
    std::string out = ascii ? "UID SEARCH" : "UID SEARCH CHARSET UTF-8";
    out += " SINCE " + imap_date(since_ms);
    if (below_uid > 0) out += " UID 1:" + std::to_string(below_uid > 1 ? below_uid - 1 : 1);
    if (!query.empty()) out += " TEXT " + imap_quoted(query);
    return out;
}

std::string fetch_headers_command(const std::vector<uint32_t>& uids) {
    std::string set;
    for (uint32_t uid : uids) set += (set.empty() ? "" : ",") + std::to_string(uid);
    return "UID FETCH " + set + " (UID BODY.PEEK[HEADER.FIELDS (FROM TO SUBJECT DATE MESSAGE-ID)])";
}

std::string fetch_message_command(uint32_t uid) {
    return "UID FETCH " + std::to_string(uid) + " (UID BODY.PEEK[])";
}

}  // namespace mail
