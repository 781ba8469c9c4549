// Inbound SMTP (host/src/smtp/, plugins/mail/inbound.cpp) against a client nobody here wrote:
// Debian's swaks, to the real host on the `test` profile (auth-noop: the bearer token is the
// account) with mail domain example.org, `--smtp_address 127.0.0.1:0` (the port read from the
// startup line's `smtp=`) and TLS on with a certificate made by openssl, so the listener offers
// STARTTLS; letters are read back over the proxy port's /rpc, which stays plain HTTP.
//
// Checked: a plain letter reaches a user and `mail/inbox` + `mail/read` show it; a multipart
// message with an attachment, sent after STARTTLS, is read back with the attachment's name and
// `mail/attachment` gives its bytes; a
// message signed with
// DKIM (python3-dkim's dkimsign, a fresh RSA key from openssl, the public key given to the mail
// plugin in its `dkim_keys_file`: no DNS) reads `dkim: pass`, and the same message changed after
// signing `dkim: fail`; a recipient at another domain is refused (never an open relay); `info`
// says mail from outside arrives. Mail to agent@example.org from an address an account linked,
// DKIM-signed by that address's domain, is answered through the relay (PLATFORM_SMTP_RELAY: a
// python3-aiosmtpd sink, support/smtp_sink.hpp, which checks what arrives); unsigned, or from an
// address nobody linked, it is refused with 550 5.7.1 and nothing is sent back. The tests skip when swaks, dkimsign or openssl are missing (scripts/deps.sh installs them).
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <regex>
#include <string>

#include "command.hpp"
#include "eventually.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "smtp_sink.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// Where `program` is on PATH; "" when it is not.
std::string which(const std::string& program) {
    CommandResult r = run_command({"/bin/sh", "-c", "command -v " + program}, {}, 10);
    while (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
    return r.code == 0 ? r.out : "";
}

class InboundSmtp : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        swaks_ = which("swaks");
        tools_missing_ = swaks_.empty() || which("dkimsign").empty() || which("openssl").empty();
        if (tools_missing_) return;
        dir_ = std::make_unique<TempDir>();
        const std::string d = dir_->path();
        // A DKIM key for example.net (selector "sel"), its public half in opendkim's key file.
        auto made = run_command(
            {"/bin/sh", "-c",
             "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out " + d +
                 "/dkim.pem 2>/dev/null && printf 'sel._domainkey.example.net v=DKIM1; k=rsa; "
                 "p=%s\\n' \"$(openssl pkey -in " +
                 d + "/dkim.pem -pubout -outform DER | base64 -w0)\" > " + d + "/keys.txt"},
            {}, 30);
        ASSERT_EQ(made.code, 0) << made.err;
        made = run_command({which("openssl"), "req", "-x509", "-newkey", "ec", "-pkeyopt",
                            "ec_paramgen_curve:P-256", "-nodes", "-keyout", d + "/key.pem", "-out",
                            d + "/cert.pem", "-days", "2", "-subj", "/CN=localhost"},
                           {}, 30);
        ASSERT_EQ(made.code, 0) << made.err;
        HostProcess::Options o;
        o.profile = d + "/smtp.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "mail",
                                                       "dkim_keys_file: " + d + "/keys.txt");
        o.args = {"--smtp_address", "127.0.0.1:0",    "--enable_tls", "--tls_cert_file",
                  d + "/cert.pem",  "--tls_key_file", d + "/key.pem"};
        o.env["PLATFORM_MAIL_DOMAIN"] = "example.org";
        sink_ = std::make_unique<SmtpSink>(d);
        ASSERT_NE(sink_->port, 0) << sink_->why;
        o.env["PLATFORM_SMTP_RELAY"] = sink_->relay_url();
        host_ = std::make_unique<HostProcess>(o);
        host_->start();
        std::smatch m;
        const std::string log = host_->log();
        ASSERT_TRUE(std::regex_search(log, m, std::regex(" smtp=127\\.0\\.0\\.1:([0-9]+)"))) << log;
        smtp_port_ = m[1];
    }
    static void TearDownTestSuite() {
        host_.reset();
        sink_.reset();
        dir_.reset();
    }
    void SetUp() override {
        if (tools_missing_) GTEST_SKIP() << "swaks, dkimsign or openssl missing (scripts/deps.sh)";
        ASSERT_TRUE(host_) << "the host did not start (see the suite's set-up failure)";
        proxy_ = std::make_unique<HttpClient>("127.0.0.1", host_->proxy_port());
    }

    // swaks to the listener with `args` after the server options; its exit code and transcript.
    CommandResult swaks(std::vector<std::string> args) {
        std::vector<std::string> argv = {
            swaks_,   "--server",           "127.0.0.1", "--port",          smtp_port_,
            "--helo", "client.example.net", "--from",    "ann@example.net", "--timeout",
            "10"};
        argv.insert(argv.end(), args.begin(), args.end());
        return run_command(argv, {}, 30);
    }
    // mail `method` as `who` over the proxy port's /rpc; the answer (null when not 200).
    json mail(const std::string& method, const json& request, const std::string& who) {
        auto r = proxy_->post_json(
            "/rpc", {{"service", "v1.mail"}, {"method", method}, {"request", request}},
            bearer(who));
        EXPECT_EQ(r.status, 200) << method << ": " << r.body;
        return r.status == 200 ? r.json() : json();
    }
    // `who`'s newest letter (mail/inbox, then mail/read).
    json newest(const std::string& who) {
        const json messages = mail("Mail.Inbox", json::object(), who)["messages"];
        if (!messages.is_array() || messages.empty()) return json();
        return mail("Mail.Read", {{"id", messages[0]["id"]}}, who);
    }
    // `text` (an Internet message, CRLF lines) signed with the suite's DKIM key for example.net.
    std::string signed_message(const std::string& name, const std::string& text) {
        const std::string path = write(name, text);
        auto sign =
            run_command({"/bin/sh", "-c",
                         "dkimsign --hcanon relaxed --bcanon relaxed sel example.net " +
                             dir_->path() + "/dkim.pem < " + path + " > " + path + ".signed"},
                        {}, 30);
        EXPECT_EQ(sign.code, 0) << sign.err;
        return path + ".signed";
    }
    std::string write(const std::string& name, const std::string& text) {
        const std::string path = dir_->path() + "/" + name;
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

    static inline std::unique_ptr<TempDir> dir_;
    static inline std::unique_ptr<HostProcess> host_;
    static inline std::unique_ptr<SmtpSink> sink_;
    static inline std::string smtp_port_, swaks_;
    static inline bool tools_missing_ = false;
    std::unique_ptr<HttpClient> proxy_;
};

