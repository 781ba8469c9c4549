// events-memory — the C table: static functions that cast `inst` and never throw.
#include "memory_events.hpp"

#include <platform/sdk/provider.hpp>

#include <algorithm>
#include <cstring>

namespace events_memory {

namespace {

MemoryEvents* self(void* inst) { return static_cast<MemoryEvents*>(inst); }

platform_status_t abi_append(void* inst, const platform_event_t* event, uint64_t* out_offset) {
    return platform::guard([&] {
        if (!event || !out_offset) throw platform::invalid_argument("event: must not be NULL");
        platform_event_t e{};  // only the fields within the caller's struct_size
        std::memcpy(&e, event, std::min<size_t>(event->struct_size, sizeof e));
        *out_offset = self(inst)->append(e);
    });
}

platform_status_t abi_read(void* inst, platform_str_t topic, uint64_t from_offset, uint32_t limit,
                           platform_event_sink_fn sink, void* user) {
    return platform::guard([&] {
        if (!sink) throw platform::invalid_argument("sink: must not be NULL");
        self(inst)->read(platform::view(topic), from_offset, limit,
                         [&](const platform_event_t& e) { return sink(user, &e); });
    });
}

platform_status_t abi_wait(void* inst, platform_str_t topic, uint64_t after_offset, int32_t timeout_ms) {
    bool ready = false;
    auto g = platform::guard([&] { ready = self(inst)->wait(platform::view(topic), after_offset, timeout_ms); });
    return g != PLATFORM_OK ? g : (ready ? PLATFORM_OK : PLATFORM_TIMEOUT);
}

platform_status_t abi_topics(void* inst, platform_bytes_sink_fn sink, void* user) {
    return platform::guard([&] {
        if (!sink) throw platform::invalid_argument("sink: must not be NULL");
        std::string out = self(inst)->topics();
        sink(user, platform::view(out));
    });
}

}  // namespace

const platform_events_provider_t MemoryEvents::table = {
    sizeof(platform_events_provider_t), false, &abi_append, &abi_read, &abi_wait, &abi_topics,
};

}  // namespace events_memory

PLATFORM_PROVIDER(events_memory::MemoryEvents, PLATFORM_KIND_EVENTS, "events-memory", "1.0.0",
                  "In-memory ordered event streams per topic (not persistent)", &events_memory::MemoryEvents::table)
