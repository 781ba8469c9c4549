#include <algorithm>
#include <atomic>
#include <platform/host/core/per_thread.hpp>

namespace platform::host::per_thread_detail {

namespace {

struct Entry {
    uint64_t id;
    std::weak_ptr<void> owner;
    void* item;
    void (*release)(const std::shared_ptr<void>&, void*);
};

struct Entries {
    std::vector<Entry> list;
    ~Entries() {
        for (auto& e : list)
            if (auto owner = e.owner.lock()) e.release(owner, e.item);
    }
};

thread_local Entries entries;

}  // namespace

void* find(uint64_t id) {
    for (const auto& e : entries.list)
        if (e.id == id) return e.item;
    return nullptr;
}

void remember(uint64_t id, std::weak_ptr<void> owner, void* item,
              void (*release)(const std::shared_ptr<void>&, void*)) {
    auto& list = entries.list;
    // Registries destroyed since (tests make many) leave entries nothing will look up again.
    list.erase(
        std::remove_if(list.begin(), list.end(), [](const Entry& e) { return e.owner.expired(); }),
        list.end());
    list.push_back({id, std::move(owner), item, release});
}

uint64_t next_id() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace platform::host::per_thread_detail
