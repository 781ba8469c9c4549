// abi_header_cpp.cpp — platform/abi.h compiled as C++17, with the same pinned layout as the C
// compile (abi_layout_x86_64.inc) asserted with static_assert, plus the gtest that runs the C
// object's checks (abi_c_layout_ok in abi_header_c.c). Together: the header compiles as C and as
// C++, and both languages agree on every size and offset.
#include <gtest/gtest.h>
#include <platform/abi.h>

#include <cstddef>
#include <cstring>
#include <string_view>
#include <type_traits>

extern "C" int abi_c_layout_ok(void);

namespace {

// ---- portable facts ---------------------------------------------------------------------------

static_assert(PLATFORM_ABI_VERSION == ((1u << 16) | 9u), "ABI 1.9");
static_assert(PLATFORM_ABI_MAJOR_OF(PLATFORM_ABI_VERSION) == 1u);
static_assert(PLATFORM_ABI_MINOR_OF(PLATFORM_ABI_VERSION) == 9u);
static_assert(PLATFORM_ABI_PACK(2, 3) == 0x20003u);
static_assert(std::is_same_v<decltype(PLATFORM_ABI_VERSION), uint32_t>);

static_assert(sizeof(platform_str_t) == 2 * sizeof(void*));
static_assert(offsetof(platform_str_t, ptr) == 0);
static_assert(offsetof(platform_str_t, len) == sizeof(void*));

static_assert(offsetof(platform_host_api_t, struct_size) == 0);
static_assert(offsetof(platform_host_api_t, abi_version) == 4);
static_assert(offsetof(platform_host_api_t, log) == 8);
static_assert(offsetof(platform_plugin_desc_t, abi_version) == 4);
static_assert(offsetof(platform_entry_args_t, host_abi_version) == 4);

// Every struct: starts with uint32_t struct_size, is plain data (no C++ semantics can sneak in).
template <class T>
constexpr bool abi_struct() {
    return offsetof(T, struct_size) == 0 && std::is_same_v<decltype(T::struct_size), uint32_t> &&
           std::is_standard_layout_v<T> && std::is_trivially_copyable_v<T> &&
           std::is_trivially_default_constructible_v<T>;
}
static_assert(abi_struct<platform_endpoint_t>());
static_assert(abi_struct<platform_call_info_t>());
static_assert(abi_struct<platform_scan_t>());
static_assert(abi_struct<platform_store_op_t>());
static_assert(abi_struct<platform_store_api_t>());
static_assert(abi_struct<platform_host_api_t>());
static_assert(abi_struct<platform_registry_api_t>());
static_assert(abi_struct<platform_clock_api_t>());
static_assert(abi_struct<platform_store_provider_t>());
static_assert(abi_struct<platform_broker_provider_t>());
static_assert(abi_struct<platform_auth_provider_t>());
static_assert(abi_struct<platform_model_provider_t>());
static_assert(abi_struct<platform_plugin_desc_t>());
static_assert(abi_struct<platform_entry_args_t>());
static_assert(std::is_standard_layout_v<platform_str_t> &&
              std::is_trivially_copyable_v<platform_str_t>);

// Enumerations are int32_t with explicit, append-only values.
static_assert(std::is_same_v<platform_status_t, int32_t> &&
              std::is_same_v<platform_kind_t, int32_t>);
static_assert(PLATFORM_OK == 0 && PLATFORM_INVALID_ARGUMENT == 1 && PLATFORM_INTERNAL == 11);
static_assert(PLATFORM_DEADLINE_EXCEEDED == 15 && PLATFORM_UNAVAILABLE == 14 &&
              PLATFORM_CONFLICT == 8);
static_assert(PLATFORM_KIND_SERVICE == 1 && PLATFORM_KIND_MODEL == 6);
static_assert(PLATFORM_VERB_GET == 1 && PLATFORM_VERB_POST == 2);
static_assert(PLATFORM_ACCESS_PUBLIC == 0 && PLATFORM_ACCESS_ADMIN == 3);
static_assert(PLATFORM_FLAG_READ_ONLY == 1u && PLATFORM_FLAG_OPEN_WORLD == 128u);
static_assert(PLATFORM_STORE_CAS == 16u && PLATFORM_STORE_TRANSACTIONS == 32u);
static_assert(PLATFORM_STORE_OP_PUT == 1 && PLATFORM_STORE_OP_DEL == 2);
static_assert(PLATFORM_FLAG_MCP_CONTENT == 256u && PLATFORM_MCP_TOOL == 0 &&
              PLATFORM_MCP_HIDDEN == 7);
static_assert(PLATFORM_FLAG_INTERNAL == 512u);
static_assert(std::string_view(PLATFORM_ENTRY_SYMBOL) == "platform_plugin_entry");

// The entry signature.
static_assert(std::is_same_v<platform_plugin_entry_fn,
                             const platform_plugin_desc_t* (*)(const platform_entry_args_t*)>);

// PLATFORM_HAS_FIELD is a constant expression on a constexpr object.
constexpr platform_host_api_t host_table(uint32_t struct_size, uint32_t abi_version) {
    platform_host_api_t t{};
    t.struct_size = struct_size;
    t.abi_version = abi_version;
    return t;
}
// A 1.0 host table ends after respond_end; 1.1 added get_service.
constexpr platform_host_api_t kHost10 =
    host_table(offsetof(platform_host_api_t, get_service), PLATFORM_ABI_PACK(1, 0));
static_assert(PLATFORM_HAS_FIELD(platform_host_api_t, &kHost10, respond_end));
static_assert(!PLATFORM_HAS_FIELD(platform_host_api_t, &kHost10, get_service));
constexpr platform_host_api_t kHost11 =
    host_table(sizeof(platform_host_api_t), PLATFORM_ABI_VERSION);
static_assert(PLATFORM_HAS_FIELD(platform_host_api_t, &kHost11, get_service));
// A 1.2 host table ends after events_wait; 1.3 added store_cas and store_batch.
constexpr platform_host_api_t kHost12 =
    host_table(offsetof(platform_host_api_t, store_cas), PLATFORM_ABI_PACK(1, 2));
static_assert(PLATFORM_HAS_FIELD(platform_host_api_t, &kHost12, events_wait));
static_assert(!PLATFORM_HAS_FIELD(platform_host_api_t, &kHost12, store_cas));
static_assert(PLATFORM_HAS_FIELD(platform_host_api_t, &kHost11, store_batch));
constexpr platform_host_api_t kShort = host_table(offsetof(platform_host_api_t, log) + 7, 0);
static_assert(!PLATFORM_HAS_FIELD(platform_host_api_t, &kShort, log));

// ---- the pinned x86_64 layout -----------------------------------------------------------------

#if defined(__x86_64__) && defined(__LP64__)
#define ABI_PIN_SIZE(type, size) static_assert(sizeof(type) == (size), "size of " #type);
#define ABI_PIN_OFFSET(type, member, off) \
    static_assert(offsetof(type, member) == (off), "offset of " #type "." #member);
#include "abi_layout_x86_64.inc"
#undef ABI_PIN_SIZE
#undef ABI_PIN_OFFSET
constexpr bool kLayoutPinned = true;
#else
constexpr bool kLayoutPinned = false;
#endif

}  // namespace

TEST(AbiHeader, CompilesAsCWithTheSameLayout) {
    // Static assertions in the C object already passed at build time; these are its run-time ones.
    EXPECT_EQ(abi_c_layout_ok(), 1);
}

TEST(AbiHeader, LayoutIsPinnedOnThisPlatform) {
    if (!kLayoutPinned) GTEST_SKIP() << "layout pinned for x86_64 only";
    SUCCEED();
}

TEST(AbiHeader, HasFieldFollowsStructSize) {
    platform_plugin_desc_t desc{};
    desc.struct_size = sizeof desc;
    EXPECT_TRUE(PLATFORM_HAS_FIELD(platform_plugin_desc_t, &desc, provider));
    desc.struct_size = offsetof(platform_plugin_desc_t, on_cancel);
    EXPECT_TRUE(PLATFORM_HAS_FIELD(platform_plugin_desc_t, &desc, on_call));
    EXPECT_FALSE(PLATFORM_HAS_FIELD(platform_plugin_desc_t, &desc, on_cancel));
    desc.struct_size = offsetof(platform_plugin_desc_t, on_cancel) + sizeof(void*) - 1;
    EXPECT_FALSE(PLATFORM_HAS_FIELD(platform_plugin_desc_t, &desc, on_cancel));

    platform_call_info_t info{};
    info.struct_size = offsetof(platform_call_info_t, deadline_ms);
    EXPECT_TRUE(PLATFORM_HAS_FIELD(platform_call_info_t, &info, request_id));
    EXPECT_FALSE(PLATFORM_HAS_FIELD(platform_call_info_t, &info, deadline_ms));
}

TEST(AbiHeader, VersionHelpers) {
    volatile uint32_t v = PLATFORM_ABI_PACK(3, 7);
    EXPECT_EQ(PLATFORM_ABI_MAJOR_OF(v), 3u);
    EXPECT_EQ(PLATFORM_ABI_MINOR_OF(v), 7u);
    // The minor is masked to 16 bits so it can never bleed into the major.
    EXPECT_EQ(PLATFORM_ABI_MAJOR_OF(PLATFORM_ABI_PACK(1, 0x10000)), 1u);
    EXPECT_EQ(PLATFORM_ABI_PACK(1, PLATFORM_ABI_MINOR + 1), PLATFORM_ABI_VERSION + 1);
}
