// platform/sdk/events_provider.hpp — a platform_events_provider_t from a C++ class.
//
//   class MyEvents {
//   public:
//       MyEvents(const platform::Host& host, const platform::json& config);
//       uint64_t append(const platform_event_t& e);                       // returns the offset
//       void read(std::string_view topic, uint64_t from, uint32_t limit,
//                 const std::function<bool(const platform_event_t&)>& fn);
//       bool wait(std::string_view topic, uint64_t after, int32_t timeout_ms);  // false: timed out
//       std::string topics();                                             // JSON array
//   };
//   PLATFORM_PROVIDER(MyEvents, PLATFORM_KIND_EVENTS, "events-mine", "1.0.0", "My events",
//                     &platform::EventsProviderTable<MyEvents, /*persistent=*/true>::table)
//
// The adapter copies the host's event within its struct_size, maps a timed-out wait to
// PLATFORM_TIMEOUT and never lets an exception cross the ABI.
#pragma once

#include <platform/abi.h>

#include <algorithm>
#include <cstring>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/str.hpp>
#include <string>

namespace platform {

template <class T, bool Persistent>
struct EventsProviderTable {
    static T* self(void* inst) { return static_cast<T*>(inst); }

    static platform_status_t append(void* inst, const platform_event_t* event,
                                    uint64_t* out_offset) {
        return guard([&] {
            if (!event || !out_offset) throw invalid_argument("event: must not be NULL");
            platform_event_t e{};  // only the fields within the caller's struct_size
            std::memcpy(&e, event, std::min<size_t>(event->struct_size, sizeof e));
            *out_offset = self(inst)->append(e);
        });
    }
    static platform_status_t read(void* inst, platform_str_t topic, uint64_t from_offset,
                                  uint32_t limit, platform_event_sink_fn sink, void* user) {
        return guard([&] {
            if (!sink) throw invalid_argument("sink: must not be NULL");
            self(inst)->read(view(topic), from_offset, limit,
                             [&](const platform_event_t& e) { return sink(user, &e); });
        });
    }
    static platform_status_t wait(void* inst, platform_str_t topic, uint64_t after_offset,
                                  int32_t timeout_ms) {
        bool ready = false;
        auto g = guard([&] { ready = self(inst)->wait(view(topic), after_offset, timeout_ms); });
        return g != PLATFORM_OK ? g : (ready ? PLATFORM_OK : PLATFORM_TIMEOUT);
    }
    static platform_status_t topics(void* inst, platform_bytes_sink_fn sink, void* user) {
        return guard([&] {
            if (!sink) throw invalid_argument("sink: must not be NULL");
            std::string out = self(inst)->topics();
            sink(user, view(out));
        });
    }

    static inline const platform_events_provider_t table = {
        sizeof(platform_events_provider_t), Persistent, append, read, wait, topics};
};

}  // namespace platform
