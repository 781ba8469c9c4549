// status.hpp: the one table of abi.h — ABI code → HTTP status, /api/v1 error.code, CLI exit.
#include <gtest/gtest.h>

#include <platform/host/core/status.hpp>
#include <set>

namespace {

using platform::host::status_info;

struct Row {
    platform_status_t code;
    int http;
    const char* name;
    int cli_exit;
};

// abi.h's status table, row by row. OK's error.code is "-" there; the host uses "ok".
const Row kDesignTable[] = {
    {PLATFORM_OK, 200, "ok", 0},
    {PLATFORM_INVALID_ARGUMENT, 400, "invalid_argument", 1},
    {PLATFORM_UNAUTHENTICATED, 401, "unauthenticated", 3},
    {PLATFORM_PAYMENT_REQUIRED, 402, "payment_required", 6},
    {PLATFORM_PERMISSION_DENIED, 403, "permission_denied", 3},
    {PLATFORM_NOT_FOUND, 404, "not_found", 5},
    {PLATFORM_METHOD_NOT_ALLOWED, 405, "method_not_allowed", 1},
    {PLATFORM_TIMEOUT, 408, "timeout", 1},
    {PLATFORM_CONFLICT, 409, "conflict", 1},
    {PLATFORM_PAYLOAD_TOO_LARGE, 413, "payload_too_large", 1},
    {PLATFORM_RATE_LIMITED, 429, "rate_limited", 1},
    {PLATFORM_INTERNAL, 500, "internal", 1},
    {PLATFORM_UNSUPPORTED, 501, "unsupported", 1},
    {PLATFORM_BAD_GATEWAY, 502, "bad_gateway", 1},
    {PLATFORM_UNAVAILABLE, 503, "unavailable", 1},
    {PLATFORM_DEADLINE_EXCEEDED, 504, "deadline_exceeded", 1},
};

TEST(StatusTable, EveryAbiCodeMapsAsDesigned) {
    for (const auto& row : kDesignTable) {
        const auto& s = status_info(row.code);
        SCOPED_TRACE(row.name);
        EXPECT_EQ(s.code, row.code);
        EXPECT_EQ(s.http, row.http);
        EXPECT_EQ(s.name, row.name);
        EXPECT_EQ(s.cli_exit, row.cli_exit);
        EXPECT_FALSE(s.reason.empty());
    }
}

TEST(StatusTable, CoversEveryCodeOfTheAbi) {
    // Codes are a dense, append-only list 0..PLATFORM_DEADLINE_EXCEEDED: each has its own row.
    std::set<int> http;
    for (int code = PLATFORM_OK; code <= PLATFORM_DEADLINE_EXCEEDED; ++code) {
        const auto& s = status_info(static_cast<platform_status_t>(code));
        EXPECT_EQ(s.code, code);
        http.insert(s.http);
    }
    EXPECT_EQ(http.size(), sizeof kDesignTable / sizeof kDesignTable[0]);
}

TEST(StatusTable, UnknownCodesAreInternal) {
    for (int code : {-1, 16, 99, 1000, -2147483647}) {
        const auto& s = status_info(static_cast<platform_status_t>(code));
        SCOPED_TRACE(code);
        EXPECT_EQ(s.code, PLATFORM_INTERNAL);
        EXPECT_EQ(s.http, 500);
        EXPECT_EQ(s.name, "internal");
        EXPECT_EQ(s.cli_exit, 1);
    }
}

TEST(HttpReason, PhrasesForHostOnlyStatuses) {
    using platform::host::http_reason;
    EXPECT_EQ(http_reason(415), "Unsupported Media Type");
    EXPECT_EQ(http_reason(431), "Request Header Fields Too Large");
    EXPECT_EQ(http_reason(401), "Unauthorized");
    EXPECT_EQ(http_reason(404), "Not Found");
    EXPECT_EQ(http_reason(500), "Internal Server Error");
    EXPECT_EQ(http_reason(504), "Gateway Timeout");
}

}  // namespace
