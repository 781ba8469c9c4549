// auth-local — the `auth` service's endpoints (docs/identity.md "The `auth` service"). One
// description per endpoint: it drives validation, routes (/auth/<name>), MCP, CLI and OpenAPI.
// Handlers are in handlers.cpp. Methods carrying secrets or tokens are withheld from the agent.
#include "auth_local.hpp"

namespace auth_local {

namespace {

using platform::Access;

constexpr const char* kNamespaceNote =
    " The namespace is the request's Platform-Namespace header, else the server's.";

constexpr const char* kTokenSchema = R"json({
  "type": "object",
  "properties": {
    "id": {"type": "string", "maxLength": 128, "description": "Account id to log in as (or give name)"},
    "name": {"type": "string", "maxLength": 128, "description": "Account name to log in as, when id is not given"},
    "secret": {"type": "string", "maxLength": 1024, "description": "The account's secret"},
    "refresh_token": {"type": "string", "maxLength": 128, "description": "A refresh token from an earlier call, instead of id/name and secret; it is used up (rotated)"},
    "token_expiry": {"type": "integer", "minimum": 60, "maximum": 86400, "default": 900, "description": "Lifetime of the access token in seconds, 60 to 86400"}
  },
  "additionalProperties": false
})json";

constexpr const char* kInspectSchema = R"json({
  "type": "object",
  "properties": {"token": {"type": "string", "maxLength": 8192, "description": "An access, personal, services or session token"}},
  "required": ["token"],
  "additionalProperties": false
})json";

constexpr const char* kCreateAccountSchema = R"json({
  "type": "object",
  "properties": {
    "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$", "description": "Unique account id: letters, digits and . _ @ + -, at most 128 characters"},
    "secret": {"type": "string", "minLength": 8, "maxLength": 1024, "description": "The secret (password), 8 to 1024 characters; generated when absent"},
    "name": {"type": "string", "minLength": 1, "maxLength": 128, "description": "Unique display and login name; the id when absent"},
    "type": {"type": "string", "enum": ["user", "service"], "default": "user", "description": "user or service"},
    "scopes": {"type": "array", "maxItems": 32, "uniqueItems": true, "items": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"}, "description": "Scopes the account holds, e.g. [\"admin\"]; at most 32"},
    "metadata": {"type": "object", "maxProperties": 32, "additionalProperties": {"type": "string", "maxLength": 1024}, "description": "String values, at most 32; `timezone` is an IANA name"}
  },
  "required": ["id"],
  "additionalProperties": false
})json";

constexpr const char* kIdSchema = R"json({
  "type": "object",
  "properties": {"id": {"type": "string", "maxLength": 128, "description": "The id"}},
  "required": ["id"],
  "additionalProperties": false
})json";

constexpr const char* kChangeSecretSchema = R"json({
  "type": "object",
  "properties": {
    "id": {"type": "string", "maxLength": 128, "description": "Whose secret: yours when absent; another account's only for admins"},
    "old_secret": {"type": "string", "maxLength": 1024, "description": "The current secret; required unless an admin changes it"},
    "new_secret": {"type": "string", "minLength": 8, "maxLength": 1024, "description": "The new secret, 8 to 1024 characters"}
  },
  "required": ["new_secret"],
  "additionalProperties": false
})json";

constexpr const char* kTimezoneSchema = R"json({
  "type": "object",
  "properties": {"timezone": {"type": "string", "minLength": 1, "maxLength": 64, "description": "An IANA time zone name, e.g. Europe/London or UTC"}},
  "required": ["timezone"],
  "additionalProperties": false
})json";

constexpr const char* kCreateRuleSchema = R"json({
  "type": "object",
  "properties": {
    "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", "description": "Unique rule id, at most 64 characters"},
    "scope": {"type": "string", "maxLength": 64, "description": "Who the rule is for: <public> (or empty) anyone, * any account of the namespace, + any account of any namespace, else accounts holding this scope"},
    "resource": {"type": "string", "maxLength": 256, "pattern": "^[^:\\s]+:[^:\\s]+:\\S+$", "description": "type:name:endpoint with * wildcards, e.g. service:notes:* or *:*:*"},
    "access": {"type": "string", "enum": ["GRANTED", "DENIED", "granted", "denied"], "default": "GRANTED", "description": "GRANTED or DENIED (either case)"},
    "priority": {"type": "integer", "minimum": -1000000, "maximum": 1000000, "default": 0, "description": "Higher priorities are checked first"}
  },
  "required": ["id", "scope", "resource"],
  "additionalProperties": false
})json";

