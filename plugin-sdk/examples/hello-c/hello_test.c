/*
 * Unit test for hello-c: drives the plugin through a fake host table written here, in C, with no
 * server. The plugin's source is compiled into the test, so its entry is an ordinary function.
 *
 * The fake host implements only what hello-c uses: call_info, respond, store_get and store_cas
 * over a small in-memory table. It does not validate arguments or enforce access, as the real host
 * does before on_call; test those with a running host (README, step 5).
 */
#include <platform/abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args);

static int failures = 0;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                              \
        }                                                                            \
    } while (0)

/* abi.h leaves both handles opaque: the host (here, this test) defines them. */
struct platform_host_ctx {
    int unused;
};
struct platform_call {
    const char* account; /* "" = anonymous */
    int answers;
    platform_status_t code;
    char body[1024];
};

/* ---- the store: one table of at most 16 records -------------------------------------------- */

#define MAX_RECORDS 16
static struct {
    char key[128];
    char value[128];
    size_t key_len, value_len;
    int used;
} records[MAX_RECORDS];
static int steal_next_cas = 0; /* another writer changes the record just before the next cas */

static int find(platform_str_t key) {
    int i;
    for (i = 0; i < MAX_RECORDS; ++i)
        if (records[i].used && records[i].key_len == key.len &&
            memcmp(records[i].key, key.ptr, key.len) == 0)
            return i;
    return -1;
}

static void put(platform_str_t key, platform_str_t value) {
    int i = find(key);
    if (i < 0)
        for (i = 0; i < MAX_RECORDS && records[i].used; ++i) {
        }
    if (i == MAX_RECORDS || key.len > sizeof records[i].key ||
        value.len > sizeof records[i].value) {
        fprintf(stderr, "fake store full\n");
        exit(2);
    }
    memcpy(records[i].key, key.ptr, key.len);
    memcpy(records[i].value, value.ptr, value.len);
    records[i].key_len = key.len;
    records[i].value_len = value.len;
    records[i].used = 1;
}

static platform_str_t view(const char* text) {
    platform_str_t s;
    s.ptr = text;
    s.len = strlen(text);
    return s;
}

static platform_status_t fake_store_get(platform_host_ctx_t* ctx, platform_str_t key,
                                        platform_bytes_sink_fn sink, void* user) {
    int i = find(key);
    platform_str_t value;
    (void)ctx;
    if (i < 0) return PLATFORM_NOT_FOUND;
    value.ptr = records[i].value;
    value.len = records[i].value_len;
    sink(user, value);
    return PLATFORM_OK;
}

static platform_status_t fake_store_cas(platform_host_ctx_t* ctx, platform_str_t key,
                                        const platform_str_t* expected, const platform_str_t* value,
                                        int64_t expires_at_ms) {
    int i;
    (void)ctx, (void)expires_at_ms;
    if (steal_next_cas) {
        steal_next_cas = 0;
        put(key, view("{\"count\":10}"));
    }
    i = find(key);
    if (expected ? (i < 0 || records[i].value_len != expected->len ||
                    memcmp(records[i].value, expected->ptr, expected->len) != 0)
                 : i >= 0)
        return PLATFORM_CONFLICT;
    if (value)
        put(key, *value);
    else if (i >= 0)
        records[i].used = 0;
    return PLATFORM_OK;
}

/* ---- calls ------------------------------------------------------------------------------------ */

static void fake_call_info(platform_call_t* call, platform_call_info_t* out) {
    platform_call_info_t info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.account = view(call->account);
    /* Fill only as much as the plugin's struct has room for, as the host does. */
    memcpy((char*)out + sizeof out->struct_size, (const char*)&info + sizeof info.struct_size,
           (out->struct_size < sizeof info ? out->struct_size : sizeof info) -
               sizeof info.struct_size);
}

static platform_status_t fake_respond(platform_call_t* call, platform_status_t code,
                                      platform_str_t body) {
    if (call->answers++) return PLATFORM_INVALID_ARGUMENT;
    call->code = code;
    if (body.len >= sizeof call->body) body.len = sizeof call->body - 1;
    memcpy(call->body, body.ptr, body.len);
    call->body[body.len] = '\0';
    return PLATFORM_OK;
}

static platform_host_api_t host_api;
static platform_host_ctx_t host_ctx;
static const platform_plugin_desc_t* desc;
static void* instance;

/* Calls endpoint `index` as `account` with `request` and checks it was answered exactly once. */
static struct platform_call call(uint32_t index, const char* account, const char* request) {
    struct platform_call c;
    memset(&c, 0, sizeof c);
    c.account = account;
    desc->on_call(instance, &c, index, view(request));
    CHECK(c.answers == 1);
    return c;
}

