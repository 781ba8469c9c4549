// platform/sdk.hpp — the C++ plugin SDK, header-only, over platform/abi.h.
//
// Include this in plugin sources only; the host never sees these types. Requires C++17 and
// nlohmann/json 3.11. Build plugins with -fvisibility=hidden and a version script exporting only
// `platform_plugin_entry` (the CMake helper platform_add_plugin does both).
#pragma once

#include <platform/abi.h>

#include <platform/sdk/config.hpp>
#include <platform/sdk/endpoint.hpp>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/events_provider.hpp>
#include <platform/sdk/host.hpp>
#include <platform/sdk/model_provider.hpp>
#include <platform/sdk/provider.hpp>
#include <platform/sdk/random.hpp>
#include <platform/sdk/request.hpp>
#include <platform/sdk/service.hpp>
#include <platform/sdk/store.hpp>
#include <platform/sdk/store_provider.hpp>
#include <platform/sdk/str.hpp>
#include <platform/sdk/text.hpp>
