// prosody_server.hpp — Debian's Prosody on free loopback ports for a test, configured by
// scripts/xmpp (the same config a single machine runs) in a temporary folder.
//
//   ProsodyServer xmpp({.platform_url = "http://127.0.0.1:" + std::to_string(host.api_port()),
//                       .component_secret = "..."});
//   if (!xmpp.installed()) GTEST_SKIP() << xmpp.why();
//   ASSERT_TRUE(xmpp.ready()) << xmpp.log();
//
// The constructor installs prosody through `scripts/xmpp install` when it is missing (installed()
// is false only when that failed), writes the config, starts `prosody -F` and waits until both the
// client and the component ports accept connections (a bounded poll of a condition). The
// destructor sends SIGTERM, then SIGKILL after 5 s, reaps it and removes the folder.
#pragma once

#include <string>

namespace platform::test {

class ProsodyServer {
public:
    struct Options {
        std::string platform_url;      // the platform's gateway, which checks logins
        std::string component_secret;  // the bridge component's secret
        std::string domain = "localhost";
        int component_port = 0;  // 0: a free one (a host told the port beforehand connects there)
    };

    explicit ProsodyServer(const Options& options);
    ~ProsodyServer();
    ProsodyServer(const ProsodyServer&) = delete;
    ProsodyServer& operator=(const ProsodyServer&) = delete;

    bool installed() const { return installed_; }
    bool ready() const { return ready_; }
    const std::string& why() const { return why_; }  // why prosody is not installed
    std::string log() const;                         // Prosody's console output

    int c2s_port() const { return c2s_port_; }
    int component_port() const { return component_port_; }
    std::string c2s_service() const;  // xmpp://127.0.0.1:PORT, for @xmpp/client

private:
    void start(const Options& options);
    void stop();

    std::string dir_, why_;
    bool installed_ = false, ready_ = false;
    int pid_ = -1, c2s_port_ = 0, component_port_ = 0;
};

}  // namespace platform::test
