-- mod_platform_rooms — the platform's bridge component and Prosody's MUC rooms.
--
-- What: loaded on the MUC component (conference.<domain>), it
--   - keeps a group's room (its name is the group's id: 32 lower-case hex digits) to the group's
--     members: before anyone but the bridge enters, it asks the bridge (platform_bridge, default
--     bridge.<parent domain>) with <iq type="get"><member xmlns="urn:platform:xmpp:member"
--     room="ID" jid="user@domain"/></iq>; a result lets them in, anything else (an error, no
--     answer within 10 s, the bridge away) refuses with registration-required. The room is made
--     members-only and each one let in becomes a member (OMEMO clients encrypt for the members
--     of a members-only room with real JIDs). Other rooms (public rooms) are open;
--   - tells the bridge when someone enters a room: a headline message from the MUC host whose body
--     is the room's JID, so the bridge joins and relays it
--     (host/include/platform/host/xmpp/chat_bridge.hpp).
--
-- Config (on the MUC component, written by scripts/xmpp):
--   modules_enabled = { "platform_rooms" }
--   platform_bridge = "bridge.example.org"
--
-- Threads: Prosody 0.12 handles a client's stanzas in an async runner; the membership question
-- waits there with util.async (other sessions go on). Outside a runner a group room is refused.

local st = require "util.stanza";
local async = require "util.async";
local new_id = require "util.id".short;
local jid = require "util.jid";

local parent = module.host:match("^[^.]+%.(.+)$") or module.host;
local bridge = module:get_option_string("platform_bridge", "bridge." .. parent);

local function group_room(node)
	return node ~= nil and #node == 32 and node:match("^[0-9a-f]+$") ~= nil;
end

-- Whether the bridge says `who` may enter group room `node`.
local function member(node, who)
	if not async.ready() then return false; end
	local question = st.iq({ type = "get"; from = module.host; to = bridge; id = new_id() })
		:tag("member", { xmlns = "urn:platform:xmpp:member"; room = node; jid = who });
	local answer = async.wait_for(module:send_iq(question, nil, 10));
	return answer ~= nil;
end

module:hook("muc-occupant-pre-join", function(event)
	local room = event.room;
	local node = jid.node(room.jid);
	local who = jid.bare(event.stanza.attr.from);
	if not group_room(node) then return; end
	if jid.host(who) ~= bridge and not member(node, who) then
		module:log("info", "%s may not enter %s: not a member of the group", who, room.jid);
		event.origin.send(st.error_reply(event.stanza, "auth", "registration-required",
			"Only the group's members may enter", room.jid));
		return true;
	end
	-- Members-only, listing everyone who entered: what OMEMO clients need to encrypt for the room.
	if not room:get_members_only() then room:set_members_only(true); end
	if (room:get_affiliation(who) or "none") == "none" then
		room:set_affiliation(true, who, "member");
		-- The entering occupant's role was chosen before it had an affiliation.
		if event.occupant then event.occupant.role = room:get_default_role("member"); end
	end
end, 10);

module:hook("muc-occupant-joined", function(event)
	local occupant = event.occupant;
	if not occupant or jid.host(occupant.bare_jid) == bridge then return; end
	module:send(st.message({ from = module.host; to = bridge; type = "headline" })
		:text_tag("body", event.room.jid));
end);
