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
    c->id = next_.fetch_add(1);
    std::unique_lock<std::shared_mutex> g(m_);
    calls_.emplace(c->id, c);
    return c;
}

std::shared_ptr<Call> CallTable::find(platform_call_t* handle) const {
    auto id = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
    std::shared_lock<std::shared_mutex> g(m_);
    auto it = calls_.find(id);
    return it == calls_.end() ? nullptr : it->second;
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
    std::unique_lock<std::shared_mutex> g(m_);
    calls_.erase(call->id);
}

size_t CallTable::size() const {
    std::shared_lock<std::shared_mutex> g(m_);
    return calls_.size();
}

}  // namespace platform::host
