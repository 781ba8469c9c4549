/*
 * hello-c — the hello service in C99, on nothing but <platform/abi.h> and the C library.
 *
 *   GET  /api/v1/hello-c/greet?name=Ada   -> {"data":{"message":"Hello, Ada!"}}
 *   POST /api/v1/hello-c/count            -> {"data":{"count":1}}, 2, 3... per account
 *
 * What the C++ SDK does for a C++ author is done here by hand, in four parts: the descriptor as
 * static data (schemas as JSON text), reading the one argument out of the request JSON, writing
 * the answer as JSON with its string escaped, and owner scoping: the caller's account goes into
 * the store key, and the count is changed with compare-and-set.
 */
#include <platform/abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HELLO_EXPORT __attribute__((visibility("default")))
/* A string literal as a platform_str_t: the length is known at compile time, no NUL is sent. */
#define STR(lit) \
    { lit, sizeof(lit) - 1 }

/* ---- the description: static data, alive as long as the library is loaded ------------------- */

/* The host validates every call against these schemas before on_call runs (required, types,
 * maxLength, unknown arguments) and answers 400 naming the argument and the rule. */
static const char GREET_SCHEMA[] =
    "{\"type\":\"object\","
    "\"properties\":{\"name\":{\"type\":\"string\",\"maxLength\":100,\"description\":\"Who to "
    "greet\"}},"
    "\"required\":[\"name\"],\"additionalProperties\":false}";
static const char NO_ARGUMENTS[] =
    "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";

enum { EP_GREET = 0, EP_COUNT = 1 }; /* on_call gets the index into this array */

static const platform_endpoint_t ENDPOINTS[] = {
    {.struct_size = sizeof(platform_endpoint_t),
     .name = STR("greet"),
     .title = STR("Greet someone"),
     .description = STR("Answers with a greeting for `name`."),
     .verb = PLATFORM_VERB_GET,
     .access = PLATFORM_ACCESS_PUBLIC,
     .flags = PLATFORM_FLAG_READ_ONLY,
     .input_schema = {GREET_SCHEMA, sizeof GREET_SCHEMA - 1},
     .since = STR("1.0.0")},
    {.struct_size = sizeof(platform_endpoint_t),
     .name = STR("count"),
     .title = STR("Count my calls"),
     .description = STR("Adds one to the caller's own counter and answers with its new value."),
     .verb = PLATFORM_VERB_POST,
     .access = PLATFORM_ACCESS_OWNER,
     .input_schema = {NO_ARGUMENTS, sizeof NO_ARGUMENTS - 1},
     .since = STR("1.0.0")},
};

/* The host creates an in-process plugin once; the instance holds the host table and our handle. */
typedef struct hello {
    const platform_host_api_t* api;
    platform_host_ctx_t* ctx;
} hello_t;

static void* hello_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                          platform_str_t config_json, char* err, size_t err_size);
static void hello_destroy(void* inst);
static void hello_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                       platform_str_t request_json);

static const platform_plugin_desc_t DESCRIPTOR = {
    .struct_size = sizeof(platform_plugin_desc_t),
    .abi_version = PLATFORM_ABI_VERSION,
    .id = STR("hello-c"),
    .version = STR("1.0.0"),
    .kind = PLATFORM_KIND_SERVICE,
    .summary = STR("Greets people and counts calls (C)"),
    .service = STR("v1.hello-c"),
    .endpoints = ENDPOINTS,
    .endpoint_count = sizeof ENDPOINTS / sizeof ENDPOINTS[0],
    .endpoint_stride = sizeof(platform_endpoint_t),
    .on_create = hello_create,
    .on_destroy = hello_destroy,
    .on_call = hello_call,
};

/* The one exported symbol (the version script hides everything else). It must not call the host
 * table; it only checks that the host speaks our major. */
HELLO_EXPORT const platform_plugin_desc_t* platform_plugin_entry(
    const platform_entry_args_t* args) {
    if (PLATFORM_ABI_MAJOR_OF(args->host_abi_version) != PLATFORM_ABI_MAJOR) {
        if (args->error && args->error_size)
            snprintf(args->error, args->error_size, "hello-c needs ABI %u.x, the host speaks %u.%u",
                     PLATFORM_ABI_MAJOR, PLATFORM_ABI_MAJOR_OF(args->host_abi_version),
                     PLATFORM_ABI_MINOR_OF(args->host_abi_version));
        return NULL;
    }
    return &DESCRIPTOR;
}

