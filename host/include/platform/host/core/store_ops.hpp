// platform/host/core/store_ops.hpp — reading the ops of a plugin's store_batch (abi.h
// platform_store_op_t) safely: the host table (host_api.cpp) and platform-worker's proxy of it
// (proxy_subtables.cpp) both refuse the same malformed batches.
#pragma once

#include <platform/abi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace platform::host {

// Copies op `i` of a plugin's batch, walked by the plugin's `stride` and read up to the op's own
// struct_size (fields past it are zero), into `op` in the host's layout (struct_size = sizeof).
// False when the batch is malformed: `ops` NULL, a stride or struct_size shorter than the fields
// up to `key`, or a struct_size past the stride. Kinds and expiries are the caller's to check.
// Reads only `ops`; any thread.
inline bool read_store_op(const platform_store_op_t* ops, uint32_t stride, uint32_t i,
                          platform_store_op_t& op) {
    constexpr size_t kMin = offsetof(platform_store_op_t, key) + sizeof(platform_str_t);
    if (!ops || stride < kMin) return false;
    const unsigned char* at = reinterpret_cast<const unsigned char*>(ops) + size_t{i} * stride;
    uint32_t size = 0;
    std::memcpy(&size, at, sizeof size);
    if (size < kMin || size > stride) return false;
    op = platform_store_op_t{};
    std::memcpy(&op, at, std::min<size_t>(size, sizeof op));
    op.struct_size = sizeof op;
    return true;
}

}  // namespace platform::host
