// The chat ↔ XMPP bridge (chat_bridge.hpp).
#include <platform/abi.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <platform/host/core/plugin.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/service_registry.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/xmpp/chat_bridge.hpp>
#include <platform/host/xmpp/xmpp_component.hpp>
#include <regex>
#include <set>
#include <thread>

namespace platform::host {

using nlohmann::json;

namespace {
const std::string kTopic = "chat:all";
const std::string kListener = "platform";  // the listening occupant's nick

std::string view_str(platform_str_t s) {
    return s.len ? std::string(s.ptr, s.len) : std::string();
}
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
std::string bare(const std::string& jid) {
    return jid.substr(0, jid.find('/'));
}
// `account` as a JID's local part (XEP-0106): account ids may hold `@` and other characters a
// local part may not.
std::string local_part(const std::string& account) {
    static const std::string escaped = " \"&'/:<>@\\";
    std::string out;
    for (char c : account) {
        if (escaped.find(c) == std::string::npos) {
            out += c;
            continue;
        }
        char hex[4];
        std::snprintf(hex, sizeof hex, "\\%02x", static_cast<unsigned char>(c));
        out += hex;
    }
    return out;
}
bool bridgeable(const std::string& room) {
    static const std::regex name("^[a-z0-9][a-z0-9._-]{0,63}$");
    return std::regex_match(room, name);
}
}  // namespace

struct ChatBridge::State : std::enable_shared_from_this<ChatBridge::State> {
    Runtime& runtime;
    XmppSettings settings;
    std::string muc, component;  // conference.D, bridge.D
    std::unique_ptr<XmppComponent> xmpp;
    std::thread follower;
    std::atomic<bool> running{false};

    std::mutex m;
    std::set<std::string> listening;                              // rooms the listener joined
    std::set<std::string> excluded;                               // encrypted rooms
    std::set<std::pair<std::string, std::string>> web_occupants;  // {room, account}
    std::map<std::string, std::map<std::string, std::string>> real_jids;  // room -> nick -> jid
    std::multiset<std::tuple<std::string, std::string, std::string>> pending;  // room, from, text

    State(Runtime& rt, XmppSettings s)
        : runtime(rt),
          settings(std::move(s)),
          muc("conference." + settings.domain),
          component("bridge." + settings.domain) {}

    std::string listener_jid() const { return "relay@" + component + "/bridge"; }
    std::string room_jid(const std::string& room) const { return room + "@" + muc; }

    static std::string join_presence(const std::string& from, const std::string& to) {
        return "<presence from='" + XmppComponent::escape(from) + "' to='" +
               XmppComponent::escape(to) +
               "'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x>"
               "</presence>";
    }

    // Joins the listener to `room` once (caller holds m).
    void listen_locked(const std::string& room) {
        if (!bridgeable(room) || excluded.count(room) || !listening.insert(room).second) return;
        spdlog::info("xmpp: bridging room {}", room);
        xmpp->send(join_presence(listener_jid(), room_jid(room) + "/" + kListener));
    }

    // On (re)connecting: joins the rooms it was in, and asks the MUC service for its rooms, which
    // people may have entered while the bridge was away.
    void rejoin_all() {
        std::lock_guard<std::mutex> lock(m);
        web_occupants.clear();
        real_jids.clear();
        auto rooms = std::move(listening);
        listening.clear();
        for (const auto& r : rooms) listen_locked(r);
        xmpp->send("<iq type='get' id='platform-rooms' from='" + XmppComponent::escape(component) +
                   "' to='" + XmppComponent::escape(muc) +
                   "'><query xmlns='http://jabber.org/protocol/disco#items'/></iq>");
    }

    // The room a JID of the MUC service names ("" for any other JID).
    std::string room_of(const std::string& jid) const {
        const std::string b = bare(jid);
        const auto at = b.find('@');
        return at != std::string::npos && b.substr(at + 1) == muc ? b.substr(0, at) : "";
    }