static void* hello_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                          platform_str_t config_json, char* err, size_t err_size) {
    hello_t* self;
    (void)config_json;
    /* count needs store_cas (ABI 1.3). A field is there iff the host's table is long enough. */
    if (!PLATFORM_HAS_FIELD(platform_host_api_t, api, store_cas) || !api->store_cas) {
        snprintf(err, err_size, "hello-c needs a host with store_cas (ABI 1.3 or later)");
        return NULL;
    }
    self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    self->api = api;
    self->ctx = ctx;
    return self;
}

static void hello_destroy(void* inst) {
    free(inst);
}

/* ---- a growable byte buffer ------------------------------------------------------------------ */

typedef struct buf {
    char* data;
    size_t len, cap;
    int failed; /* an allocation failed: the content is incomplete */
} buf_t;

static void buf_add(buf_t* b, const char* bytes, size_t n) {
    if (b->failed) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        char* grown;
        while (cap < b->len + n) cap *= 2;
        grown = realloc(b->data, cap);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    if (n) memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

static void buf_str(buf_t* b, const char* text) {
    buf_add(b, text, strlen(text));
}

static platform_str_t buf_view(const buf_t* b) {
    platform_str_t s;
    s.ptr = b->data;
    s.len = b->len;
    return s;
}

/* ---- JSON by hand ---------------------------------------------------------------------------- */

/* Appends `text` as the inside of a JSON string: '"' and '\\' escaped, control characters as
 * \n, \t... or \u00XX. Bytes >= 0x80 are copied: the text is UTF-8, and JSON is UTF-8. */
static void json_escape(buf_t* out, const char* text, size_t len) {
    size_t i;
    for (i = 0; i < len; ++i) {
        unsigned char c = (unsigned char)text[i];
        char esc[8];
        switch (c) {
            case '"':
                buf_add(out, "\\\"", 2);
                break;
            case '\\':
                buf_add(out, "\\\\", 2);
                break;
            case '\n':
                buf_add(out, "\\n", 2);
                break;
            case '\r':
                buf_add(out, "\\r", 2);
                break;
            case '\t':
                buf_add(out, "\\t", 2);
                break;
            case '\b':
                buf_add(out, "\\b", 2);
                break;
            case '\f':
                buf_add(out, "\\f", 2);
                break;
            default:
                if (c < 0x20) {
                    snprintf(esc, sizeof esc, "\\u%04x", c);
                    buf_add(out, esc, 6);
                } else {
                    buf_add(out, (const char*)&text[i], 1);
                }
        }
    }
}

static void utf8_add(buf_t* out, unsigned long cp) {
    char u[4];
    if (cp < 0x80) {
        u[0] = (char)cp;
        buf_add(out, u, 1);
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        buf_add(out, u, 2);
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        buf_add(out, u, 3);
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        buf_add(out, u, 4);
    }
}

static int hex4(const char* p, const char* end, unsigned long* out) {
    int i;
    *out = 0;
    if (end - p < 4) return 0;
    for (i = 0; i < 4; ++i) {
        char c = p[i];
        *out <<= 4;
        if (c >= '0' && c <= '9')
            *out |= (unsigned long)(c - '0');
        else if (c >= 'a' && c <= 'f')
            *out |= (unsigned long)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            *out |= (unsigned long)(c - 'A' + 10);
        else
            return 0;
    }
    return 1;
}

/* Decodes the JSON string starting at *p (on its opening quote) into `out` (UTF-8) when out is
 * not NULL; leaves *p after the closing quote. 0 for a malformed string. A lone surrogate
 * becomes U+FFFD. */
static int json_string(const char** p, const char* end, buf_t* out) {
    const char* s = *p;
    if (s == end || *s != '"') return 0;
    ++s;
    while (s < end && *s != '"') {
        if (*s != '\\') {
            const char* run = s;
            while (s < end && *s != '"' && *s != '\\') ++s;
            if (out) buf_add(out, run, (size_t)(s - run));
            continue;
        }
        if (++s == end) return 0;
        switch (*s++) {
            case '"':
                if (out) buf_add(out, "\"", 1);
                break;
            case '\\':
                if (out) buf_add(out, "\\", 1);
                break;
            case '/':
                if (out) buf_add(out, "/", 1);
                break;
            case 'b':
                if (out) buf_add(out, "\b", 1);
                break;
            case 'f':
                if (out) buf_add(out, "\f", 1);
                break;
            case 'n':
                if (out) buf_add(out, "\n", 1);
                break;
            case 'r':
                if (out) buf_add(out, "\r", 1);
                break;
            case 't':
                if (out) buf_add(out, "\t", 1);
                break;
            case 'u': {
                unsigned long cp, low;
                if (!hex4(s, end, &cp)) return 0;
                s += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF && end - s >= 6 && s[0] == '\\' && s[1] == 'u' &&
                    hex4(s + 2, end, &low) && low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    s += 6;
                } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                    cp = 0xFFFD;
                }
                if (out) utf8_add(out, cp);
                break;
            }
            default:
                return 0;
        }
    }
    if (s == end) return 0;
    *p = s + 1;
    return 1;
}

