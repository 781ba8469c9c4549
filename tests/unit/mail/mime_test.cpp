// Messages from outside taken apart (plugins/mail/mime.hpp, GMime): headers, a quoted-printable
// ISO-8859-1 text part converted to UTF-8, a base64 attachment decoded, an HTML-only message read
// as text (html_text.hpp), and DKIM's verdicts short of a valid signature (dkim.hpp; a passing
// signature is checked end to end in tests/integration/smtp_test.cpp).
#include "../../../plugins/mail/mime.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "../../../plugins/mail/dkim.hpp"
#include "../../../plugins/mail/html_text.hpp"

namespace {

const std::string kMultipart =
    "From: \"Ann Example\" <ann@example.net>\r\n"
    "To: bob@example.org, carl@example.org\r\n"
    "Subject: =?UTF-8?B?R3LDvMOfZQ==?= and more\r\n"
    "Date: Thu, 01 Jan 2026 10:00:00 +0100\r\n"
    "Message-ID: <abc123@example.net>\r\n"
    "In-Reply-To: <prev@example.org>\r\n"
    "MIME-Version: 1.0\r\n"
    "Content-Type: multipart/mixed; boundary=\"XYZ\"\r\n"
    "\r\n"
    "preamble\r\n"
    "--XYZ\r\n"
    "Content-Type: text/plain; charset=iso-8859-1\r\n"
    "Content-Transfer-Encoding: quoted-printable\r\n"
    "\r\n"
    "Caf=E9 at noon, a long line that is soft=\r\n"
    " broken.\r\n"
    "--XYZ\r\n"
    "Content-Type: image/png\r\n"
    "Content-Disposition: attachment; filename=\"dot.png\"\r\n"
    "Content-Transfer-Encoding: base64\r\n"
    "\r\n"
    "iVBORw0KGgo=\r\n"
    "--XYZ--\r\n";

TEST(MailMime, ReadsHeadersTextAndAttachmentsOfAMultipartMessage) {
    auto m = mail::parse_message(kMultipart);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->from, "ann@example.net");
    EXPECT_NE(m->to.find("bob@example.org"), std::string::npos) << m->to;
    EXPECT_EQ(m->subject, "Grüße and more");
    EXPECT_EQ(m->date, "Thu, 01 Jan 2026 10:00:00 +0100");
    EXPECT_EQ(m->message_id, "abc123@example.net");
    EXPECT_EQ(m->in_reply_to, "prev@example.org");
    EXPECT_EQ(m->body, "Café at noon, a long line that is soft broken.");
    ASSERT_EQ(m->attachments.size(), 1u);
    EXPECT_EQ(m->attachments[0].name, "dot.png");
    EXPECT_EQ(m->attachments[0].type, "image/png");
    EXPECT_EQ(m->attachments[0].data, std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(MailMime, ReadsAnHtmlOnlyMessageAsTextAndRepairsBadUtf8) {
    auto m = mail::parse_message(
        "From: x@example.net\r\nSubject: hi\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        "<html><style>p{}</style><p>Hello&nbsp;<b>you</b> &amp; me</p><p>bye &#233;</p>"
        "</html>\r\n");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->body, "Hello you & me\n\nbye é");
    EXPECT_TRUE(m->attachments.empty());
    auto bad = mail::parse_message(
        "Subject: x\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        "caf\xe9\r\n");
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->body, "caf\xef\xbf\xbd\n");  // U+FFFD
}

TEST(MailMime, HtmlTextDropsTagsCommentsAndScripts) {
    EXPECT_EQ(mail::html_to_text("a<!-- x -->b<script>var c = '<p>';</script>c"), "abc");
    EXPECT_EQ(mail::html_to_text("one<br>two<br/><br><br>three  &lt;4&gt; &bogus; &#x41;"),
              "one\ntwo\n\nthree <4> &bogus; A");
}

TEST(MailDkim, UnsignedIsNoneAndAnUnverifiableSignatureFails) {
    EXPECT_EQ(mail::verify_dkim(kMultipart, "").result, "none");
    const std::string keys = ::testing::TempDir() + "mail-dkim-keys.txt";
    std::ofstream(keys) << "other._domainkey.example.net v=DKIM1; k=rsa; p=MIGf\n";
    const std::string signed_message =
        "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/simple; d=example.net; s=sel;\r\n"
        " h=from:subject; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=;\r\n"
        " b=AAAA\r\n" +
        kMultipart;
    const mail::DkimResult r = mail::verify_dkim(signed_message, keys);
    EXPECT_EQ(r.result, "fail");
    EXPECT_EQ(r.domain, "example.net");
}

}  // namespace
