// A plugin descriptor crossing the worker socket (worker_descriptor.hpp): the live-stream fields
// (ABI 1.8) arrive as the plugin declared them, and a plugin built before them sends none.
#include <gtest/gtest.h>

#include <cstddef>
#include <platform/host/isolation/worker_descriptor.hpp>
#include <string>

namespace {

platform_str_t view(const char* s) {
    return {s, std::char_traits<char>::length(s)};
}
std::string text(platform_str_t s) {
    return std::string(s.ptr, s.len);
}

// A service descriptor with one streaming endpoint whose struct is `endpoint_size` bytes.
struct Described {
    platform_endpoint_t endpoint{};
    platform_plugin_desc_t desc{};
    explicit Described(uint32_t endpoint_size) {
        endpoint.struct_size = endpoint_size;
        endpoint.name = view("live");
        endpoint.verb = PLATFORM_VERB_GET;
        endpoint.flags = PLATFORM_FLAG_STREAMING;
        endpoint.input_schema = view(R"({"type":"object"})");
        endpoint.live_input = view("send");
        endpoint.resume_arg = view("after");
        desc.struct_size = sizeof desc;
        desc.abi_version = PLATFORM_ABI_VERSION;
        desc.id = view("chat");
        desc.service = view("v1.chat");
        desc.endpoints = &endpoint;
        desc.endpoint_count = 1;
        desc.endpoint_stride = sizeof endpoint;
    }
};

}  // namespace

TEST(WorkerDescriptor, CarriesLiveInputAndResumeArg) {
    Described d(sizeof(platform_endpoint_t));
    platform::host::worker::OwnedDescriptor owned(platform::host::worker::describe_json(&d.desc),
                                                  platform_plugin_desc_t{});
    ASSERT_EQ(owned.get()->endpoint_count, 1u);
    const platform_endpoint_t& e = owned.get()->endpoints[0];
    EXPECT_EQ(text(e.live_input), "send");
    EXPECT_EQ(text(e.resume_arg), "after");
}

TEST(WorkerDescriptor, AnOlderEndpointStructSendsNoLiveFields) {
    Described d(static_cast<uint32_t>(offsetof(platform_endpoint_t, live_input)));
    const auto described = platform::host::worker::describe_json(&d.desc);
    EXPECT_FALSE(described["endpoints"][0].contains("live_input"));
    platform::host::worker::OwnedDescriptor owned(described, platform_plugin_desc_t{});
    EXPECT_EQ(text(owned.get()->endpoints[0].live_input), "");
    EXPECT_EQ(text(owned.get()->endpoints[0].resume_arg), "");
}
