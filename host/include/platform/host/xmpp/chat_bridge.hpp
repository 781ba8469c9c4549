// platform/host/xmpp/chat_bridge.hpp — chat rooms and XMPP rooms as one (XMPP federation of the
// `chat` service), through the host's XMPP component (xmpp_component.hpp).
//
// Addresses, for the XMPP domain D (XmppSettings::domain):
//   ID@D                      platform account ID; Prosody checks its secret with the platform
//                             (deploy/xmpp/mod_auth_platform.lua)
//   ROOM@conference.D         chat room ROOM (a group's id, or a public room's name): a room of
//                             Prosody's own MUC service, so standard clients join it as any room
//   bridge.D                  this component
//   relay@bridge.D/bridge     the bridge's listening occupant, nick "platform", in each bridged room
//   ID@bridge.D/web           web account ID's occupant, nick "ID (web)", joined at its first
//                             message in a room
//
// XMPP → platform: a groupchat message the listening occupant receives from an occupant whose real
// JID is ID@D (rooms show real JIDs: scripts/xmpp configures it) becomes `chat/send` {room,
// message} dispatched as account ID; the chat service checks membership. A room whose `send`
// answers CONFLICT (an encrypted group: OMEMO clients only) is not bridged any more.
// Platform → XMPP: every message on the events topic `chat:all` that the bridge did not write
// itself is sent to its room by the author's web occupant. The bridge knows its own messages by
// {room, from, text} noted before its `send` and matched once on `chat:all`: no echo, and no
// change to the chat service.
//
// Direct messages: a chat message between two accounts of D reaches the bridge as a copy from
// deploy/xmpp/mod_platform_direct.lua (<direct xmlns='urn:platform:xmpp:direct' to='bob@D'/>, from
// ann@D) and becomes `chat/send` {room: "@bob"} dispatched as ann. A message on `chat:all` with a
// `to` (the chat service's direct rooms) goes to to@D from bridge.D with <direct from='ann'/>; the
// module sends it on from ann@D. The same {room "@to", from, text} note keeps either from echoing.
//
// Which rooms: a room joins the bridge when it has a message on `chat:all`, or when Prosody's MUC
// tells that someone joined it (deploy/xmpp/mod_platform_rooms.lua sends bridge.D a headline
// message whose body is the room's JID).
//
// Threads: start() starts the component's thread and a thread following `chat:all`; stop() ends
// both. Calls into chat run on the runtime's workers; shared state is under one mutex.
#pragma once

#include <memory>
#include <platform/host/core/profile.hpp>
#include <string>

namespace platform::host {

class Runtime;

// The profile's xmpp section with the environment applied: PLATFORM_XMPP_DOMAIN,
// PLATFORM_XMPP_COMPONENT_PORT (the port of `server`, on 127.0.0.1) and
// PLATFORM_XMPP_COMPONENT_SECRET. Throws std::invalid_argument naming the setting when the domain
// or the server address is malformed or no secret is set.
XmppSettings effective_xmpp_settings(XmppSettings profile);

class ChatBridge {
public:
    ChatBridge(Runtime& runtime, XmppSettings settings);
    ~ChatBridge();  // stop()
    ChatBridge(const ChatBridge&) = delete;
    ChatBridge& operator=(const ChatBridge&) = delete;

    void start();
    void stop();

    struct State;  // chat_bridge.cpp

private:
    std::shared_ptr<State> state_;  // shared with calls still running
};

}  // namespace platform::host
