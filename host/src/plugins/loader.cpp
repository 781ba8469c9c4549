#include <elf.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <platform/host/core/loader.hpp>
#include <platform/host/core/names.hpp>
#include <regex>
#include <set>

namespace platform::host {

namespace fs = std::filesystem;

namespace {
std::string str(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}

std::string version_text(uint32_t v) {
    return std::to_string(PLATFORM_ABI_MAJOR_OF(v)) + "." +
           std::to_string(PLATFORM_ABI_MINOR_OF(v));
}

const platform_endpoint_t* endpoint_at(const platform_plugin_desc_t* d, uint32_t i) {
    return reinterpret_cast<const platform_endpoint_t*>(
        reinterpret_cast<const char*>(d->endpoints) + size_t(i) * d->endpoint_stride);
}

}  // namespace

std::string check_descriptor(const platform_plugin_desc_t* d, Plugin& p) {
    if (d->struct_size < offsetof(platform_plugin_desc_t, on_cancel))
        return "descriptor too small (struct_size " + std::to_string(d->struct_size) + ")";
    p.abi_version = d->abi_version;
    if (PLATFORM_ABI_MAJOR_OF(d->abi_version) != PLATFORM_ABI_MAJOR)
        return "built against ABI " + version_text(d->abi_version) + ", host speaks " +
               version_text(PLATFORM_ABI_VERSION) + " (majors must match)";
    if (PLATFORM_ABI_MINOR_OF(d->abi_version) > PLATFORM_ABI_MINOR)
        return "built against ABI " + version_text(d->abi_version) + ", newer than this host's " +
               version_text(PLATFORM_ABI_VERSION) + "; rebuild it against this host's SDK";
    p.id = str(d->id);
    static const std::regex id_re("^[a-z0-9][a-z0-9._-]{0,63}$");
    if (!std::regex_match(p.id, id_re)) return "invalid plugin id '" + p.id + "'";
    p.version = str(d->version);
    p.summary = str(d->summary);
    p.kind = d->kind;
    if (p.kind < PLATFORM_KIND_SERVICE || p.kind > PLATFORM_KIND_MODEL)
        return "unknown plugin kind " + std::to_string(p.kind);
    if (!d->on_create) return "descriptor has no on_create";
    if (p.kind != PLATFORM_KIND_SERVICE) {
        if (!d->provider) return "provider plugin without a provider table";
        // A provider whose descriptor names a service also serves it (auth-local serves `auth`):
        // its endpoints are checked like a service's.
        if (!d->service.len) return "";
    }
    p.service = str(d->service);
    static const std::regex svc_re("^[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)*$");
    if (!std::regex_match(p.service, svc_re)) return "invalid service name '" + p.service + "'";
    if (!d->on_call) return "service plugin without on_call";
    if (d->endpoint_count &&
        (!d->endpoints || d->endpoint_stride < offsetof(platform_endpoint_t, output_schema)))
        return "endpoint array missing or stride too small";
    static const std::regex name_re("^[A-Za-z][A-Za-z0-9_-]{0,63}$");
    std::set<std::string> seen;
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        const platform_endpoint_t* e = endpoint_at(d, i);
        const std::string name = str(e->name);
        nlohmann::json output;
        std::optional<Schema> input;
        try {
            input = Schema::parse(str(e->input_schema));
            if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, output_schema) && e->output_schema.len)
                output = nlohmann::json::parse(str(e->output_schema));
        } catch (const std::exception& ex) {
            return "endpoint '" + name + "': invalid schema: " + ex.what();
        }
        Endpoint ep(std::move(*input));
        ep.output_schema = std::move(output);
        ep.index = i;
        ep.name = name;
        if (!std::regex_match(ep.name, name_re)) return "invalid endpoint name '" + ep.name + "'";
        ep.method = canonical_method(p.service, ep.name);
        if (!seen.insert(ep.method).second) return "duplicate endpoint '" + ep.name + "'";
        ep.title = str(e->title);
        ep.description = str(e->description);
        ep.verb = e->verb;
        if (ep.verb != PLATFORM_VERB_GET && ep.verb != PLATFORM_VERB_POST)
            return "endpoint '" + ep.name + "': unknown verb " + std::to_string(ep.verb);
        ep.access = e->access;
        if (ep.access < PLATFORM_ACCESS_PUBLIC || ep.access > PLATFORM_ACCESS_ADMIN)
            return "endpoint '" + ep.name + "': unknown access " + std::to_string(ep.access);
        ep.flags = e->flags;
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, max_body_bytes) && e->max_body_bytes)
            ep.max_body = e->max_body_bytes;
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, price)) ep.price = e->price;
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, since)) ep.since = str(e->since);
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, http_path)) ep.http_path = str(e->http_path);
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, mcp_uri_prefix)) {
            ep.mcp_role = e->mcp_role >= PLATFORM_MCP_TOOL && e->mcp_role <= PLATFORM_MCP_HIDDEN
                              ? e->mcp_role
                              : PLATFORM_MCP_HIDDEN;
            ep.mcp_uri_prefix = str(e->mcp_uri_prefix);
        }
        if (PLATFORM_HAS_FIELD(platform_endpoint_t, e, resume_arg)) {
            ep.live_input = str(e->live_input);
            ep.resume_arg = str(e->resume_arg);
        }
        p.endpoints.push_back(std::move(ep));
    }
    return "";
}