static void skip_space(const char** p, const char* end) {
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')) ++*p;
}

/* Skips one JSON value of any kind (strings may hold brackets, so they are read as strings). */
static int skip_value(const char** p, const char* end) {
    int depth = 0;
    do {
        skip_space(p, end);
        if (*p == end) return 0;
        if (**p == '"') {
            if (!json_string(p, end, NULL)) return 0;
        } else if (**p == '{' || **p == '[') {
            ++depth, ++*p;
        } else if (**p == '}' || **p == ']') {
            if (--depth < 0) return 0;
            ++*p;
        } else if (**p == ',' || **p == ':') {
            if (depth == 0) return 0;
            ++*p;
        } else {
            while (*p < end && strchr(",:{}[]\" \t\r\n", **p) == NULL) ++*p; /* number, literal */
        }
    } while (depth > 0);
    return 1;
}

/* Finds the top-level member `key` of the JSON object `json` and decodes it into `out` when it is
 * a string. 1 found, 0 absent or not a string, -1 malformed JSON. */
static int json_get_string(platform_str_t json, const char* key, buf_t* out) {
    const char* p = json.ptr;
    const char* end = json.ptr + json.len;
    if (!p) return -1;
    skip_space(&p, end);
    if (p == end || *p++ != '{') return -1;
    skip_space(&p, end);
    if (p < end && *p == '}') return 0;
    for (;;) {
        buf_t name = {0};
        int match;
        skip_space(&p, end);
        if (!json_string(&p, end, &name)) {
            free(name.data);
            return -1;
        }
        match = !name.failed && name.len == strlen(key) && memcmp(name.data, key, name.len) == 0;
        free(name.data);
        skip_space(&p, end);
        if (p == end || *p++ != ':') return -1;
        skip_space(&p, end);
        if (match) return p < end && *p == '"' ? (json_string(&p, end, out) ? 1 : -1) : 0;
        if (!skip_value(&p, end)) return -1;
        skip_space(&p, end);
        if (p < end && *p == ',') {
            ++p;
            continue;
        }
        return p < end && *p == '}' ? 0 : -1;
    }
}

/* The integer after "count": in a record this plugin wrote ({"count":N}); 0 when absent. */
static long long record_count(platform_str_t record) {
    static const char field[] = "\"count\":";
    size_t i;
    long long n = 0;
    for (i = 0; i + sizeof field - 1 <= record.len; ++i) {
        if (memcmp(record.ptr + i, field, sizeof field - 1) != 0) continue;
        for (i += sizeof field - 1; i < record.len && record.ptr[i] >= '0' && record.ptr[i] <= '9';
             ++i)
            n = n * 10 + (record.ptr[i] - '0');
        return n;
    }
    return 0;
}

/* ---- the handlers ---------------------------------------------------------------------------- */

static void respond_text(const hello_t* self, platform_call_t* call, platform_status_t code,
                         const char* text) {
    platform_str_t body;
    body.ptr = text;
    body.len = strlen(text);
    self->api->respond(call, code, body);
}

