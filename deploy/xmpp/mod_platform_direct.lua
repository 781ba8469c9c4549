-- mod_platform_direct — direct messages between XMPP clients and the platform's web chat.
--
-- What: loaded on the VirtualHost (the platform's XMPP domain D), it
--   - hands the platform bridge (platform_bridge, default bridge.D) a copy of every chat message
--     with a body that a local client sends to another account of D:
--       <message from="ann@D" to="bridge.D" type="chat"><body>…</body>
--         <direct xmlns="urn:platform:xmpp:direct" to="bob@D"/></message>
--     The bridge stores it as ann's message in the direct room @bob of web chat. The original is
--     delivered as usual (to bob's clients, or kept offline);
--   - delivers a web chat direct message the bridge sends as a message from its sender's own
--     account: a message from the bridge component to bob@D carrying
--     <direct xmlns="urn:platform:xmpp:direct" from="ann"/> leaves here from ann@D, the element
--     removed, so XMPP clients see one contact per account whichever side wrote.
-- Only the bridge component's own session may name a sender; a <direct/> element from anyone
-- else is removed and the message goes on from its real sender.
--
-- Config (written by scripts/xmpp): "platform_direct" in the global modules_enabled;
-- platform_bridge = "bridge.example.org" when the bridge is not bridge.<this host>.
--
-- Threads: Prosody's event loop; nothing here waits.

local st = require "util.stanza";
local jid = require "util.jid";

local xmlns_direct = "urn:platform:xmpp:direct";
local bridge = module:get_option_string("platform_bridge", "bridge." .. module.host);

local function without_direct(stanza)
	stanza:maptags(function(tag)
		if tag.name == "direct" and tag.attr.xmlns == xmlns_direct then return nil; end
		return tag;
	end);
end

-- A web chat message from the bridge: sent on from the account it names.
local function from_bridge(event)
	local origin, stanza = event.origin, event.stanza;
	local direct = stanza:get_child("direct", xmlns_direct);
	if not direct then return; end
	if origin.type ~= "component" or origin.host ~= bridge then
		without_direct(stanza);
		return;
	end
	local sender = direct.attr.from and jid.prep(direct.attr.from .. "@" .. module.host);
	if not sender or jid.host(sender) ~= module.host then
		module:log("warn", "bridge message names no valid sender: %s", tostring(direct.attr.from));
		return true; -- dropped
	end
	without_direct(stanza);
	stanza.attr.from = sender;
end

-- A client's chat message to another local account: a copy to the bridge.
local function to_bridge(event)
	local origin, stanza = event.origin, event.stanza;
	if origin.type ~= "c2s" then return; end
	local kind = stanza.attr.type or "normal";
	if kind ~= "chat" and kind ~= "normal" then return; end
	local body = stanza:get_child_text("body");
	if not body or body == "" or stanza:get_child("delay", "urn:xmpp:delay") then return; end
	local from, to = jid.bare(stanza.attr.from or origin.full_jid), jid.bare(stanza.attr.to);
	if not from or not to or from == to or jid.host(to) ~= module.host then return; end
	module:send(st.message({ from = from; to = bridge; type = "chat" })
		:text_tag("body", body)
		:tag("direct", { xmlns = xmlns_direct; to = to }):up());
end

for _, event in ipairs({ "message/bare", "message/full" }) do
	module:hook(event, from_bridge, 100);
	module:hook(event, to_bridge, 99);
end
