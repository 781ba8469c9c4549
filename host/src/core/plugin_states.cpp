#include <algorithm>
#include <platform/host/core/names.hpp>
#include <platform/host/core/plugin_states.hpp>
#include <platform/host/core/runtime.hpp>
#include <set>

namespace platform::host {

namespace {

const char* kind_name(platform_kind_t k) {
    switch (k) {
        case PLATFORM_KIND_SERVICE:
            return "service";
        case PLATFORM_KIND_STORE:
            return "store";
        case PLATFORM_KIND_BROKER:
            return "broker";
        case PLATFORM_KIND_EVENTS:
            return "events";
        case PLATFORM_KIND_AUTH:
            return "auth";
        case PLATFORM_KIND_MODEL:
            return "model";
        default:
            return "other";
    }
}

}  // namespace

void PluginRefusals::add(const std::string& file, const std::string& id, const std::string& why) {
    std::lock_guard<std::mutex> g(m_);
    refusals_.push_back({file, id, why});
}

std::vector<PluginRefusals::Refusal> PluginRefusals::all() const {
    std::lock_guard<std::mutex> g(m_);
    return refusals_;
}

std::vector<PluginState> plugin_states(const Runtime& runtime) {
    using Refusal = PluginRefusals::Refusal;
    const std::vector<Refusal> refusals = runtime.refusals().all();
    std::vector<PluginState> out;
    std::set<std::string> described;  // files of plugins(): a refusal of one of them is its state
    for (const auto& up : runtime.plugins()) {
        const Plugin& p = *up;
        PluginState s;
        s.file = p.path;
        s.id = p.id;
        s.version = p.version;
        s.kind = kind_name(p.kind);
        if (!p.service.empty()) s.service = qualify(runtime.settings().ns, p.service);
        const auto refused = std::find_if(refusals.begin(), refusals.end(),
                                          [&](const Refusal& r) { return r.file == p.path; });
        if (refused != refusals.end()) {
            s.state = "refused";
            s.reason = refused->reason;
        } else if (p.instance) {
            s.state = p.worker ? "isolated" : "loaded";
        } else {
            s.state = "unused";
            s.reason = p.kind == PLATFORM_KIND_SERVICE || p.kind == PLATFORM_KIND_MODEL
                           ? "the profile does not load it"
                           : "the profile chose another " + s.kind + " provider";
        }
        s.worker = p.worker;
        described.insert(p.path);
        out.push_back(std::move(s));
    }
    for (const auto& r : refusals)
        if (!described.count(r.file)) {
            PluginState s;
            s.file = r.file;
            s.id = r.id;
            s.state = "refused";
            s.reason = r.reason;
            out.push_back(std::move(s));
        }
    std::stable_sort(out.begin(), out.end(), [](const PluginState& a, const PluginState& b) {
        if (a.id.empty() != b.id.empty()) return b.id.empty();
        return a.id != b.id ? a.id < b.id : a.file < b.file;
    });
    return out;
}

}  // namespace platform::host
