// platform/host/core/per_thread.hpp — one T per thread, summed by whoever reads them all.
//
// local() gives the calling thread its own T without any lock once the thread has one (a look-up
// in a few thread-local entries); only a thread's first use takes the registry's lock. A thread
// that exits hands its T back and the next new thread carries on with it, so values are never lost
// and the number of Ts stays at the most threads that used it at the same time. for_each visits
// every T ever handed out, under the registry's lock (new threads wait for it, users of an
// existing T do not): the T itself must be safe to read while its thread writes it (atomics, or a
// lock of its own that the thread takes only for rare changes).
//
// The PerThread may be destroyed while threads that used it still run: their entries name it by
// a number never reused, and their exit finds it gone.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace platform::host {

namespace per_thread_detail {
// The calling thread's entry for registry `id`, or null.
void* find(uint64_t id);
// Remembers `item` for registry `id`; at the thread's exit `release(owner, item)` runs if the
// owner still exists.
void remember(uint64_t id, std::weak_ptr<void> owner, void* item,
              void (*release)(const std::shared_ptr<void>& owner, void* item));
uint64_t next_id();
}  // namespace per_thread_detail

template <class T>
class PerThread {
public:
    PerThread() : reg_(std::make_shared<Registry>()), id_(per_thread_detail::next_id()) {}
    PerThread(const PerThread&) = delete;
    PerThread& operator=(const PerThread&) = delete;

    T& local() {
        if (void* mine = per_thread_detail::find(id_)) return *static_cast<T*>(mine);
        T* item;
        {
            std::lock_guard<std::mutex> g(reg_->m);
            if (reg_->spare.empty()) {
                reg_->all.push_back(std::make_unique<T>());
                item = reg_->all.back().get();
            } else {
                item = reg_->spare.back();
                reg_->spare.pop_back();
            }
        }
        per_thread_detail::remember(id_, reg_, item, &release);
        return *item;
    }

    template <class F>
    void for_each(F&& f) const {
        std::lock_guard<std::mutex> g(reg_->m);
        for (const auto& item : reg_->all) f(static_cast<const T&>(*item));
    }

    // Ts handed out so far (in use or spare).
    size_t size() const {
        std::lock_guard<std::mutex> g(reg_->m);
        return reg_->all.size();
    }

private:
    struct Registry {
        std::mutex m;
        std::vector<std::unique_ptr<T>> all;
        std::vector<T*> spare;  // from threads that exited
    };
    static void release(const std::shared_ptr<void>& owner, void* item) {
        auto* reg = static_cast<Registry*>(owner.get());
        std::lock_guard<std::mutex> g(reg->m);
        reg->spare.push_back(static_cast<T*>(item));
    }

    std::shared_ptr<Registry> reg_;
    const uint64_t id_;
};

}  // namespace platform::host
