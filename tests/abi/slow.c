/*
 * abi-slow — service abi.slow, endpoint `sleep` {"ms": 0..60000}: sleeps that long on the host
 * worker thread that called it, then answers {"slept":ms}.
 *
 * Proves a slow plugin does not stall other calls (they run on other workers), and that a call
 * past its deadline is answered 504 by the host, which then calls on_cancel. on_cancel marks the
 * call so the sleeper stops early and never answers it: after on_cancel returns the plugin must
 * not use that call again (abi.h). The mark and the answer are serialised by one mutex, so an
 * answer is either sent before on_cancel returns or not at all.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "abi_test_plugin.h"

#define SLOW_MAX_MS 60000L
#define SLOW_MAX_CALLS 256 /* concurrent sleeps; more are answered UNAVAILABLE */
#define SLOW_SLICE_MS 10L  /* how often a sleeper looks for its cancellation */

typedef struct slow_slot {
    platform_call_t* call; /* NULL = free */
    int cancelled;
} slow_slot_t;

typedef struct slow {
    const platform_host_api_t* api;
    platform_host_ctx_t* ctx;
} slow_t;

static slow_t g_slow;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static slow_slot_t g_slots[SLOW_MAX_CALLS]; /* guarded by g_lock */

static void respond_text(platform_call_t* call, platform_status_t code, const char* text) {
    platform_str_t body;
    body.ptr = text;
    body.len = strlen(text);
    g_slow.api->respond(call, code, body);
}

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The value of "ms" in the (already validated) request object, or -1. The view is not
 * NUL-terminated, so it is scanned by hand. Fractions ("250.0") are truncated. */
static long parse_ms(platform_str_t req) {
    const char* p = req.ptr;
    const char* end = req.ptr ? req.ptr + req.len : NULL;
    for (; p && end - p >= 4; ++p) {
        long value = 0;
        int digits = 0;
        if (memcmp(p, "\"ms\"", 4) != 0) continue;
        p += 4;
        while (p < end && is_space(*p)) ++p;
        if (p == end || *p != ':') return -1;
        ++p;
        while (p < end && is_space(*p)) ++p;
        while (p < end && *p >= '0' && *p <= '9') {
            if (value <= SLOW_MAX_MS) value = value * 10 + (*p - '0');
            ++p;
            ++digits;
        }
        return digits ? value : -1;
    }
    return -1;
}

/* Nanoseconds from now until *deadline (monotonic), <= 0 once it has passed. */
static long long ns_until(const struct timespec* deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)(deadline->tv_sec - now.tv_sec) * 1000000000LL +
           (long long)(deadline->tv_nsec - now.tv_nsec);
}

static void* slow_create(const platform_host_api_t* api, platform_host_ctx_t* ctx,
                         platform_str_t config_json, char* err, size_t err_size) {
    (void)config_json, (void)err, (void)err_size;
    g_slow.api = api;
    g_slow.ctx = ctx;
    return &g_slow;
}

static void slow_destroy(void* inst) {
    (void)inst;
}

static void slow_call(void* inst, platform_call_t* call, uint32_t endpoint_index,
                      platform_str_t request_json) {
    struct timespec deadline;
    slow_slot_t* slot = NULL;
    long ms = parse_ms(request_json);
    int i, cancelled = 0;
    slow_t* self = (slow_t*)inst;

    if (endpoint_index != 0) {
        respond_text(call, PLATFORM_NOT_FOUND, "unknown endpoint index");
        return;
    }
    if (ms < 0 || ms > SLOW_MAX_MS) {
        respond_text(call, PLATFORM_INVALID_ARGUMENT, "ms: must be an integer from 0 to 60000");
        return;
    }

    pthread_mutex_lock(&g_lock);
    for (i = 0; i < SLOW_MAX_CALLS && !slot; ++i)
        if (!g_slots[i].call) slot = &g_slots[i];
    if (slot) {
        slot->call = call;
        slot->cancelled = 0;
    }
    pthread_mutex_unlock(&g_lock);
    if (!slot) {
        respond_text(call, PLATFORM_UNAVAILABLE, "too many concurrent sleeps");
        return;
    }

    if (self->api->log) {
        char line[48];
        int n = snprintf(line, sizeof line, "sleeping %ld ms", ms);
        platform_str_t text = {line, (size_t)n};
        self->api->log(self->ctx, PLATFORM_LOG_INFO, text);
    }
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += ms / 1000;
    deadline.tv_nsec += (ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    for (;;) {
        long long left = ns_until(&deadline);
        struct timespec nap;
        pthread_mutex_lock(&g_lock);
        cancelled = slot->cancelled;
        pthread_mutex_unlock(&g_lock);
        if (cancelled || left <= 0) break;
        if (left > SLOW_SLICE_MS * 1000000LL) left = SLOW_SLICE_MS * 1000000LL;
        nap.tv_sec = 0;
        nap.tv_nsec = (long)left;
        nanosleep(&nap, NULL);
    }

    pthread_mutex_lock(&g_lock);
    if (!slot->cancelled) {
        char body[64];
        snprintf(body, sizeof body, "{\"slept\":%ld}", ms);
        respond_text(call, PLATFORM_OK, body); /* under the lock: on_cancel waits for it */
    }
    slot->call = NULL;
    pthread_mutex_unlock(&g_lock);
}

static void slow_cancel(void* inst, platform_call_t* call) {
    static const platform_str_t cancelled = STR("sleep cancelled");
    slow_t* self = (slow_t*)inst;
    int i, found = 0;
    pthread_mutex_lock(&g_lock);
    for (i = 0; i < SLOW_MAX_CALLS; ++i) {
        if (g_slots[i].call == call) {
            g_slots[i].cancelled = 1;
            found = 1;
        }
    }
    pthread_mutex_unlock(&g_lock);
    if (found && self->api->log) self->api->log(self->ctx, PLATFORM_LOG_INFO, cancelled);
}

static const platform_endpoint_t slow_endpoints[] = {
    {GET_ENDPOINT("sleep", "Sleep",
                  "Sleeps `ms` milliseconds (0 to 60000) on the calling worker, then answers "
                  "{\"slept\":ms}. Stops early when the host cancels the call."),
     .flags = PLATFORM_FLAG_READ_ONLY | PLATFORM_FLAG_IDEMPOTENT,
     .input_schema = STR("{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\","
                         "\"minimum\":0,\"maximum\":60000}},\"required\":[\"ms\"],"
                         "\"additionalProperties\":false}"),
     .output_schema =
         STR("{\"type\":\"object\",\"properties\":{\"slept\":{\"type\":\"integer\"}}}")},
};

static const platform_plugin_desc_t slow_desc = {
    SERVICE_DESC(PLATFORM_ABI_VERSION, "abi-slow", "abi.slow",
                 "ABI test: a handler that sleeps for the requested time", slow_endpoints),
    .on_create = slow_create,
    .on_destroy = slow_destroy,
    .on_call = slow_call,
    .on_cancel = slow_cancel,
};

ABI_EXPORT const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t* args) {
    return same_major_or_null(args, "abi-slow", &slow_desc);
}
