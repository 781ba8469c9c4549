-- mod_auth_platform — Prosody authenticates XMPP logins against Platform accounts.
--
-- What: an auth provider (authentication = "platform") whose only check is the platform's own
-- login. SASL PLAIN hands the username and secret to test_password, which asks the platform's
-- gateway `POST <platform_url>/auth/token` {id, secret, token_expiry = 60}: 200 means the secret
-- is right, 401 that it is wrong. The refresh token that login issues is revoked at once
-- (`POST /auth/revoke` with the short-lived access token), so a check leaves nothing behind but an
-- access token that expires within a minute.
--
-- Config (prosody.cfg.lua, written by scripts/xmpp):
--   authentication = "platform"
--   platform_url = "http://127.0.0.1:8080"   -- the platform's gateway (api address)
--   platform_namespace = "go.core.api"       -- optional: sent as Platform-Namespace
--
-- Accounts: the XMPP username is the platform account id. XMPP lowercases localparts, so only
-- accounts whose id is lowercase (and a valid localpart) can log in over XMPP.
--
-- Threads: Prosody 0.12 runs SASL inside an async runner; test_password waits for the HTTP
-- answers with util.async (other sessions go on meanwhile). Outside a runner it refuses.
-- Passwords are never logged.

local new_sasl = require "util.sasl".new;
local http = require "net.http";
local async = require "util.async";
local json = require "util.json";

local log = module._log;
local host = module.host;

local platform_url = module:get_option_string("platform_url", "http://127.0.0.1:8080"):gsub("/+$", "");
local namespace = module:get_option_string("platform_namespace", nil);

local function headers(token)
	local h = { ["Content-Type"] = "application/json", ["Accept"] = "application/json" };
	if namespace then h["Platform-Namespace"] = namespace; end
	if token then h["Authorization"] = "Bearer " .. token; end
	return h;
end

-- POST path with a JSON body; the decoded answer and its status, or nil and an error.
local function post(path, body, token)
	if not async.ready() then return nil, "not in an async runner"; end
	local response, err = async.wait_for(http.request(platform_url .. path, {
		method = "POST"; headers = headers(token); body = json.encode(body);
	}));
	if not response then return nil, tostring(err); end
	return json.decode(response.body or "") or {}, response.code;
end

local provider = {};

function provider.test_password(username, password)
	local answer, code = post("/auth/token", { id = username, secret = password, token_expiry = 60 });
	if code == 200 and type(answer) == "table" and answer.access_token then
		if answer.refresh_token then
			local _, revoked = post("/auth/revoke", { refresh_token = answer.refresh_token }, answer.access_token);
			if revoked ~= 200 then
				log("warn", "could not revoke the login token of '%s' (status %s)", username, tostring(revoked));
			end
		end
		return true;
	end
	if code == 401 or code == 400 then
		log("debug", "platform refused the login of '%s'", username);
	else
		log("warn", "platform login check for '%s' failed: %s", username, tostring(code));
	end
	return nil, "Auth failed. Invalid username or password.";
end

-- The platform decides at login; every other question about users is not Prosody's to answer.
function provider.user_exists(username)
	return true;
end

function provider.users()
	return function() return nil; end;
end

function provider.set_password(username, password)
	return nil, "Secrets are changed on the platform.";
end

function provider.create_user(username, password)
	return nil, "Accounts are created on the platform.";
end

function provider.delete_user(username)
	return nil, "Accounts are deleted on the platform.";
end

function provider.get_sasl_handler()
	return new_sasl(host, {
		plain_test = function(_, username, password, realm)
			return provider.test_password(username, password), true;
		end;
	});
end

module:provides("auth", provider);