TEST_F(InboundSmtp, DeliversLettersAndAttachmentsToUsers) {
    auto plain = swaks({"--to", "smtp-bob@example.org", "--header", "Subject: Hello from afar",
                        "--body", "Line one\n.leading dot\nLine three"});
    ASSERT_EQ(plain.code, 0) << plain.out << plain.err;
    EXPECT_TRUE(has(plain.out, "<-  250 2.0.0 OK")) << plain.out;
    const json letter = newest("smtp-bob");
    EXPECT_EQ(letter["subject"], "Hello from afar");
    EXPECT_EQ(letter["from"], "ann@example.net");
    EXPECT_TRUE(has(letter["body"].get<std::string>(), ".leading dot")) << letter;
    EXPECT_EQ(letter["attachments"], json::array());
    EXPECT_EQ(letter["dkim"], "none");

    const std::string notes = write("notes.txt", "the attached notes\n");
    auto multipart =
        swaks({"--to", "smtp-carl+Trips@example.org", "--header", "Subject: Files", "--body",
               "See the notes.", "--attach-type", "text/plain", "--attach", "@" + notes});
    ASSERT_EQ(multipart.code, 0) << multipart.out << multipart.err;
    const json with_file = newest("smtp-carl");
    EXPECT_EQ(with_file["subject"], "Files");
    EXPECT_EQ(with_file["tag"], "trips");
    EXPECT_TRUE(has(with_file["body"].get<std::string>(), "See the notes.")) << with_file;
    EXPECT_EQ(with_file["attachments"], json::array({"notes.txt"}));
    const json file = mail("Mail.Attachment", {{"id", with_file["id"]}, {"n", 1}}, "smtp-carl");
    EXPECT_EQ(file["name"], "notes.txt");
    EXPECT_EQ(file["type"], "text/plain");
    EXPECT_EQ(file["data"], "dGhlIGF0dGFjaGVkIG5vdGVzCg==");  // "the attached notes\n"
    EXPECT_EQ(file["size"], 19);
    // Another account naming carl's letter finds nothing: neither the letter nor its attachment.
    for (const auto& [method, args] : std::vector<std::pair<std::string, json>>{
             {"Mail.Read", {{"id", with_file["id"]}}},
             {"Mail.Attachment", {{"id", with_file["id"]}, {"n", 1}}}}) {
        auto other = proxy_->post_json(
            "/rpc", {{"service", "v1.mail"}, {"method", method}, {"request", args}},
            bearer("smtp-dora"));
        EXPECT_EQ(other.status, 404) << method << ": " << other.body;
        EXPECT_FALSE(has(other.body, "notes")) << other.body;
    }
}