int main(void) {
    char error[256] = "";
    platform_entry_args_t args;
    struct platform_call r;

    host_api.struct_size = sizeof host_api;
    host_api.abi_version = PLATFORM_ABI_VERSION;
    host_api.call_info = fake_call_info;
    host_api.respond = fake_respond;
    host_api.store_get = fake_store_get;
    host_api.store_cas = fake_store_cas;

    memset(&args, 0, sizeof args);
    args.struct_size = sizeof args;
    args.api = &host_api;
    args.error = error;
    args.error_size = sizeof error;

    /* The entry refuses a host of another major, with a reason. */
    args.host_abi_version = PLATFORM_ABI_PACK(2, 0);
    CHECK(platform_plugin_entry(&args) == NULL);
    CHECK(strstr(error, "needs ABI 1.x") != NULL);

    args.host_abi_version = PLATFORM_ABI_VERSION;
    desc = platform_plugin_entry(&args);
    CHECK(desc != NULL);
    if (!desc) return EXIT_FAILURE;
    CHECK(desc->kind == PLATFORM_KIND_SERVICE && desc->endpoint_count == 2);
    CHECK(desc->endpoint_stride == sizeof(platform_endpoint_t));
    CHECK(desc->endpoints[0].verb == PLATFORM_VERB_GET &&
          desc->endpoints[1].verb == PLATFORM_VERB_POST);
    CHECK(desc->endpoints[1].access == PLATFORM_ACCESS_OWNER);

    /* A 1.2 host table ends before store_cas: the plugin refuses to start and says why. */
    host_api.struct_size = (uint32_t)offsetof(platform_host_api_t, store_cas);
    CHECK(desc->on_create(&host_api, &host_ctx, view("{}"), error, sizeof error) == NULL);
    CHECK(strstr(error, "store_cas") != NULL);
    host_api.struct_size = sizeof host_api;

    instance = desc->on_create(&host_api, &host_ctx, view("{}"), error, sizeof error);
    CHECK(instance != NULL);
    if (!instance) return EXIT_FAILURE;

    /* greet */
    r = call(0, "", "{\"name\":\"Ada\"}");
    CHECK(r.code == PLATFORM_OK);
    CHECK(strcmp(r.body, "{\"message\":\"Hello, Ada!\"}") == 0);

    /* The name is decoded (escapes, \u with surrogate pairs) and written back escaped. */
    r = call(0, "", "{\"name\":\"A \\\"q\\\" \\\\ \\u00e9 \\ud83d\\ude00 \\n\\u0001\"}");
    CHECK(r.code == PLATFORM_OK);
    CHECK(
        strcmp(r.body,
               "{\"message\":\"Hello, A \\\"q\\\" \\\\ \xc3\xa9 \xf0\x9f\x98\x80 \\n\\u0001!\"}") ==
        0);

    /* Whitespace and other members (even ones holding brackets and quotes) are skipped. */
    r = call(0, "", " { \"x\" : [1, {\"a\": \"}\\\"\"}, true], \"name\" : \"Bo\" } ");
    CHECK(r.code == PLATFORM_OK && strcmp(r.body, "{\"message\":\"Hello, Bo!\"}") == 0);

    /* A request the host would have refused never reaches here; if one does, it is a 400. */
    r = call(0, "", "{\"name\":1}");
    CHECK(r.code == PLATFORM_INVALID_ARGUMENT);
    r = call(0, "", "{\"name\":\"unterminated}");
    CHECK(r.code == PLATFORM_INVALID_ARGUMENT);

    /* count: each account on its own. */
    r = call(1, "alice", "{}");
    CHECK(r.code == PLATFORM_OK && strcmp(r.body, "{\"count\":1}") == 0);
    r = call(1, "alice", "{}");
    CHECK(r.code == PLATFORM_OK && strcmp(r.body, "{\"count\":2}") == 0);
    r = call(1, "bob", "{}");
    CHECK(r.code == PLATFORM_OK && strcmp(r.body, "{\"count\":1}") == 0);
    r = call(1, "", "{}");
    CHECK(r.code == PLATFORM_UNAUTHENTICATED);

    /* The account is part of the key, with '/' escaped: "a/b" cannot reach "a"'s records. */
    r = call(1, "a/b", "{}");
    CHECK(r.code == PLATFORM_OK && strcmp(r.body, "{\"count\":1}") == 0);
    CHECK(find(view("counters/a%2Fb/calls")) >= 0);
    CHECK(find(view("counters/alice/calls")) >= 0);

    /* Another writer changes the record between the read and the write: the compare-and-set
     * fails, and the plugin reads again and counts from the newer value. */
    steal_next_cas = 1;
    r = call(1, "alice", "{}");
    CHECK(r.code == PLATFORM_OK && strcmp(r.body, "{\"count\":11}") == 0);

    r = call(7, "alice", "{}");
    CHECK(r.code == PLATFORM_NOT_FOUND);

    desc->on_destroy(instance);

    if (failures) {
        fprintf(stderr, "hello_test: %d failure(s)\n", failures);
        return EXIT_FAILURE;
    }
    puts("hello_test: ok");
    return EXIT_SUCCESS;
}
