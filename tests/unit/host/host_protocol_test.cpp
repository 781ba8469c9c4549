// The host table written once (host_protocol.hpp): every function-pointer member of
// platform_host_api_t and of each privileged sub-table has exactly one line in its member list,
// every op a line names is served by the host (serve_host_call's map), and the tables the host
// fills from the lists have no empty member.
//
// How the member check works: a table is two uint32_t fields (struct_size, version) followed by
// function pointers only, so its pointer slots are the offsets kTableHeaderBytes,
// +sizeof(void*), ... below sizeof(table). The check lists the slots no line's offsetof names
// (and lines that name no slot, or a slot twice). Comparing offsets rather than counts also
// catches a line for the wrong member, and it needs no list of member names besides the one
// under test: a member appended to abi.h grows sizeof and leaves a slot uncovered.
//
// The planted member: built with -DPLATFORM_TEST_PLANTED_MEMBER (the executable
// host-protocol-planted-test, expected to fail: WILL_FAIL in CMake, should_fail in meson), the
// host table's check runs against a copy of platform_host_api_t with one function pointer
// appended and the same member list, as after adding a function to abi.h and forgetting the list.
// A check that passed there would be a check that cannot fail.
#include <gtest/gtest.h>

#include <cstring>
#include <platform/host/core/host_protocol.hpp>
#include <platform/host/core/plugin.hpp>
#include <platform/host/core/runtime.hpp>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace platform::host;
using namespace platform::host::protocol;

namespace {

#ifdef PLATFORM_TEST_PLANTED_MEMBER
// platform_host_api_t with one member more: the same layout, one slot longer.
struct checked_host_api_t {
    platform_host_api_t abi;
    void (*planted)(platform_host_ctx_t* ctx);
};
#else
using checked_host_api_t = platform_host_api_t;
#endif

constexpr size_t kSlot = sizeof(void (*)(void));

// What is wrong with the member list `lines` of a table of `size` bytes; empty when each pointer
// slot has exactly one line.
std::vector<std::string> list_problems(const char* table, size_t size, const MemberEntry* lines,
                                       size_t count) {
    std::vector<std::string> problems;
    const size_t slots = (size - kTableHeaderBytes) / kSlot;
    if ((size - kTableHeaderBytes) % kSlot)
        problems.push_back(std::string(table) + ": not a header followed by pointers");
    std::vector<int> named(slots, 0);
    for (size_t i = 0; i < count; ++i) {
        const size_t off = lines[i].offset;
        if (off < kTableHeaderBytes || (off - kTableHeaderBytes) % kSlot ||
            (off - kTableHeaderBytes) / kSlot >= slots)
            problems.push_back(std::string(table) + ": line " + lines[i].member + " names no slot");
        else if (++named[(off - kTableHeaderBytes) / kSlot] == 2)
            problems.push_back(std::string(table) + ": two lines for offset " +
                               std::to_string(off));
    }
    for (size_t s = 0; s < slots; ++s)
        if (!named[s])
            problems.push_back(std::string(table) + ": the member at offset " +
                               std::to_string(kTableHeaderBytes + s * kSlot) +
                               " has no line in its member list (host_protocol.hpp)");
    return problems;
}

template <typename Checked, typename Listed = Checked>
std::vector<std::string> problems_of(const char* table) {
    const auto& lines = TableMembers<Listed>::all;
    return list_problems(table, sizeof(Checked), lines, std::size(lines));
}

std::string joined(const std::vector<std::string>& lines) {
    std::ostringstream s;
    for (const auto& l : lines) s << l << "\n";
    return s.str();
}

// Whether every pointer slot of the table at `t` (of `size` bytes) is set.
std::vector<size_t> empty_slots(const void* t, size_t size) {
    std::vector<size_t> empty;
    for (size_t off = kTableHeaderBytes; off + kSlot <= size; off += kSlot) {
        void (*fn)(void) = nullptr;
        std::memcpy(&fn, static_cast<const char*>(t) + off, kSlot);
        if (!fn) empty.push_back(off);
    }
    return empty;
}

template <typename T>
std::vector<const char*> ops_of() {
    std::vector<const char*> ops;
    for (const auto& line : TableMembers<T>::all) ops.push_back(line.op);
    return ops;
}

}  // namespace

