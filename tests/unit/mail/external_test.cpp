// The external mailbox's pure parts (plugins/mail/): the IMAP transcript reader (imap_reply.hpp:
// UIDVALIDITY, SEARCH, FETCH with literals that hold lines looking like responses), the commands
// (imap_commands.hpp), the page cursor and ids (external_cursor.hpp), and what parse_message
// (mime.hpp) makes of such messages: quoted-printable, base64, RFC 2047 words, charsets, a nested
// multipart with an attachment, a header block alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../../plugins/mail/external_cursor.hpp"
#include "../../../plugins/mail/imap_commands.hpp"
#include "../../../plugins/mail/imap_reply.hpp"
#include "../../../plugins/mail/mime.hpp"

using namespace mail;

namespace {

// What Dovecot sent for EXAMINE then a UID FETCH of two messages' headers (as the host relays it).
std::string literal(const std::string& bytes) {
    return "{" + std::to_string(bytes.size()) + "}\r\n" + bytes;
}

}  // namespace

TEST(ImapReply, ReadsUidValiditySearchAndFetchLiterals) {
    const std::string first = "From: Bob <bob@example.org>\r\nSubject: Hi\r\n\r\n";
    const std::string second = "Subject: tricky\r\n\r\n* 9 FETCH (UID 99 BODY[] {3}\r\nA001 OK\r\n";
    const std::string t =
        "* OK [CAPABILITY IMAP4rev1] Dovecot ready.\r\n"
        "A001 OK Logged in\r\n"
        "* FLAGS (\\Answered \\Seen)\r\n"
        "* OK [PERMANENTFLAGS ()] Read-only mailbox.\r\n"
        "* 3 EXISTS\r\n"
        "* OK [UIDVALIDITY 1795963796] UIDs valid\r\n"
        "A002 OK [READ-ONLY] Examine completed.\r\n"
        "* SEARCH 4 12 9\r\n"
        "* 2 FETCH (UID 12 FLAGS (\\Seen) BODY[HEADER.FIELDS (FROM TO SUBJECT)] " +
        literal(first) +
        ")\r\n"
        "* 3 FETCH (BODY[] " +
        literal(second) +
        " UID 13)\r\n"
        "* 4 FETCH (UID 14 BODY[] NIL)\r\n"
        "* 5 FETCH (UID 15 BODY[] \"quoted \\\"text\\\"\")\r\n"
        "A003 OK Fetch completed.\r\n";
    const ImapReply r = parse_reply(t);
    EXPECT_EQ(r.uidvalidity, 1795963796u);
    EXPECT_TRUE(r.searched);
    EXPECT_EQ(r.found, (std::vector<uint32_t>{4, 12, 9}));
    ASSERT_EQ(r.fetched.size(), 4u);
    EXPECT_EQ(r.fetched[0].uid, 12u);
    EXPECT_EQ(r.fetched[0].data, first);
    EXPECT_EQ(r.fetched[1].uid, 13u);  // the literal's look-alike lines are data, not responses
    EXPECT_EQ(r.fetched[1].data, second);
    EXPECT_EQ(r.fetched[2].uid, 14u);
    EXPECT_EQ(r.fetched[2].data, "");
    EXPECT_EQ(r.fetched[3].data, "quoted \"text\"");
}

TEST(ImapReply, AnEmptySearchAndBrokenInputGiveNoCrash) {
    const ImapReply empty = parse_reply("* SEARCH\r\nA003 OK done\r\n");
    EXPECT_TRUE(empty.searched);
    EXPECT_TRUE(empty.found.empty());
    EXPECT_EQ(empty.uidvalidity, 0u);
    for (const std::string& junk : std::vector<std::string>{
             "* 1 FETCH (UID 5 BODY[] {999}\r\nshort", "* 1 FETCH (UID", "* OK [UIDVALIDITY x]",
             "{", "* 1 FETCH (BODY[HEADER {3}\r\nabc)", "\r\n\r\n* SEARCH 1 x 2\r\n", "* \"open"}) {
        const ImapReply r = parse_reply(junk);
        EXPECT_TRUE(r.fetched.empty()) << junk;
    }
    EXPECT_EQ(parse_reply("\r\n\r\n* SEARCH 1 x 2\r\n").found, (std::vector<uint32_t>{1, 2}));
    // A truncated literal drops that response only; what follows is still read.
    const ImapReply later =
        parse_reply("* 1 FETCH (UID 5 BODY[] {4x}\r\n* OK [UIDVALIDITY 7] ok\r\n");
    EXPECT_EQ(later.uidvalidity, 7u);
}

