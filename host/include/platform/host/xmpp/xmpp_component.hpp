// platform/host/xmpp/xmpp_component.hpp — the host's connection to an XMPP server as a component
// (XEP-0114), through libstrophe.
//
// What: one component address (bridge.<domain>) joined to the server's component port with a
// shared secret. start() runs a thread that connects, hands every incoming stanza to the handler
// and sends what send() queued; when the connection fails or drops it connects again after a pause
// (1 s, doubling up to 30 s). stop() disconnects and joins the thread.
//
// Ownership: the component owns its libstrophe context and connection; only its own thread touches
// them (libstrophe is not thread-safe). Stanzas reach the handler as XmppStanza copies.
//
// Threads: send(), connected() and stop() may be called from any thread. The handlers run on the
// component's thread and must not block for long (they may call send()). The secret is never logged.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace platform::host {

// What the bridge reads of a stanza.
struct XmppStanza {
    std::string name;  // message | presence | iq
    std::string from, to, type, id;
    std::string body;                   // message: <body/> text
    std::string real_jid;               // presence from a MUC room: <x muc#user><item jid/>
    std::vector<std::string> statuses;  // presence from a MUC room: status codes (110 = self)
    bool delayed = false;               // carries a <delay/> (history)
    std::vector<std::string> items;     // iq result of disco#items: each <item jid/>
    // iq get from mod_platform_rooms: <member xmlns='urn:platform:xmpp:member' room jid/>, asking
    // whether `member_jid` may enter group room `member_room`
    std::string member_room, member_jid;
    // message from deploy/xmpp/mod_platform_direct.lua: <direct xmlns='urn:platform:xmpp:direct'
    // to/>, a client's chat message to the account `direct_to` (a bare JID), copied to the bridge
    std::string direct_to;
    std::string xml;  // the whole stanza, for logs
};

class XmppComponent {
public:
    struct Options {
        std::string jid;   // the component's address, e.g. bridge.example.org
        std::string host;  // the server's component listener
        int port = 5347;
        std::string secret;  // the component secret; never logged
        std::string hint;    // added to the log line when connecting fails
    };
    using StanzaHandler = std::function<void(const XmppStanza&)>;
    using ConnectedHandler = std::function<void()>;

    XmppComponent(Options options, StanzaHandler on_stanza, ConnectedHandler on_connected);
    ~XmppComponent();  // stop()
    XmppComponent(const XmppComponent&) = delete;
    XmppComponent& operator=(const XmppComponent&) = delete;

    void start();
    void stop();
    // Queues one serialized stanza; sent in order once connected (dropped while disconnected for
    // more than the queue's 1000 stanzas).
    void send(std::string xml);
    bool connected() const { return connected_; }
    const std::string& jid() const { return options_.jid; }

    // `s` escaped for XML text and attribute values.
    static std::string escape(std::string_view s);

    // For libstrophe's callbacks only (xmpp_component.cpp), on the component's thread.
    struct Session;
    void deliver(const XmppStanza& stanza);
    void connection_changed(bool up, const std::string& why);

private:
    void run();

    Options options_;
    StanzaHandler on_stanza_;
    ConnectedHandler on_connected_;
    std::thread thread_;
    std::atomic<bool> running_{false}, connected_{false};
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::string> outgoing_;
};

}  // namespace platform::host