    // The account of a JID of the XMPP domain ("" for any other JID).
    std::string account_of(const std::string& jid) const {
        const std::string b = bare(jid);
        const auto at = b.find('@');
        return at != std::string::npos && at > 0 && b.substr(at + 1) == settings.domain
                   ? b.substr(0, at)
                   : "";
    }

    // ---- XMPP → platform ----
    void on_stanza(const XmppStanza& s) {
        const std::string from_bare = bare(s.from);
        if (s.name == "message" && s.to == component && !s.direct_to.empty()) {
            direct_to_chat(s);
            return;
        }
        if (s.name == "message" && s.type == "headline" && s.from == muc) {
            // mod_platform_rooms: someone joined the room in the body.
            std::lock_guard<std::mutex> lock(m);
            if (std::string room = room_of(s.body); !room.empty()) listen_locked(room);
            return;
        }
        if (s.name == "iq" && s.type == "get" && s.from == muc && !s.member_room.empty()) {
            answer_membership(s);
            return;
        }
        if (s.name == "iq" && s.type == "result" && s.id == "platform-rooms" && s.from == muc) {
            std::lock_guard<std::mutex> lock(m);
            // Public rooms only: whether a group's room is encrypted is learnt when someone enters.
            static const std::regex group("^[0-9a-f]{32}$");
            for (const auto& item : s.items)
                if (std::string room = room_of(item);
                    !room.empty() && !std::regex_match(room, group))
                    listen_locked(room);
            return;
        }
        const auto at = from_bare.find('@');
        if (at == std::string::npos || from_bare.substr(at + 1) != muc) return;
        const std::string room = from_bare.substr(0, at);
        const std::string nick =
            s.from.size() > from_bare.size() ? s.from.substr(from_bare.size() + 1) : "";
        if (s.name == "presence" && s.to == listener_jid()) {
            std::lock_guard<std::mutex> lock(m);
            if ((s.type == "unavailable" || s.type == "error") && nick == kListener) {
                listening.erase(room);  // refused or removed: joined again at the next notice
                real_jids.erase(room);
            } else if (s.type == "unavailable") {
                real_jids[room].erase(nick);
            } else if (!s.real_jid.empty()) {
                real_jids[room][nick] = bare(s.real_jid);
            }
            return;
        }
        if (s.name == "presence" && s.type == "error") {  // a web occupant was refused
            std::lock_guard<std::mutex> lock(m);
            web_occupants.erase({room, nick.substr(0, nick.rfind(" (web)"))});
            spdlog::info("xmpp: {} could not enter room {} for the web", nick, room);
            return;
        }
        if (s.name != "message" || s.type != "groupchat" || s.to != listener_jid() || s.delayed ||
            s.body.empty() || nick.empty())
            return;
        std::string account;
        {
            std::lock_guard<std::mutex> lock(m);
            if (excluded.count(room)) return;
            auto r = real_jids.find(room);
            if (r == real_jids.end()) return;
            auto j = r->second.find(nick);
            if (j == r->second.end()) return;
            const auto a = j->second.find('@');
            if (a == std::string::npos || j->second.substr(a + 1) != settings.domain) return;
            account = j->second.substr(0, a);  // occupants of bridge.D are the web's own
            pending.emplace(room, account, s.body);
        }
        send_to_chat(room, account, s.body);
    }

    // A client's direct message (mod_platform_direct's copy, or sent to the bridge itself): the
    // sender's message in the direct room with the addressee, unless either is not of the domain.
    void direct_to_chat(const XmppStanza& s) {
        const std::string account = account_of(s.from), peer = account_of(s.direct_to);
        if (account.empty() || peer.empty() || s.body.empty() || s.delayed) return;
        const std::string room = "@" + peer;
        {
            std::lock_guard<std::mutex> lock(m);
            pending.emplace(room, account, s.body);
        }
        send_to_chat(room, account, s.body);
    }