TEST_F(InboundSmtp, RecordsDkimAndNeverRelays) {
    const std::string message_text =
        "From: ann@example.net\r\nTo: smtp-dora@example.org\r\nSubject: Signed\r\n"
        "Message-ID: <signed-1@example.net>\r\nDate: Thu, 01 Jan 2026 10:00:00 +0000\r\n\r\n"
        "This letter is signed.\r\n";
    const std::string message = dir_->path() + "/message.eml";
    const std::string signed_path = signed_message("message.eml", message_text);
    auto sent = swaks({"--to", "smtp-dora@example.org", "--data", "@" + signed_path});
    ASSERT_EQ(sent.code, 0) << sent.out << sent.err;
    json letter = newest("smtp-dora");
    EXPECT_EQ(letter["subject"], "Signed");
    EXPECT_EQ(letter["dkim"], "pass") << letter;
    EXPECT_EQ(letter["dkim_domain"], "example.net");

    // The body changed after signing: the signature no longer holds.
    auto forged = run_command(
        {"/bin/sh", "-c",
         "sed 's/is signed/was changed/' " + message + ".signed > " + message + ".forged"},
        {}, 10);
    ASSERT_EQ(forged.code, 0);
    ASSERT_EQ(swaks({"--to", "smtp-dora@example.org", "--data", "@" + message + ".forged"}).code,
              0);
    letter = newest("smtp-dora");
    EXPECT_EQ(letter["dkim"], "fail") << letter;

    // No open relay: a recipient at any other domain is refused at RCPT, and nothing is filed.
    auto relay = swaks({"--to", "someone@example.net", "--body", "relay me"});
    EXPECT_NE(relay.code, 0);
    EXPECT_TRUE(has(relay.out, "<** 550 5.7.1")) << relay.out;
    EXPECT_EQ(newest("someone@example.net"), json());
    // The mail service knows mail from outside arrives (platform.smtp_listening).
    const json info = mail("Mail.Info", json::object(), "smtp-dora");
    EXPECT_EQ(info["outside_mail"], true) << info;
    EXPECT_EQ(info["address"], "smtp-dora@example.org");
}

TEST_F(InboundSmtp, TheAgentAnswersALinkedSignedSenderThroughTheRelayAndNoOneElse) {
    ASSERT_EQ(mail("Mail.Link", {{"address", "erin@example.net"}}, "smtp-erin")["address"],
              "erin@example.net");
    auto letter = [&](const std::string& from, const std::string& id) {
        return "From: " + from + "\r\nTo: agent@example.org\r\nSubject: Plans for " + id +
               "\r\nMessage-ID: <" + id +
               "@example.net>\r\n"
               "Date: Thu, 01 Jan 2026 10:00:00 +0000\r\n\r\nWhat is on tomorrow?\r\n";
    };
    // Unsigned: anyone could have written that From. Refused after DATA, nothing sent back.
    const std::string unsigned_path = write("unsigned.eml", letter("erin@example.net", "u1"));
    auto refused = swaks(
        {"--from", "erin@example.net", "--to", "agent@example.org", "--data", "@" + unsigned_path});
    EXPECT_NE(refused.code, 0);
    EXPECT_TRUE(has(refused.out, "<** 550 5.7.1")) << refused.out;
    EXPECT_TRUE(has(refused.out, "DKIM")) << refused.out;
    // Signed, but nobody linked the address.
    auto stranger = swaks({"--from", "frank@example.net", "--to", "agent@example.org", "--data",
                           "@" + signed_message("frank.eml", letter("frank@example.net", "f1"))});
    EXPECT_NE(stranger.code, 0);
    EXPECT_TRUE(has(stranger.out, "<** 550 5.7.1")) << stranger.out;
    EXPECT_TRUE(has(stranger.out, "mail/link")) << stranger.out;

    // Signed by the linked address's domain: the agent runs as smtp-erin and the answer leaves
    // through the relay, to erin, in the same thread.
    auto asked = swaks({"--from", "erin@example.net", "--to", "agent@example.org", "--data",
                        "@" + signed_message("erin.eml", letter("erin@example.net", "e1"))});
    ASSERT_EQ(asked.code, 0) << asked.out << asked.err;
    ASSERT_TRUE(eventually([&] { return !sink_->letters().empty(); })) << host_->log();
    const auto relayed = sink_->letters();
    ASSERT_EQ(relayed.size(), 1u) << "only the accepted letter is answered";
    const json& answer = relayed[0];
    EXPECT_EQ(answer["mail_from"], "agent@example.org") << answer;
    EXPECT_EQ(answer["rcpt_tos"], json::array({"erin@example.net"})) << answer;
    EXPECT_EQ(answer["headers"]["subject"], "Re: Plans for e1") << answer;
    EXPECT_EQ(answer["headers"]["in-reply-to"], "<e1@example.net>") << answer;
    EXPECT_FALSE(answer["body"].get<std::string>().empty()) << answer;
}

}  // namespace