TEST(ImapCommands, AreReadOnlyAndQuoteTheirStrings) {
    EXPECT_EQ(examine_command("INBOX"), "EXAMINE \"INBOX\"");
    EXPECT_EQ(imap_quoted("a \"b\" \\c"), "\"a \\\"b\\\" \\\\c\"");
    EXPECT_EQ(imap_date(1795910400000), "29-Nov-2026");  // 2026-11-29T00:00:00Z
    EXPECT_EQ(imap_date(1767225599000), "31-Dec-2025");
    EXPECT_EQ(search_command(1795910400000, "", 0), "UID SEARCH SINCE 29-Nov-2026");
    EXPECT_EQ(search_command(1795910400000, "x\"y", 42),
              "UID SEARCH SINCE 29-Nov-2026 UID 1:41 TEXT \"x\\\"y\"");
    EXPECT_EQ(search_command(1795910400000, "café", 0),
              "UID SEARCH CHARSET UTF-8 SINCE 29-Nov-2026 TEXT \"café\"");
    EXPECT_EQ(fetch_headers_command({9, 4}),
              "UID FETCH 9,4 (UID BODY.PEEK[HEADER.FIELDS (FROM TO SUBJECT DATE MESSAGE-ID)])");
    EXPECT_EQ(fetch_message_command(7), "UID FETCH 7 (UID BODY.PEEK[])");
}

TEST(ExternalCursor, RoundTripsAndRefusesAnythingElse) {
    const std::string page = page_cursor({1795963796, 12});
    EXPECT_EQ(page[0], 'c');
    auto back = read_page_cursor(page);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->uidvalidity, 1795963796u);
    EXPECT_EQ(back->uid, 12u);
    for (const std::string& bad :
         std::vector<std::string>{"", "c", "x" + page.substr(1), "c!!", "c" + std::string(50, 'A'),
                                  page_cursor({0, 3}), "cMTIz"})
        EXPECT_FALSE(read_page_cursor(bad)) << bad;
    EXPECT_EQ(external_id({7, 9}), "7-9");
    auto id = read_external_id("1795963796-12");
    ASSERT_TRUE(id);
    EXPECT_EQ(id->uid, 12u);
    for (const std::string& bad : std::vector<std::string>{"", "7", "7-", "-9", "7-9-1", "a-1",
                                                           "07-9", "7-0", "99999999999-1", "7 -9"})
        EXPECT_FALSE(read_external_id(bad)) << bad;
}

// What externalread shows of a message from the outside mailbox: mime.hpp's parse_message, the
// GMime reader inbound mail uses too.
TEST(ExternalMessageText, DecodesWordsTransferEncodingsAndCharsets) {
    const auto qp = mail::parse_message(
        "From: Bob <bob@example.org>\r\nSubject: =?UTF-8?Q?Caf=C3=A9?=\r\n"
        "Content-Type: text/plain;\r\n charset=\"utf-8\"\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\nHello caf=C3=A9\r\nline two\r\n");
    ASSERT_TRUE(qp);
    EXPECT_EQ(qp->body, "Hello café\nline two\n");
    EXPECT_EQ(qp->subject, "Café");
    EXPECT_EQ(qp->from_written, "Bob <bob@example.org>");
    const auto latin = mail::parse_message(
        "Subject: =?ISO-8859-1?Q?na=EFve_idea?=\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\nbmHvdmU=\r\n");
    ASSERT_TRUE(latin);
    EXPECT_EQ(latin->body, "naïve");
    EXPECT_EQ(latin->subject, "naïve idea");
    // Only the header fields a search fetches: no body, the headers all there.
    const auto head = mail::parse_message(
        "From: =?utf-8?B?QsO2Yg==?= <bob@example.org>\r\nTo: ann@example.org\r\n"
        "Message-ID: <m1@example.org>\r\n\r\n");
    ASSERT_TRUE(head);
    EXPECT_EQ(head->from_written, "Böb <bob@example.org>");
    EXPECT_EQ(head->to, "ann@example.org");
    EXPECT_EQ(head->message_id, "m1@example.org");
}

TEST(ExternalMessageText, TakesTheTextPartOfANestedMultipartAndNamesItsAttachments) {
    const std::string raw =
        "Subject: report\r\nMIME-Version: 1.0\r\n"
        "Content-Type: multipart/mixed; boundary=\"outer\"\r\n\r\n"
        "preamble\r\n--outer\r\n"
        "Content-Type: multipart/alternative; boundary=inner\r\n\r\n"
        "--inner\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe text.\r\n"
        "--inner\r\nContent-Type: text/html\r\n\r\n<p>The html.</p>\r\n--inner--\r\n"
        "--outer\r\nContent-Type: application/pdf; name=\"report.pdf\"\r\n"
        "Content-Disposition: attachment; filename=\"report.pdf\"\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\nJVBERi0=\r\n--outer--\r\n";
    const auto m = mail::parse_message(raw);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->body, "The text.");  // the CRLF before a boundary belongs to the boundary
    ASSERT_EQ(m->attachments.size(), 1u);
    EXPECT_EQ(m->attachments[0].name, "report.pdf");
    EXPECT_EQ(m->attachments[0].data, "%PDF-");
}