    // mod_platform_rooms asks whether a JID may enter a group's room: yes when groups/read of the
    // group answers its account (that is, the account is a member).
    void answer_membership(const XmppStanza& s) {
        auto answer = [self = shared_from_this(), id = s.id](bool yes) {
            const std::string head = "<iq type='" + std::string(yes ? "result" : "error") +
                                     "' id='" + XmppComponent::escape(id) + "' from='" +
                                     XmppComponent::escape(self->component) + "' to='" +
                                     XmppComponent::escape(self->muc) + "'";
            self->xmpp->send(yes ? head + "/>"
                                 : head +
                                       "><error type='auth'><forbidden "
                                       "xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error>"
                                       "</iq>");
        };
        const std::string who = bare(s.member_jid);
        const auto at = who.find('@');
        const ServiceEntry* svc = runtime.registry().find("groups");
        const Endpoint* ep = svc ? svc->plugin->endpoint("read") : nullptr;
        if (at == std::string::npos || who.substr(at + 1) != settings.domain || !ep)
            return answer(false);
        Invocation inv;
        inv.service = svc;
        inv.endpoint = ep;
        inv.http_method = "GET";
        inv.args = {{"id", s.member_room}};
        runtime.dispatch_as(
            account_identity(who.substr(0, at)), std::move(inv),
            [answer, self = shared_from_this(), room = s.member_room](Outcome o) {
                const json group = json::parse(o.body, nullptr, false);
                if (o.code == PLATFORM_OK && group.is_object() && group.value("encrypted", false)) {
                    std::lock_guard<std::mutex> lock(self->m);
                    self->excluded.insert(room);  // OMEMO clients only: the bridge stays out
                }
                answer(o.code == PLATFORM_OK);
            });
    }

    Identity account_identity(const std::string& account) const {
        Identity who;
        who.id = account;
        who.type = "user";
        who.name = account;
        who.issuer = runtime.settings().ns;
        return who;
    }

    void send_to_chat(const std::string& room, const std::string& account,
                      const std::string& text) {
        const ServiceEntry* svc = runtime.registry().find("chat");
        const Endpoint* ep = svc ? svc->plugin->endpoint("send") : nullptr;
        auto forget = [self = shared_from_this(), room, account, text] {
            std::lock_guard<std::mutex> lock(self->m);
            auto it = self->pending.find({room, account, text});
            if (it != self->pending.end()) self->pending.erase(it);
        };
        if (!ep) {
            forget();
            spdlog::warn("xmpp: no chat service to take a message of {} in {}", account, room);
            return;
        }
        Invocation inv;
        inv.service = svc;
        inv.endpoint = ep;
        inv.http_method = "POST";
        inv.args = {{"room", room}, {"message", text}};
        // The callback keeps the state alive: a call may end after stop().
        runtime.dispatch_as(
            account_identity(account), std::move(inv),
            [self = shared_from_this(), forget, room, account](Outcome o) {
                if (o.code == PLATFORM_OK) return;
                forget();
                if (o.code == PLATFORM_CONFLICT) {
                    std::lock_guard<std::mutex> lock(self->m);
                    self->excluded.insert(room);  // an encrypted group: OMEMO clients only
                    return;
                }
                spdlog::info("xmpp: chat/send of {} in {} refused: {}", account, room, o.body);
            });
    }

    // ---- platform → XMPP ----
    void relay(const json& msg) {
        const std::string from = msg.value("from", ""), text = msg.value("text", ""),
                          to = msg.value("to", "");
        if (!to.empty()) return relay_direct(from, to, text);
        const std::string room = msg.value("room", "");
        if (room.empty() || from.empty() || text.empty() || !bridgeable(room)) return;
        std::lock_guard<std::mutex> lock(m);
        auto mine = pending.find({room, from, text});
        if (mine != pending.end()) {  // written by the bridge: XMPP has it already
            pending.erase(mine);
            return;
        }
        if (excluded.count(room) || !xmpp->connected()) return;
        listen_locked(room);
        const std::string occupant = local_part(from) + "@" + component + "/web";
        if (web_occupants.insert({room, from}).second)
            xmpp->send(join_presence(occupant, room_jid(room) + "/" + from + " (web)"));
        xmpp->send("<message from='" + XmppComponent::escape(occupant) + "' to='" +
                   XmppComponent::escape(room_jid(room)) + "' type='groupchat'><body>" +
                   XmppComponent::escape(text) + "</body></message>");
    }