constexpr const char* kCreateTokenSchema = R"json({
  "type": "object",
  "properties": {
    "name": {"type": "string", "maxLength": 100, "description": "A label for the token"},
    "kind": {"type": "string", "enum": ["personal", "services"], "default": "personal", "description": "personal (the agent, work, inbox and services, by capability) or services (catalogue services only)"},
    "services": {"type": "array", "maxItems": 50, "uniqueItems": true, "items": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)*$", "maxLength": 128}, "description": "Only these services (notes matches v1.notes); empty or absent: every service"},
    "capabilities": {"type": "array", "maxItems": 4, "uniqueItems": true, "items": {"type": "string", "enum": ["agent", "work", "inbox", "actions"]}, "description": "Only these capabilities (actions = Allow actions); absent: every capability"},
    "expiry_days": {"type": "integer", "minimum": 1, "maximum": 3650, "description": "Days until it expires, 1 to 3650; never when absent"}
  },
  "additionalProperties": false
})json";

constexpr const char* kTokenIdSchema = R"json({
  "type": "object",
  "properties": {"id": {"type": "string", "maxLength": 64, "description": "The token's id (from listTokens)"}},
  "required": ["id"],
  "additionalProperties": false
})json";

constexpr const char* kCreateSessionSchema = R"json({
  "type": "object",
  "properties": {
    "id": {"type": "string", "maxLength": 128, "description": "Account id (or give name)"},
    "name": {"type": "string", "maxLength": 128, "description": "Account name, when id is not given"},
    "secret": {"type": "string", "maxLength": 1024, "description": "The account's secret"},
    "expiry_days": {"type": "integer", "minimum": 1, "maximum": 365, "description": "Days the session lasts, 1 to 365; the server's session_days (7) when absent"}
  },
  "required": ["secret"],
  "additionalProperties": false
})json";

constexpr const char* kDeleteSessionSchema = R"json({
  "type": "object",
  "properties": {
    "token": {"type": "string", "maxLength": 128, "description": "The session token (the platform_session cookie's value)"},
    "id": {"type": "string", "maxLength": 64, "description": "The session's id, instead of the token"}
  },
  "additionalProperties": false
})json";

constexpr const char* kRevokeSchema = R"json({
  "type": "object",
  "properties": {"refresh_token": {"type": "string", "maxLength": 128, "description": "The refresh token to revoke, with the access tokens of its login"}},
  "required": ["refresh_token"],
  "additionalProperties": false
})json";

}  // namespace

