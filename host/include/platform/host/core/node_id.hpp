// platform/host/core/node_id.hpp — this host's node id (decision 72): stable across restarts of
// one machine, distinct per replica.
//
// PLATFORM_NODE_ID / --node_id when set; else the id kept in $PLATFORM_HOME/node-id, created at
// the first start (mode 0600) from the CSPRNG as "node-" and 16 hex digits. Two hosts starting
// together on one home agree on one id (the file is linked into place, never overwritten).
// Plugins read it as config_get("platform.node"); the registry's plugin nodes, the node records
// of the network service (node_records.hpp) and leases name it.
#pragma once

#include <string>

namespace platform::host {

// The node id for `configured` (Settings::node_id, checked already) and `home`. With neither, or
// when the file cannot be written, an id for this process alone, and *warning says why. Throws
// std::runtime_error naming the file when it holds something that is not a node id.
std::string stable_node_id(const std::string& configured, const std::string& home,
                           std::string* warning = nullptr);

// A new random node id: "node-" and 16 lower-case hex digits (64 bits from the CSPRNG).
std::string random_node_id();

}  // namespace platform::host
