// proxy_table.hpp — the worker's stubs behind platform_host_api_t and its privileged sub-tables,
// one per member of the lists in host_protocol.hpp, declared from those lists with each member's
// own type. make_proxy_api and get_service put them in the tables the plugin sees.
//
// Each stub sends its member's op (host_protocol.hpp) to the host and waits for the reply, except
// call_info and call_header, answered from the call record the host sent, and log and
// resource_updated, sent as notifications. Defined in proxy_api.cpp (the host table) and
// proxy_subtables.cpp (the sub-tables, and get_service, which hands them out). Thread-safe.
#pragma once

#include <platform/host/core/host_protocol.hpp>

namespace platform::worker::proxy {

PLATFORM_HOST_DECLARE_TABLES
PLATFORM_HOST_DEFINE_TABLES

}  // namespace platform::worker::proxy