void AuthLocal::describe(platform::ServiceSpec<AuthLocal>& s) {
    s.id("auth-local")
        .version("1.0.0")
        .service("auth")
        .summary(
            "Accounts, rules, tokens and sessions kept in the store (argon2id secrets, ES256 "
            "access tokens)");
    const std::string ns = kNamespaceNote;
    s.post("token")
        .title("Log in or refresh")
        .description(
            "Exchanges {id|name, secret} or {refresh_token} for an ES256 access token "
            "(token_expiry s) and "
            "a refresh token; a refresh token is used up and replaced. 401 `invalid credentials` "
            "for an "
            "unknown account or a wrong secret, 400 when neither credentials nor a refresh token "
            "are given." +
            ns)
        .schema(kTokenSchema)
        .access(Access::public_)
        .withheld_from_agent()
        .handler(&AuthLocal::token);
    s.post("inspect")
        .title("Inspect a token")
        .description(
            "The identity a token stands for (id, type, issuer, name, scopes, metadata, "
            "credential); 400 "
            "for a token that is malformed, forged, expired or revoked.")
        .schema(kInspectSchema)
        .access(Access::public_)
        .read_only()
        .withheld_from_agent()
        .handler(&AuthLocal::inspect);
    s.post("createAccount")
        .title("Create an account")
        .description(
            "Adds an account; the secret is answered only here, once. 400 `id: already exists` or "
            "`name: "
            "already exists`." +
            ns)
        .schema(kCreateAccountSchema)
        .access(Access::admin)
        .withheld_from_agent()
        .handler(&AuthLocal::create_account);
    s.get("listAccounts")
        .title("List accounts")
        .description("Every account of the namespace, ordered by id, without secrets." + ns)
        .access(Access::admin)
        .read_only()
        .handler(&AuthLocal::list_accounts);
    s.post("deleteAccount")
        .title("Delete an account")
        .description(
            "Deletes an account and revokes its tokens; your own account cannot be deleted." + ns)
        .schema(kIdSchema)
        .access(Access::admin)
        .destructive()
        .idempotent()
        .withheld_from_agent()
        .handler(&AuthLocal::delete_account);
    s.post("changeSecret")
        .title("Change a secret")
        .description("Changes your secret (old_secret required), or as an admin another account's.")
        .schema(kChangeSecretSchema)
        .access(Access::account)
        .withheld_from_agent()
        .handler(&AuthLocal::change_secret);
    s.get("me")
        .title("Your account")
        .description("The caller's account (id, type, issuer, name, scopes, metadata).")
        .access(Access::account)
        .read_only()
        .handler(&AuthLocal::me);
    s.post("setTimezone")
        .title("Set your time zone")
        .description(
            "Sets metadata.timezone of your account to an IANA name (UTC by default); time-of-day "
            "features use it.")
        .schema(kTimezoneSchema)
        .access(Access::account)
        .idempotent()
        .handler(&AuthLocal::set_timezone);
    s.post("createRule")
        .title("Create an access rule")
        .description(
            "Adds a rule (micro's model); the highest priority matching rule decides. Takes effect "
            "within a second. 400 `id: already exists`.")
        .schema(kCreateRuleSchema)
        .access(Access::admin)
        .withheld_from_agent()
        .handler(&AuthLocal::create_rule);
    s.get("listRules")
        .title("List access rules")
        .description(
            "Every rule, ordered by id; scope <public> is anyone. When no rule exists the default "
            "one "
            "({default, <public>, *:*:*, GRANTED, 0}) is created.")
        .access(Access::admin)
        .read_only()
        .handler(&AuthLocal::list_rules);
    s.post("deleteRule")
        .title("Delete an access rule")
        .description("Deletes a rule by id; 404 when there is none.")
        .schema(kIdSchema)
        .access(Access::admin)
        .destructive()
        .idempotent()
        .withheld_from_agent()
        .handler(&AuthLocal::delete_rule);
    s.post("createToken")
        .title("Create a token")
        .description(
            "A personal or services token for programs, shown once. Restricted tokens cannot "
            "create "
            "tokens.")
        .schema(kCreateTokenSchema)
        .access(Access::account)
        .withheld_from_agent()
        .handler(&AuthLocal::create_token);
    s.get("listTokens")
        .title("List your tokens")
        .description(
            "Your tokens (logins, sessions, personal and services tokens) with created, expiry and "
            "last_used (unix seconds; last_used is recorded at most once a minute); never their "
            "text.")
        .access(Access::account)
        .read_only()
        .handler(&AuthLocal::list_tokens);
    s.post("deleteToken")
        .title("Revoke a token")
        .description(
            "Revokes one of your tokens by id; revoking a login also ends its access tokens.")
        .schema(kTokenIdSchema)
        .access(Access::account)
        .destructive()
        .idempotent()
        .withheld_from_agent()
        .handler(&AuthLocal::delete_token);
    s.post("createSession")
        .title("Start a browser session")
        .description(
            "Used by POST /auth/login: {id|name, secret} → {token, id, csrf_token, expiry, "
            "account}. The "
            "token goes in the platform_session cookie; cookie-authenticated writes need "
            "X-CSRF-Token." +
            ns)
        .schema(kCreateSessionSchema)
        .access(Access::public_)
        .withheld_from_agent()
        .handler(&AuthLocal::create_session);
    s.post("deleteSession")
        .title("End a browser session")
        .description("Used by POST /auth/logout: revokes your session given by token or id.")
        .schema(kDeleteSessionSchema)
        .access(Access::account)
        .destructive()
        .idempotent()
        .withheld_from_agent()
        .handler(&AuthLocal::delete_session);
    s.post("revoke")
        .title("Log out")
        .description(
            "Revokes your refresh token and the access tokens of its login; {revoked: false} when "
            "it "
            "was not live.")
        .schema(kRevokeSchema)
        .access(Access::account)
        .destructive()
        .idempotent()
        .withheld_from_agent()
        .handler(&AuthLocal::revoke);
}

}  // namespace auth_local
