// proxy_table.hpp — the worker's stubs behind platform_host_api_t and its privileged sub-tables,
// one per member of the lists in host_protocol.hpp, declared from those lists with each member's
// own type. make_proxy_api and get_service put them in the tables the plugin sees.
//
// Each stub sends its member's op (host_protocol.hpp) to the host and waits for the reply, except
// call_info and call_header, answered from the call record the host sent, and log and
// resource_updated, sent as notifications. Defined in proxy_api.cpp (the host table) and
// proxy_subtables.cpp (the sub-tables, and get_service, which hands them out). Thread-safe.
#pragma once

#include <platform/host/host_protocol.hpp>

namespace platform::worker::proxy {

using Table = platform_host_api_t;
PLATFORM_HOST_API_MEMBERS(PLATFORM_HOST_DECLARE_MEMBER)

namespace registry {
using Table = platform_registry_api_t;
PLATFORM_REGISTRY_API_MEMBERS(PLATFORM_HOST_DECLARE_MEMBER)
}  // namespace registry
namespace store {
using Table = platform_store_api_t;
PLATFORM_STORE_API_MEMBERS(PLATFORM_HOST_DECLARE_MEMBER)
}  // namespace store
namespace secrets {
using Table = platform_secrets_api_t;
PLATFORM_SECRETS_API_MEMBERS(PLATFORM_HOST_DECLARE_MEMBER)
}  // namespace secrets
namespace network {
using Table = platform_network_api_t;
PLATFORM_NETWORK_API_MEMBERS(PLATFORM_HOST_DECLARE_MEMBER)
}  // namespace network
namespace clock {
using Table = platform_clock_api_t;
PLATFORM_CLOCK_API_MEMBERS(PLATFORM_HOST_DECLARE_MEMBER)
}  // namespace clock

}  // namespace platform::worker::proxy
