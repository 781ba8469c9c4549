// events — consumer group state: deliveries, acks, redelivery and its JSON record.
#include "groups.hpp"

#include <string>

namespace events_service {

GroupState GroupState::starting_at(uint64_t offset) {
    GroupState g;
    g.seek(offset);
    return g;
}

void GroupState::seek(uint64_t offset) {
    if (offset == 0) offset = 1;
    committed = offset - 1;
    next = offset;
    inflight.clear();
    acked.clear();
}

uint64_t GroupState::due(int64_t now_ms) const {
    for (const auto& [offset, f] : inflight)
        if (f.due_ms <= now_ms) return offset;
    return 0;
}

uint32_t GroupState::deliver(uint64_t offset, int64_t due_ms) {
    auto& f = inflight[offset];
    f.due_ms = due_ms;
    ++f.deliveries;
    if (offset >= next) next = offset + 1;
    return f.deliveries;
}

void GroupState::release(uint64_t offset) {
    auto it = inflight.find(offset);
    if (it == inflight.end()) return;
    it->second.due_ms = 0;
    if (it->second.deliveries) --it->second.deliveries;
}

GroupState::Outcome GroupState::ack(uint64_t offset) {
    if (offset <= committed || acked.count(offset)) return Outcome::already_acked;
    auto it = inflight.find(offset);
    if (it == inflight.end()) return Outcome::unknown;
    inflight.erase(it);
    acked.insert(offset);
    while (!acked.empty() && *acked.begin() == committed + 1) {
        acked.erase(acked.begin());
        ++committed;
    }
    return Outcome::done;
}

GroupState::Outcome GroupState::nack(uint64_t offset) {
    if (offset <= committed || acked.count(offset)) return Outcome::already_acked;
    auto it = inflight.find(offset);
    if (it == inflight.end()) return Outcome::unknown;
    it->second.due_ms = 0;
    return Outcome::done;
}

nlohmann::json GroupState::to_json() const {
    nlohmann::json f = nlohmann::json::object();
    for (const auto& [offset, x] : inflight)
        f[std::to_string(offset)] = {{"due", x.due_ms}, {"n", x.deliveries}};
    return {{"committed", committed}, {"next", next}, {"inflight", std::move(f)}, {"acked", acked}};
}

GroupState GroupState::from_json(const nlohmann::json& j) {
    GroupState g;
    g.committed = j.at("committed").get<uint64_t>();
    g.next = j.at("next").get<uint64_t>();
    for (const auto& [key, x] : j.at("inflight").items())
        g.inflight[std::stoull(key)] =
            InFlight{x.at("due").get<int64_t>(), x.at("n").get<uint32_t>()};
    for (const auto& o : j.at("acked")) g.acked.insert(o.get<uint64_t>());
    return g;
}

}  // namespace events_service