static void greet(const hello_t* self, platform_call_t* call, platform_str_t request) {
    buf_t name = {0}, answer = {0};
    /* The host has validated the request: an object with a string `name` of at most 100
     * characters. A missing or malformed one can only come from a caller that skips the host. */
    if (json_get_string(request, "name", &name) != 1 || name.failed) {
        respond_text(self, call, PLATFORM_INVALID_ARGUMENT, "name: is required");
    } else {
        buf_str(&answer, "{\"message\":\"Hello, ");
        json_escape(&answer, name.data, name.len);
        buf_str(&answer, "!\"}");
        if (answer.failed)
            respond_text(self, call, PLATFORM_INTERNAL, "out of memory");
        else
            self->api->respond(call, PLATFORM_OK, buf_view(&answer));
    }
    free(name.data);
    free(answer.data);
}

static void sink_copy(void* user, platform_str_t bytes) {
    buf_add((buf_t*)user, bytes.ptr, bytes.len);
}

/* Appends an account id to a store key with '%' and '/' escaped, so that one owner's prefix never
 * covers another's: "counters/<account>/calls", the key the C++ SDK's r.owned("counters") uses. */
static void key_escape(buf_t* key, platform_str_t account) {
    size_t i;
    for (i = 0; i < account.len; ++i) {
        if (account.ptr[i] == '%')
            buf_add(key, "%25", 3);
        else if (account.ptr[i] == '/')
            buf_add(key, "%2F", 3);
        else
            buf_add(key, &account.ptr[i], 1);
    }
}

static void count(const hello_t* self, platform_call_t* call) {
    platform_call_info_t info;
    buf_t key = {0};
    int attempt;
    char message[96];

    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    self->api->call_info(call, &info);
    /* The host answers 401 itself for an anonymous caller of an owner endpoint; this check keeps
     * the handler right when called some other way (the unit test's fake host does not check). */
    if (info.account.len == 0) {
        respond_text(self, call, PLATFORM_UNAUTHENTICATED, "this method needs an account");
        return;
    }
    buf_str(&key, "counters/");
    key_escape(&key, info.account);
    buf_str(&key, "/calls");
    if (key.failed) {
        respond_text(self, call, PLATFORM_INTERNAL, "out of memory");
        free(key.data);
        return;
    }

    /* Read, add one, write back only if nobody wrote in between (compare-and-set); otherwise read
     * again. Handlers run on several threads and the service may run as several replicas, so a
     * mutex would not do. */
    for (attempt = 0; attempt < 16; ++attempt) {
        buf_t old = {0};
        char next[64];
        platform_str_t expected, value;
        platform_status_t got = self->api->store_get(self->ctx, buf_view(&key), sink_copy, &old);
        platform_status_t swapped;
        long long n;
        if (got != PLATFORM_OK && got != PLATFORM_NOT_FOUND) {
            free(old.data);
            free(key.data);
            snprintf(message, sizeof message, "count: the store answered %d", (int)got);
            respond_text(self, call, got, message);
            return;
        }
        n = (got == PLATFORM_OK ? record_count(buf_view(&old)) : 0) + 1;
        value.ptr = next;
        value.len = (size_t)snprintf(next, sizeof next, "{\"count\":%lld}", n);
        expected = buf_view(&old);
        swapped = self->api->store_cas(self->ctx, buf_view(&key),
                                       got == PLATFORM_OK ? &expected : NULL, &value, 0);
        free(old.data);
        if (swapped == PLATFORM_CONFLICT) continue;
        free(key.data);
        if (swapped != PLATFORM_OK) {
            snprintf(message, sizeof message, "count: the store answered %d", (int)swapped);
            respond_text(self, call, swapped, message);
        } else {
            self->api->respond(call, PLATFORM_OK,
                               value); /* {"count":N}: the record is the answer */
        }
        return;
    }
    free(key.data);
    respond_text(self, call, PLATFORM_CONFLICT,
                 "count: the counter kept changing; gave up after 16 attempts");
}

/* Runs on host worker threads, possibly several at once. Answers every call exactly once. */
static void hello_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                       platform_str_t request_json) {
    const hello_t* self = (const hello_t*)inst;
    switch (endpoint_index) {
        case EP_GREET:
            greet(self, call, request_json);
            break;
        case EP_COUNT:
            count(self, call);
            break;
        default:
            respond_text(self, call, PLATFORM_NOT_FOUND, "unknown endpoint");
            break;
    }
}