TEST(HostProtocol, EveryMemberOfEveryTableHasALine) {
    auto host = problems_of<checked_host_api_t, platform_host_api_t>("platform_host_api_t");
    EXPECT_TRUE(host.empty()) << joined(host);
    for (const auto& p : {problems_of<platform_registry_api_t>("platform_registry_api_t"),
                          problems_of<platform_store_api_t>("platform_store_api_t"),
                          problems_of<platform_secrets_api_t>("platform_secrets_api_t"),
                          problems_of<platform_network_api_t>("platform_network_api_t"),
                          problems_of<platform_clock_api_t>("platform_clock_api_t")})
        EXPECT_TRUE(p.empty()) << joined(p);
}

TEST(HostProtocol, EveryOpIsNamedOnceAndServedByTheHost) {
    std::set<std::string_view> names;
    for (const auto& op : kOps) {
        EXPECT_TRUE(names.insert(op.wire).second) << "op named twice: " << op.wire;
        EXPECT_TRUE(host_serves(op.wire)) << "no serving function for " << op.wire;
    }
    EXPECT_FALSE(host_serves("no_such_op"));
    // Every op is what some member sends, and every member's op is one of PLATFORM_HOST_OPS.
    std::set<std::string_view> sent;
    for (const auto& list : {ops_of<platform_host_api_t>(), ops_of<platform_registry_api_t>(),
                             ops_of<platform_store_api_t>(), ops_of<platform_secrets_api_t>(),
                             ops_of<platform_network_api_t>(), ops_of<platform_clock_api_t>()})
        for (const char* op : list) {
            if (!*op) continue;  // in_worker
            sent.insert(op);
            EXPECT_TRUE(names.count(op)) << op << " is not in PLATFORM_HOST_OPS";
        }
    EXPECT_EQ(sent, names);
}

TEST(HostProtocol, TheHostFillsEveryMemberOfItsTables) {
    const platform_host_api_t api = make_host_api();
    EXPECT_EQ(api.struct_size, sizeof api);
    EXPECT_EQ(api.abi_version, PLATFORM_ABI_VERSION);
    EXPECT_EQ(empty_slots(&api, sizeof api), std::vector<size_t>{});

    Plugin privileged;
    privileged.privileged = true;
    HostCtx ctx{nullptr, &privileged};
    auto* c = reinterpret_cast<platform_host_ctx_t*>(&ctx);
    auto table = [&](const char* name, size_t size) {
        const void* t = api.get_service(c, {name, std::strlen(name)}, 1);
        EXPECT_NE(t, nullptr) << name;
        if (!t) return;
        uint32_t struct_size = 0;
        std::memcpy(&struct_size, t, sizeof struct_size);
        EXPECT_EQ(struct_size, size) << name;
        EXPECT_EQ(empty_slots(t, size), std::vector<size_t>{}) << name;
    };
    table(PLATFORM_SERVICE_REGISTRY, sizeof(platform_registry_api_t));
    table(PLATFORM_SERVICE_STORE, sizeof(platform_store_api_t));
    table(PLATFORM_SERVICE_SECRETS, sizeof(platform_secrets_api_t));
    table(PLATFORM_SERVICE_NETWORK, sizeof(platform_network_api_t));
    table(PLATFORM_SERVICE_CLOCK, sizeof(platform_clock_api_t));

    Plugin plain;
    HostCtx plain_ctx{nullptr, &plain};
    EXPECT_EQ(api.get_service(reinterpret_cast<platform_host_ctx_t*>(&plain_ctx),
                              {PLATFORM_SERVICE_STORE, std::strlen(PLATFORM_SERVICE_STORE)}, 1),
              nullptr);
}
