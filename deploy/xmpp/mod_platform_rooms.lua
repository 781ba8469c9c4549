-- mod_platform_rooms — tells the platform's bridge component which MUC rooms people are in.
--
-- What: loaded on the MUC component (conference.<domain>). When an occupant whose JID is not the
-- bridge's own joins a room, the bridge (platform_bridge, default bridge.<parent domain>) gets a
-- headline message from the MUC host whose body is the room's JID; the bridge then joins the room
-- and relays it with the platform's chat (host/include/platform/host/xmpp/chat_bridge.hpp). The
-- bridge ignores such notices from any other sender.
--
-- Config (on the MUC component, written by scripts/xmpp):
--   modules_enabled = { "platform_rooms" }
--   platform_bridge = "bridge.example.org"
--
-- Threads: Prosody's event loop; nothing waits.

local st = require "util.stanza";
local jid_host = require "util.jid".host;

local parent = module.host:match("^[^.]+%.(.+)$") or module.host;
local bridge = module:get_option_string("platform_bridge", "bridge." .. parent);

module:hook("muc-occupant-joined", function(event)
	local occupant = event.occupant;
	if not occupant or jid_host(occupant.bare_jid) == bridge then return; end
	module:send(st.message({ from = module.host; to = bridge; type = "headline" })
		:text_tag("body", event.room.jid));
end);
