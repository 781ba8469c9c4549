#include "worker_state.hpp"

namespace platform::worker {

WorkerState& state() {
    static WorkerState* s = new WorkerState();  // never destroyed: the process ends with _exit
    return *s;
}

platform_host_ctx_t* ctx() {
    return reinterpret_cast<platform_host_ctx_t*>(&state());
}

json ask(json request) {
    auto ch = state().channel;
    auto reply = ch ? ch->request(std::move(request)) : std::nullopt;
    if (!reply) return {{"code", PLATFORM_UNAVAILABLE}};
    return std::move(*reply);
}

platform_status_t code_of(const json& reply) {
    auto it = reply.find("code");
    return it != reply.end() && it->is_number_integer() ? it->get<platform_status_t>()
                                                        : PLATFORM_INTERNAL;
}

json bytes(platform_str_t s) {
    return host::worker::bytes({s.ptr ? s.ptr : "", s.len});
}
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
platform_status_t lend(const json& reply, platform_bytes_sink_fn sink, void* user) {
    platform_status_t st = code_of(reply);
    if (st == PLATFORM_OK && sink) {
        std::string out = reply.contains("out") ? host::worker::bytes_of(reply["out"]) : "";
        sink(user, view(out));
    }
    return st;
}

std::shared_ptr<CallRecord> WorkerState::find_call(platform_call_t* call) {
    std::lock_guard<std::mutex> g(m);
    auto it = calls.find(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(call)));
    return it == calls.end() ? nullptr : it->second;
}

void WorkerState::answered(uint64_t id) {
    std::lock_guard<std::mutex> g(m);
    auto it = calls.find(id);
    if (it == calls.end()) return;
    it->second->answered = true;
    if (it->second->returned) calls.erase(it);
}

void WorkerState::returned(uint64_t id) {
    std::lock_guard<std::mutex> g(m);
    auto it = calls.find(id);
    if (it == calls.end()) return;
    it->second->returned = true;
    if (it->second->answered) calls.erase(it);
}

uint64_t WorkerState::add_reply(platform_reply_fn fn, void* user) {
    std::lock_guard<std::mutex> g(m);
    uint64_t token = next_token++;
    replies[token] = {fn, user};
    return token;
}

uint64_t WorkerState::add_listener(std::shared_ptr<Listener> l) {
    std::lock_guard<std::mutex> g(m);
    uint64_t token = next_token++;
    listeners[token] = std::move(l);
    return token;
}

void WorkerState::remove_listener(uint64_t host_id) {
    std::shared_ptr<Listener> l;
    {
        std::lock_guard<std::mutex> g(m);
        auto s = listener_of_sub.find(host_id);
        if (s == listener_of_sub.end()) return;
        auto it = listeners.find(s->second);
        if (it != listeners.end()) {
            l = it->second;
            listeners.erase(it);
        }
        listener_of_sub.erase(s);
    }
    if (!l) return;
    std::unique_lock<std::mutex> lock(l->m);
    l->active = false;
    // From inside its own callback, waiting would never end; the ABI allows that case.
    l->cv.wait(lock, [&] { return l->running == 0 || l->runner == std::this_thread::get_id(); });
}

void WorkerState::deliver(uint64_t token, const std::function<void(Listener&)>& fn) {
    std::shared_ptr<Listener> l;
    {
        std::lock_guard<std::mutex> g(m);
        auto it = listeners.find(token);
        if (it != listeners.end()) l = it->second;
    }
    if (!l) return;
    {
        std::lock_guard<std::mutex> g(l->m);
        if (!l->active) return;
        ++l->running;
        l->runner = std::this_thread::get_id();
    }
    fn(*l);
    std::lock_guard<std::mutex> g(l->m);
    --l->running;
    l->runner = {};
    l->cv.notify_all();
}

}  // namespace platform::worker