std::vector<fs::path> find_plugin_files(const std::vector<fs::path>& dirs) {
    std::vector<fs::path> out;
    for (const auto& dir : dirs) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<fs::path> here;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.path().extension() == ".so" && !e.is_directory()) here.push_back(e.path());
        std::sort(here.begin(), here.end());
        out.insert(out.end(), here.begin(), here.end());
    }
    return out;
}

std::string check_elf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open file";
    in.seekg(0, std::ios::end);
    const auto size = static_cast<uint64_t>(in.tellg());
    in.seekg(0);
    Elf64_Ehdr eh{};
    if (size < sizeof eh || !in.read(reinterpret_cast<char*>(&eh), sizeof eh))
        return "not a shared library (file too short)";
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
    if (eh.e_ident[EI_CLASS] != ELFCLASS64) return "not a 64-bit ELF file";
    if (eh.e_type != ET_DYN) return "not a shared object";
    if (eh.e_phoff + uint64_t(eh.e_phnum) * sizeof(Elf64_Phdr) > size) return "truncated ELF file";
    if (eh.e_shoff + uint64_t(eh.e_shnum) * eh.e_shentsize > size) return "truncated ELF file";
    for (int i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph{};
        in.seekg(static_cast<std::streamoff>(eh.e_phoff + i * sizeof ph));
        if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return "truncated ELF file";
        if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > size) return "truncated ELF file";
    }
    return "";
}

// Loaded libraries stay loaded for the life of the process (descriptors and handlers point into
// them), held here so they stay reachable: never unloaded, and not a leak to LeakSanitizer.
static void* keep_loaded(std::unique_ptr<boost::dll::shared_library> lib) {
    static std::mutex m;
    static auto* kept = new std::vector<std::unique_ptr<boost::dll::shared_library>>();
    std::lock_guard<std::mutex> lock(m);
    kept->push_back(std::move(lib));
    return kept->back().get();
}

std::variant<std::unique_ptr<Plugin>, std::string> load_plugin(const fs::path& path,
                                                               const platform_host_api_t* api) {
    if (auto problem = check_elf(path); !problem.empty()) return problem;
    auto lib = std::make_unique<boost::dll::shared_library>();
    boost::dll::fs::error_code ec;
    lib->load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    if (ec) return "cannot load: " + ec.message();
    if (!lib->has(PLATFORM_ENTRY_SYMBOL))
        return std::string("missing entry symbol ") + PLATFORM_ENTRY_SYMBOL;
    auto entry = lib->get<const platform_plugin_desc_t*(const platform_entry_args_t*)>(
        PLATFORM_ENTRY_SYMBOL);
    char error[512] = {0};
    platform_entry_args_t args{};
    args.struct_size = sizeof args;
    args.host_abi_version = PLATFORM_ABI_VERSION;
    args.api = api;
    args.error = error;
    args.error_size = sizeof error;
    const platform_plugin_desc_t* desc = entry(&args);
    if (!desc)
        return std::string("entry returned no descriptor: ") +
               (error[0] ? error : "no reason given");
    auto plugin = std::make_unique<Plugin>();
    plugin->path = path.string();
    plugin->desc = desc;
    if (auto problem = check_descriptor(desc, *plugin); !problem.empty()) return problem;
    plugin->library = keep_loaded(std::move(lib));
    return plugin;
}

const Endpoint* Plugin::endpoint(std::string_view name_or_method) const {
    for (const auto& e : endpoints)
        if (e.name == name_or_method || e.method == name_or_method) return &e;
    for (const auto& e : endpoints)
        if (e.method.size() == name_or_method.size() &&
            std::equal(e.method.begin(), e.method.end(), name_or_method.begin(),
                       [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
            return &e;
    return nullptr;
}

}  // namespace platform::host
