// The replay ledger (payment.hpp): each x402 payment is accepted once. The key (the
// authorization nonce, else a digest of the payload) goes into the store provider's `_x402` table
// with an insert-if-absent: the provider's compare-and-set when it declares PLATFORM_STORE_CAS
// (atomic across every host sharing the store), else a get-then-put under this process's mutex
// (atomic on this host only), else — no store at all — a set in memory. A claim is released when
// the payment came to nothing (refused by the facilitator, or the call failed: never settled), so
// the payer may retry with the same authorization.
#include <spdlog/spdlog.h>

#include <platform/host/core/payment.hpp>
#include <platform/host/core/runtime.hpp>

namespace platform::host {

namespace {
const char kTable[] = "_x402";  // plugin ids start with [a-z0-9]: no plugin owns this table
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}

struct StoreRef {
    const platform_store_provider_t* table = nullptr;
    void* inst = nullptr;
    bool cas() const {
        return (table->features & PLATFORM_STORE_CAS) &&
               PLATFORM_HAS_FIELD(platform_store_provider_t, table, cas) && table->cas;
    }
};
std::optional<StoreRef> store_of(Runtime& rt) {
    Plugin* p = rt.provider("store");
    if (!p || !p->desc || !p->desc->provider) return std::nullopt;
    return StoreRef{static_cast<const platform_store_provider_t*>(p->desc->provider), p->instance};
}
void ignore(void*, platform_str_t) {}
}  // namespace

ReplayLedger::ReplayLedger(Runtime& runtime) : runtime_(runtime) {}

ReplayLedger::Claim ReplayLedger::claim(const std::string& key, const std::string& value,
                                        std::string& error) {
    const std::string table = kTable;
    auto store = store_of(runtime_);
    if (store && store->cas()) {
        platform_str_t v = view(value);
        auto st = store->table->cas(store->inst, view(table), view(key), nullptr, &v, 0,
                                    runtime_.clock().now_ms());
        if (st == PLATFORM_OK) return Claim::claimed;
        if (st == PLATFORM_CONFLICT) return Claim::used;
        error = "the store refused the payment ledger's write (status " + std::to_string(st) + ")";
        return Claim::failed;
    }
    std::lock_guard<std::mutex> g(m_);
    if (!store) return local_.insert(key).second ? Claim::claimed : Claim::used;
    auto st = store->table->get(store->inst, view(table), view(key), runtime_.clock().now_ms(),
                                ignore, nullptr);
    if (st == PLATFORM_OK) return Claim::used;
    if (st != PLATFORM_NOT_FOUND) {
        error = "the store could not read the payment ledger (status " + std::to_string(st) + ")";
        return Claim::failed;
    }
    st = store->table->put(store->inst, view(table), view(key), view(value), 0);
    if (st != PLATFORM_OK) {
        error = "the store refused the payment ledger's write (status " + std::to_string(st) + ")";
        return Claim::failed;
    }
    return Claim::claimed;
}

void ReplayLedger::release(const std::string& key, const std::string& value) {
    const std::string table = kTable;
    auto store = store_of(runtime_);
    platform_status_t st = PLATFORM_OK;
    if (store && store->cas()) {
        platform_str_t expected = view(value);  // only our own claim, never a later one
        st = store->table->cas(store->inst, view(table), view(key), &expected, nullptr, 0,
                               runtime_.clock().now_ms());
    } else {
        std::lock_guard<std::mutex> g(m_);
        if (!store)
            local_.erase(key);
        else
            st = store->table->del(store->inst, view(table), view(key));
    }
    if (st != PLATFORM_OK && st != PLATFORM_CONFLICT && st != PLATFORM_NOT_FOUND)
        spdlog::warn("x402: could not release the ledger entry {} (status {})", key,
                     static_cast<int>(st));
}

}  // namespace platform::host
