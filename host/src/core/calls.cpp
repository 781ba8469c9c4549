#include <platform/host/core/calls.hpp>

namespace platform::host {

CallTable& CallTable::global() {
    static CallTable table;
    return table;
}

std::shared_ptr<Call> CallTable::create() {
    // Not make_shared: a deadline timer holds a weak_ptr for up to call_timeout_ms, and with
    // make_shared the whole Call would stay allocated until it fires.
    std::shared_ptr<Call> c(new Call());
    // Each thread takes ids a block at a time; consecutive ids fall in consecutive shards.
    constexpr uint64_t kIdBlock = 1024;
    thread_local uint64_t next = 0, end = 0;
    thread_local const CallTable* from = nullptr;
    if (next == end || from != this) {
        next = next_block_.fetch_add(kIdBlock, std::memory_order_relaxed);
        end = next + kIdBlock;
        from = this;
    }
    c->id = next++;
    Shard& s = shard(c->id);
    std::lock_guard<std::mutex> g(s.m);
    s.calls.emplace(c->id, c);
    return c;
}

std::shared_ptr<Call> CallTable::find(platform_call_t* handle) const {
    auto id = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
    Shard& s = shard(id);
    std::lock_guard<std::mutex> g(s.m);
    auto it = s.calls.find(id);
    return it == s.calls.end() ? nullptr : it->second;
}

bool CallTable::answer(const std::shared_ptr<Call>& call, Outcome outcome) {
    std::function<void(Outcome)> done;
    TimerQueue* timers;
    TimerQueue::Id deadline;
    {
        std::unique_lock<std::mutex> lock(call->m);
        if (call->answered) return false;
        call->answered = true;
        done = std::move(call->done);
        timers = std::exchange(call->timers, nullptr);
        deadline = std::exchange(call->deadline_timer, {});
        forget_if_done(call, lock);
    }
    if (timers) timers->cancel(deadline);
    if (done) done(std::move(outcome));
    return true;
}

void CallTable::handler_returned(const std::shared_ptr<Call>& call) {
    std::unique_lock<std::mutex> lock(call->m);
    call->handler_returned = true;
    forget_if_done(call, lock);
}

void CallTable::cancel_finished(const std::shared_ptr<Call>& call) {
    std::unique_lock<std::mutex> lock(call->m);
    call->cancelling = false;
    forget_if_done(call, lock);
}

void CallTable::forget_if_done(const std::shared_ptr<Call>& call, std::unique_lock<std::mutex>&) {
    if (!call->answered || !call->handler_returned || call->cancelling) return;
    Shard& s = shard(call->id);
    std::lock_guard<std::mutex> g(s.m);
    s.calls.erase(call->id);
}

size_t CallTable::size() const {
    size_t n = 0;
    for (auto& s : shards_) {
        std::lock_guard<std::mutex> g(s.m);
        n += s.calls.size();
    }
    return n;
}

}  // namespace platform::host
