#include <platform/host/isolation/worker_descriptor.hpp>

namespace platform::host::worker {

using nlohmann::json;

namespace {
std::string str(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}
const platform_endpoint_t* endpoint_at(const platform_plugin_desc_t* d, uint32_t i) {
    return reinterpret_cast<const platform_endpoint_t*>(
        reinterpret_cast<const char*>(d->endpoints) + size_t(i) * d->endpoint_stride);
}
}  // namespace

json describe_json(const platform_plugin_desc_t* d) {
    json endpoints = json::array();
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        const platform_endpoint_t* e = endpoint_at(d, i);
        json ep = {{"name", str(e->name)},
                   {"title", str(e->title)},
                   {"description", str(e->description)},
                   {"verb", e->verb},
                   {"access", e->access},
                   {"flags", e->flags},
                   {"input_schema", str(e->input_schema)}};
        // A field the plugin's struct lacks is left out and rebuilt as zero/empty.
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, output_schema))
            ep["output_schema"] = str(e->output_schema);
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, max_body_bytes))
            ep["max_body_bytes"] = e->max_body_bytes;
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, price)) ep["price"] = e->price;
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, since)) ep["since"] = str(e->since);
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, http_path))
            ep["http_path"] = str(e->http_path);
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, mcp_uri_prefix)) {
            ep["mcp_role"] = e->mcp_role;
            ep["mcp_uri_prefix"] = str(e->mcp_uri_prefix);
        }
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, resume_arg)) {
            ep["live_input"] = str(e->live_input);
            ep["resume_arg"] = str(e->resume_arg);
        }
        endpoints.push_back(std::move(ep));
    }
    return {{"abi_version", d->abi_version},    {"id", str(d->id)},
            {"version", str(d->version)},       {"kind", d->kind},
            {"summary", str(d->summary)},       {"config_schema", str(d->config_schema)},
            {"service", str(d->service)},       {"on_cancel", d->on_cancel != nullptr},
            {"endpoints", std::move(endpoints)}};
}

platform_str_t OwnedDescriptor::keep(const json& v) {
    strings_.push_back(v.is_string() ? v.get<std::string>() : std::string());
    return {strings_.back().data(), strings_.back().size()};
}

OwnedDescriptor::OwnedDescriptor(const json& in, const platform_plugin_desc_t& hooks) {
    auto num = [](const json& o, const char* k) -> int64_t {
        auto it = o.find(k);
        return it != o.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
    };
    auto field = [](const json& o, const char* k) -> const json& {
        static const json none;
        auto it = o.find(k);
        return it == o.end() ? none : *it;
    };
    const json& eps = field(in, "endpoints");
    if (eps.is_array())
        for (const auto& e : eps) {
            if (!e.is_object()) continue;
            platform_endpoint_t ep{};
            ep.struct_size = sizeof ep;
            ep.name = keep(field(e, "name"));
            ep.title = keep(field(e, "title"));
            ep.description = keep(field(e, "description"));
            ep.verb = static_cast<platform_verb_t>(num(e, "verb"));
            ep.access = static_cast<platform_access_t>(num(e, "access"));
            ep.flags = static_cast<uint64_t>(num(e, "flags"));
            ep.input_schema = keep(field(e, "input_schema"));
            ep.output_schema = keep(field(e, "output_schema"));
            ep.max_body_bytes = static_cast<uint64_t>(num(e, "max_body_bytes"));
            ep.price = static_cast<uint64_t>(num(e, "price"));
            ep.since = keep(field(e, "since"));
            ep.http_path = keep(field(e, "http_path"));
            ep.mcp_role = e.contains("mcp_role")
                              ? static_cast<platform_mcp_role_t>(num(e, "mcp_role"))
                              : PLATFORM_MCP_TOOL;
            ep.mcp_uri_prefix = keep(field(e, "mcp_uri_prefix"));
            ep.live_input = keep(field(e, "live_input"));
            ep.resume_arg = keep(field(e, "resume_arg"));
            endpoints_.push_back(ep);
        }
    desc_ = hooks;
    desc_.struct_size = sizeof desc_;
    desc_.abi_version = static_cast<uint32_t>(num(in, "abi_version"));
    desc_.id = keep(field(in, "id"));
    desc_.version = keep(field(in, "version"));
    desc_.kind = static_cast<platform_kind_t>(num(in, "kind"));
    desc_.summary = keep(field(in, "summary"));
    desc_.config_schema = keep(field(in, "config_schema"));
    desc_.service = keep(field(in, "service"));
    desc_.endpoints = endpoints_.empty() ? nullptr : endpoints_.data();
    desc_.endpoint_count = static_cast<uint32_t>(endpoints_.size());
    desc_.endpoint_stride = sizeof(platform_endpoint_t);
    desc_.provider = nullptr;
    on_cancel_ = field(in, "on_cancel").is_boolean() && field(in, "on_cancel").get<bool>();
}

}  // namespace platform::host::worker
