// auth-local — the `auth` service's endpoints (docs/identity.md "The `auth` service"). One
// description per endpoint: it drives validation, routes (/auth/<name>), MCP, CLI and OpenAPI.
// Handlers are in handlers.cpp. Methods carrying secrets or tokens are withheld from the agent.
#include "auth_local.hpp"

namespace schema = platform::schema;

namespace auth_local {

namespace {

using platform::Access;

constexpr const char* kNamespaceNote =
    " The namespace is the request's Platform-Namespace header, else the server's.";

const schema::Object kTokenSchema =
    schema::object()
        .prop("id", schema::id("Account id to log in as (or give name)", 128))
        .str("name")
        .max_len(128)
        .doc("Account name to log in as, when id is not given")
        .str("secret")
        .max_len(1024)
        .doc("The account's secret")
        .str("refresh_token")
        .max_len(128)
        .doc(
            "A refresh token from an earlier call, instead of id/name and secret; it is used up "
            "(rotated)")
        .integer("token_expiry")
        .min(60)
        .max(86400)
        .def(900)
        .doc("Lifetime of the access token in seconds, 60 to 86400");

const schema::Object kInspectSchema = schema::object().str("token").max_len(8192).required().doc(
    "An access, personal, services or session token");

const schema::Object kCreateAccountSchema =
    schema::object()
        .str("id")
        .pattern("^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$")
        .required()
        .doc("Unique account id: letters, digits and . _ @ + -, at most 128 characters")
        .str("secret")
        .min_len(8)
        .max_len(1024)
        .doc("The secret (password), 8 to 1024 characters; generated when absent")
        .str("name")
        .min_len(1)
        .max_len(128)
        .doc("Unique display and login name; the id when absent")
        .str("type")
        .one_of({"user", "service"})
        .def("user")
        .doc("user or service")
        .array("scopes", schema::string().pattern("^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"))
        .max_items(32)
        .unique()
        .doc("Scopes the account holds, e.g. [\"admin\"]; at most 32")
        .prop("metadata", schema::map_of(schema::string().max_len(1024))
                              .max_props(32)
                              .doc("String values, at most 32; `timezone` is an IANA name"));

const schema::Object kIdSchema = schema::id_object("The id", 128);

const schema::Object kChangeSecretSchema =
    schema::object()
        .prop("id",
              schema::id("Whose secret: yours when absent; another account's only for admins", 128))
        .str("old_secret")
        .max_len(1024)
        .doc("The current secret; required unless an admin changes it")
        .str("new_secret")
        .min_len(8)
        .max_len(1024)
        .required()
        .doc("The new secret, 8 to 1024 characters");

const schema::Object kTimezoneSchema =
    schema::object()
        .str("timezone")
        .min_len(1)
        .max_len(64)
        .required()
        .doc("An IANA time zone name, e.g. Europe/London or UTC");

const schema::Object kCreateRuleSchema =
    schema::object()
        .str("id")
        .pattern("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
        .required()
        .doc("Unique rule id, at most 64 characters")
        .str("scope")
        .max_len(64)
        .required()
        .doc(
            "Who the rule is for: <public> (or empty) anyone, * any account of the namespace, + "
            "any account of any namespace, else accounts holding this scope")
        .str("resource")
        .max_len(256)
        .pattern("^[^:\\s]+:[^:\\s]+:\\S+$")
        .required()
        .doc("type:name:endpoint with * wildcards, e.g. service:notes:* or *:*:*")
        .str("access")
        .one_of({"GRANTED", "DENIED", "granted", "denied"})
        .def("GRANTED")
        .doc("GRANTED or DENIED (either case)")
        .integer("priority")
        .min(-1000000)
        .max(1000000)
        .def(0)
        .doc("Higher priorities are checked first");

const schema::Object kCreateTokenSchema =
    schema::object()
        .str("name")
        .max_len(100)
        .doc("A label for the token")
        .str("kind")
        .one_of({"personal", "services"})
        .def("personal")
        .doc(
            "personal (the agent, work, inbox and services, by capability) or services (catalogue "
            "services only)")
        .array("services", schema::string().max_len(128).pattern(
                               "^[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)*$"))
        .max_items(50)
        .unique()
        .doc("Only these services (notes matches v1.notes); empty or absent: every service")
        .array("capabilities", schema::string().one_of({"agent", "work", "inbox", "actions"}))
        .max_items(4)
        .unique()
        .doc("Only these capabilities (actions = Allow actions); absent: every capability")
        .integer("expiry_days")
        .min(1)
        .max(3650)
        .doc("Days until it expires, 1 to 3650; never when absent");

const schema::Object kTokenIdSchema = schema::id_object("The token's id (from listTokens)");

const schema::Object kCreateSessionSchema =
    schema::object()
        .prop("id", schema::id("Account id (or give name)", 128))
        .str("name")
        .max_len(128)
        .doc("Account name, when id is not given")
        .str("secret")
        .max_len(1024)
        .required()
        .doc("The account's secret")
        .integer("expiry_days")
        .min(1)
        .max(365)
        .doc("Days the session lasts, 1 to 365; the server's session_days (7) when absent");

const schema::Object kDeleteSessionSchema =
    schema::object()
        .str("token")
        .max_len(128)
        .doc("The session token (the platform_session cookie's value)")
        .prop("id", schema::id("The session's id, instead of the token"));

const schema::Object kRevokeSchema =
    schema::object()
        .str("refresh_token")
        .max_len(128)
        .required()
        .doc("The refresh token to revoke, with the access tokens of its login");

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