    // A web direct message to `to`'s XMPP account, sent on from `from`'s account by
    // mod_platform_direct (the component may only send from its own domain).
    void relay_direct(const std::string& from, const std::string& to, const std::string& text) {
        if (from.empty() || text.empty()) return;
        std::lock_guard<std::mutex> lock(m);
        auto mine = pending.find({"@" + to, from, text});
        if (mine != pending.end()) {  // written by the bridge: XMPP has it already
            pending.erase(mine);
            return;
        }
        if (!xmpp->connected()) return;
        xmpp->send("<message from='" + XmppComponent::escape(component) + "' to='" +
                   XmppComponent::escape(local_part(to) + "@" + settings.domain) +
                   "' type='chat'><body>" + XmppComponent::escape(text) +
                   "</body><direct xmlns='urn:platform:xmpp:direct' from='" +
                   XmppComponent::escape(local_part(from)) + "'/></message>");
    }

    void follow() {
        Plugin* p = runtime.provider("events");
        auto* events =
            p ? static_cast<const platform_events_provider_t*>(p->desc->provider) : nullptr;
        if (!events) {
            spdlog::warn("xmpp: no events provider: web messages are not relayed to XMPP");
            return;
        }
        uint64_t after = 0;  // start at the topic's end: earlier messages are history
        events->topics(
            p->instance,
            [](void* user, platform_str_t bytes) {
                json all = json::parse(view_str(bytes), nullptr, false);
                if (!all.is_array()) return;
                for (const auto& t : all)
                    if (t.value("topic", "") == kTopic)
                        *static_cast<uint64_t*>(user) = t.value("last_offset", uint64_t{0});
            },
            &after);
        while (running) {
            if (events->wait(p->instance, view(kTopic), after, 500) != PLATFORM_OK) continue;
            std::vector<std::pair<uint64_t, json>> batch;
            events->read(
                p->instance, view(kTopic), after + 1, 100,
                [](void* user, const platform_event_t* e) {
                    auto* b = static_cast<std::vector<std::pair<uint64_t, json>>*>(user);
                    b->emplace_back(e->offset, json::parse(view_str(e->payload), nullptr, false));
                    return true;
                },
                &batch);
            for (auto& [offset, msg] : batch) {
                after = std::max(after, offset);
                if (msg.is_object()) relay(msg);
            }
        }
    }
};

ChatBridge::ChatBridge(Runtime& runtime, XmppSettings settings)
    : state_(std::make_shared<State>(runtime, std::move(settings))) {
    State* s = state_.get();
    auto [host, port] = split_address(s->settings.server);
    s->xmpp = std::make_unique<XmppComponent>(
        XmppComponent::Options{
            s->component, host, port, s->settings.secret,
            s->settings.prosody == "scripts"
                ? " (Prosody on this machine: `scripts/xmpp run` with the same PLATFORM_XMPP_* "
                  "environment)"
                : " (the operator's XMPP server)"},
        [s](const XmppStanza& st) { s->on_stanza(st); }, [s] { s->rejoin_all(); });
}

ChatBridge::~ChatBridge() {
    stop();
}

void ChatBridge::start() {
    state_->running = true;
    state_->xmpp->start();
    state_->follower = std::thread([s = state_.get()] { s->follow(); });
}

void ChatBridge::stop() {
    if (!state_->running.exchange(false)) return;
    if (state_->follower.joinable()) state_->follower.join();
    state_->xmpp->stop();
}

}  // namespace platform::host
