// The mail plugin's message composition (plugins/mail/message.hpp): RFC 5322 headers, RFC 2047
// subjects, quoted-printable bodies with CRLF line ends, short lines and no line starting with '.'.
#include "../../../plugins/mail/message.hpp"

#include <gtest/gtest.h>

#include <platform/sdk/text.hpp>
#include <string>
#include <vector>

namespace {

std::vector<std::string> crlf_lines(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t at; (at = text.find("\r\n", start)) != std::string::npos; start = at + 2)
        out.push_back(text.substr(start, at - start));
    out.push_back(text.substr(start));
    return out;
}

// Decodes quoted-printable (soft breaks removed, =XX decoded), for round trips.
std::string decode_qp(const std::string& qp) {
    std::string out;
    for (size_t i = 0; i < qp.size(); ++i) {
        if (qp[i] != '=') {
            out += qp[i];
        } else if (qp.compare(i, 3, "=\r\n") == 0) {
            i += 2;
        } else {
            out += static_cast<char>(std::stoi(qp.substr(i + 1, 2), nullptr, 16));
            i += 2;
        }
    }
    return out;
}

TEST(MailMessage, ComposesHeadersAndAQuotedPrintableBody) {
    mail::Letter l;
    l.from = "ann@example.org";
    l.to = "someone@example.net";
    l.subject = "Lunch";
    l.body = "Hi,\nnoon?\n";
    l.date_ms = 1767225600000;  // 2026-01-01T00:00:00Z, a Thursday
    l.message_id = "0123abcd@example.org";
    EXPECT_EQ(mail::compose(l),
              "From: ann@example.org\r\n"
              "To: someone@example.net\r\n"
              "Subject: Lunch\r\n"
              "Date: Thu, 01 Jan 2026 00:00:00 +0000\r\n"
              "Message-ID: <0123abcd@example.org>\r\n"
              "MIME-Version: 1.0\r\n"
              "Content-Type: text/plain; charset=utf-8\r\n"
              "Content-Transfer-Encoding: quoted-printable\r\n"
              "\r\n"
              "Hi,\r\nnoon?\r\n\r\n");
    EXPECT_EQ(mail::rfc5322_date(1767225600000 + 86400000LL * 31 + 3723000),
              "Sun, 01 Feb 2026 01:02:03 +0000");
}

TEST(MailMessage, QuotedPrintableEncodesWhatMustBeAndKeepsLinesShort) {
    EXPECT_EQ(mail::quoted_printable("a=b"), "a=3Db");
    EXPECT_EQ(mail::quoted_printable("caf\xC3\xA9"), "caf=C3=A9");
    EXPECT_EQ(mail::quoted_printable("end \nnext\t"), "end=20\r\nnext=09");
    EXPECT_EQ(mail::quoted_printable("one\r\ntwo\rthree"), "one\r\ntwo\r\nthree");
    EXPECT_EQ(mail::quoted_printable(".\n..x\nFrom me\nFrom"), "=2E\r\n=2E.x\r\n=46rom me\r\nFrom");
    EXPECT_EQ(mail::quoted_printable("tab\there"), "tab\there");

    std::string body(300, 'x');
    body[75] = '.';  // would start a continuation line
    for (int i = 0; i < 40; ++i) body += "\xE2\x82\xAC";
    body += "\n" + std::string(76, 'y') + "\n" + std::string(77, 'z');
    const std::string qp = mail::quoted_printable(body);
    for (const std::string& line : crlf_lines(qp)) {
        EXPECT_LE(line.size(), 76u) << line;
        EXPECT_NE(line.front(), '.') << line;
        for (unsigned char c : line) EXPECT_TRUE(c == '\t' || (c >= 0x20 && c <= 0x7E));
    }
    EXPECT_EQ(decode_qp(qp), [&] {
        std::string crlf;
        for (char c : body) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        return crlf;
    }());
}

TEST(MailMessage, NonAsciiSubjectsBecomeEncodedWordsCutBetweenCharacters) {
    EXPECT_EQ(mail::header_text("plain ascii", 9), "plain ascii");
    std::string subject;
    for (int i = 0; i < 40; ++i) subject += "\xC3\xA9t\xC3\xA9 ";  // 40 x "été "
    const std::string encoded = mail::header_text(subject, 9);
    std::string decoded;
    for (const std::string& line : crlf_lines(encoded)) {
        std::string word = line;
        if (word.front() == ' ') word.erase(0, 1);  // folded: CRLF SP
        ASSERT_EQ(word.rfind("=?UTF-8?B?", 0), 0u) << word;
        ASSERT_EQ(word.substr(word.size() - 2), "?=");
        EXPECT_LE(word.size(), 75u);
        const auto text = platform::base64_decode(word.substr(10, word.size() - 12));
        ASSERT_TRUE(text);
        ASSERT_FALSE(text->empty());
        EXPECT_NE(static_cast<unsigned char>(text->front()) & 0xC0, 0x80u) << "cut in a character";
        decoded += *text;
    }
    EXPECT_EQ(decoded, subject);
}

}  // namespace
