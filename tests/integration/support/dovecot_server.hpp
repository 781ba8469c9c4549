// dovecot_server.hpp — Debian's Dovecot (package dovecot-imapd, scripts/deps.sh) as an IMAP server
// on a free loopback port for a test, with a throwaway configuration and maildirs in a temporary
// folder. It never touches a system instance (the package's own service, if any, keeps its
// config, sockets and port 143): everything here lives under the folder.
//
//   DovecotServer imap({{"ann", "secret"}});
//   if (!imap.installed()) GTEST_SKIP() << imap.why();
//   ASSERT_TRUE(imap.ready()) << imap.log();
//   imap.deliver("ann", "Subject: hi\r\n\r\nHello\r\n", std::chrono::hours(24 * 10));
//
// The config: protocols imap, plain IMAP only on 127.0.0.1:<port> (ssl = no, plaintext logins
// allowed), a passwd-file passdb and userdb, mail_location maildir:<folder>/mail/%u, no delay
// after a failed login and no auth penalty (anvil-auth-penalty off: a test's wrong password must
// not slow its next login by seconds). As root the
// login and mail processes run as the package's dovenull and dovecot users (Dovecot refuses root
// for them), so the maildirs belong to dovecot; otherwise everything runs as the current user.
// The constructor writes the config, starts `dovecot -c <conf> -F` and waits until the port
// accepts connections (a bounded poll of a condition). The destructor sends SIGTERM, then SIGKILL
// after 5 s, reaps it and removes the folder.
#pragma once

#include <chrono>
#include <map>
#include <string>

namespace platform::test {

class DovecotServer {
public:
    // user -> password.
    explicit DovecotServer(const std::map<std::string, std::string>& users);
    ~DovecotServer();
    DovecotServer(const DovecotServer&) = delete;
    DovecotServer& operator=(const DovecotServer&) = delete;

    bool installed() const { return installed_; }
    bool ready() const { return ready_; }
    const std::string& why() const { return why_; }
    std::string log() const;

    int port() const { return port_; }
    std::string maildir(const std::string& user) const { return dir_ + "/mail/" + user; }

    // Files `message` (CRLF lines) in the user's INBOX as already delivered, its arrival time
    // (IMAP INTERNALDATE: the file's mtime) `age` ago. Answers the file's path.
    std::string deliver(const std::string& user, const std::string& message,
                        std::chrono::seconds age = std::chrono::seconds(0));

private:
    void start(const std::map<std::string, std::string>& users);
    void stop();

    std::string dir_, why_;
    bool installed_ = false, ready_ = false;
    int pid_ = -1, port_ = 0, uid_ = -1, gid_ = -1, count_ = 0;
};

}  // namespace platform::test
