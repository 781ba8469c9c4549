#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <platform/host/core/build_tree.hpp>
#include <platform/host/core/http_settings.hpp>
#include <platform/host/core/profile.hpp>
#include <regex>

namespace platform::host {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Ctx {
    std::string file;
    [[noreturn]] void fail(const YAML::Node& n, const std::string& key,
                           const std::string& problem) const {
        throw ProfileError(file + ":" + std::to_string(n.Mark().line + 1) + ": " + key + ": " +
                           problem);
    }
    std::string where(const YAML::Node& n) const {
        return file + ":" + std::to_string(n.Mark().line + 1);
    }
};

// ${VAR} -> the variable's value ("" when unset); ${VAR:?why} -> the value, or a YAML error at
// `mark` naming VAR and `why` when the variable is unset or empty (a setting the profile needs).
std::string expand(const std::string& s, const YAML::Mark& mark = YAML::Mark::null_mark()) {
    static const std::regex var("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::\\?([^}]*))?\\}");
    std::string out;
    auto begin = std::sregex_iterator(s.begin(), s.end(), var);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
        out += s.substr(last, it->position() - last);
        const std::string name = (*it)[1].str();
        const char* v = std::getenv(name.c_str());
        if ((*it)[2].matched && (!v || !*v)) {
            const std::string why = (*it)[2].str();
            throw YAML::Exception(mark,
                                  name + " is not set" + (why.empty() ? "" : " (" + why + ")"));
        }
        out += v ? v : "";
        last = it->position() + it->length();
    }
    return out + s.substr(last);
}

json to_json(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Map: {
            json o = json::object();
            for (const auto& kv : n) o[kv.first.as<std::string>()] = to_json(kv.second);
            return o;
        }
        case YAML::NodeType::Sequence: {
            json a = json::array();
            for (const auto& v : n) a.push_back(to_json(v));
            return a;
        }
        case YAML::NodeType::Scalar: {
            std::string s = n.Scalar();
            if (n.Tag() == "!") return expand(s, n.Mark());  // quoted: always a string
            if (s == "true" || s == "false") return s == "true";
            if (s == "null" || s == "~") return nullptr;
            static const std::regex number("^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$");
            if (std::regex_match(s, number)) {
                json v =
                    json::parse(s, nullptr, false);  // "09", "007": no JSON numbers, so strings
                if (!v.is_discarded()) return v;
            }
            return expand(s, n.Mark());
        }
        default:
            return nullptr;
    }
}

std::vector<std::string> string_list(const Ctx& c, const YAML::Node& n, const std::string& key) {
    if (!n.IsSequence()) c.fail(n, key, "must be a list of strings");
    std::vector<std::string> out;
    for (const auto& v : n) {
        if (!v.IsScalar()) c.fail(v, key, "must be a list of strings");
        out.push_back(expand(v.Scalar(), v.Mark()));
    }
    return out;
}

bool boolean(const Ctx& c, const YAML::Node& n, const std::string& key) {
    if (n.IsScalar() && (n.Scalar() == "true" || n.Scalar() == "false"))
        return n.Scalar() == "true";
    c.fail(n, key, "must be true or false");
}

// An integer in [min, max].
int64_t integer(const Ctx& c, const YAML::Node& n, const std::string& key, int64_t min,
                int64_t max) {
    int64_t out = 0;
    try {
        out = n.as<int64_t>();
    } catch (...) {
        c.fail(n, key, "must be an integer");
    }
    if (out < min || out > max)
        c.fail(n, key, "must be between " + std::to_string(min) + " and " + std::to_string(max));
    return out;
}

// `http.cors`: false (no CORS at all), true (the default: no origin listed), or
// {origins: ["*" | scheme://host[:port], ...]} (http_cors.hpp).
CorsSettings cors_settings(const Ctx& c, const YAML::Node& n, const std::string& key) {
    CorsSettings cors;
    if (n.IsScalar()) {
        cors.enabled = boolean(c, n, key);
        return cors;
    }
    if (!n.IsMap()) c.fail(n, key, "must be false or a mapping {origins: [...]}");
    for (const auto& f : n) {
        const std::string fk = f.first.as<std::string>();
        if (fk != "origins") c.fail(f.first, key + "." + fk, "unknown key (expected origins)");
        cors.origins = string_list(c, f.second, key + ".origins");
        for (size_t i = 0; i < cors.origins.size(); ++i) {
            const std::string problem = cors_origin_problem(cors.origins[i]);
            if (!problem.empty())
                c.fail(f.second[i], key + ".origins", "'" + cors.origins[i] + "': " + problem);
        }
    }
    return cors;
}

std::string scalar(const Ctx& c, const YAML::Node& n, const std::string& key) {
    if (!n.IsScalar()) c.fail(n, key, "must be a string");
    return expand(n.Scalar(), n.Mark());
}

// A scalar as written (no ${VAR} expansion); any other node is named, not a bad conversion.
std::string text(const Ctx& c, const YAML::Node& n, const std::string& key) {
    if (!n.IsScalar()) c.fail(n, key, "must be a string");
    return n.Scalar();
}

// A string that is empty (after ${VAR} expansion) or an http(s) URL.
std::string http_url(const Ctx& c, const YAML::Node& n, const std::string& key) {
    std::string url = scalar(c, n, key);
    std::string error;
    if (!url.empty() && !parse_url(url, &error))
        c.fail(n, key, "must be an http(s) URL (" + error + ")");
    return url;
}

OutboundSettings parse_outbound(const Ctx& c, const YAML::Node& v) {
    if (!v.IsMap()) c.fail(v, "outbound", "must be a mapping");
    OutboundSettings o;
    for (const auto& kv : v) {
        const std::string sk = kv.first.as<std::string>();
        const std::string k = "outbound." + sk;
        const YAML::Node& n = kv.second;
        if (sk == "allow" || sk == "allow_user") {
            auto& list = sk == "allow" ? o.allow : o.allow_user;
            list = string_list(c, n, k);
            size_t i = 0;
            for (const auto& entry : n) {
                if (auto problem = allow_entry_problem(list[i++])) c.fail(entry, k, *problem);
            }
        } else if (sk == "timeout_ms")
            o.timeout_ms = static_cast<int32_t>(integer(c, n, k, 1, 3600000));
        else if (sk == "max_response_bytes")
            o.max_response_bytes = static_cast<uint64_t>(integer(c, n, k, 1, int64_t(1) << 40));
        else if (sk == "max_redirects")
            o.max_redirects = static_cast<int>(integer(c, n, k, 0, 20));
        else if (sk == "user_agent")
            o.user_agent = scalar(c, n, k);
        else if (sk == "providers") {
            if (!n.IsMap()) c.fail(n, k, "must be a mapping of provider name to settings");
            for (const auto& pk : n) {
                const std::string name = pk.first.as<std::string>();
                const std::string pkey = k + "." + name;
                if (!pk.second.IsMap())
                    c.fail(pk.second, pkey,
                           "must be a mapping (base_url, api_key, api_key_header, key_required, "
                           "timeout_ms)");
                ProviderSettings ps;
                for (const auto& f : pk.second) {
                    const std::string fk = f.first.as<std::string>();
                    const std::string full = pkey + "." + fk;
                    if (fk == "base_url") {
                        ps.base_url = http_url(c, f.second, full);
                    } else if (fk == "api_key")
                        ps.api_key = scalar(c, f.second, full);
                    else if (fk == "api_key_header")
                        ps.api_key_header = scalar(c, f.second, full);
                    else if (fk == "key_required")
                        ps.key_required = boolean(c, f.second, full);
                    else if (fk == "timeout_ms")
                        ps.timeout_ms =
                            static_cast<int32_t>(integer(c, f.second, full, 1, 3600000));
                    else
                        c.fail(f.first, full,
                               "unknown key (expected base_url, api_key, api_key_header, "
                               "key_required, timeout_ms)");
                }
                o.providers[name] = ps;
            }
        } else {
            c.fail(kv.first, k,
                   "unknown key (expected allow, providers, timeout_ms, max_response_bytes, "
                   "max_redirects, user_agent)");
        }
    }
    return o;
}

// The `http:` section (http_settings.hpp); every error names file:line and http.<key>.
HttpSettings parse_http(const Ctx& c, const YAML::Node& v) {
    if (!v.IsMap()) c.fail(v, "http", "must be a mapping");
    HttpSettings h;
    auto positive = [&](const YAML::Node& n, const std::string& key) {
        double out = 0;
        try {
            out = n.as<double>();
        } catch (...) {
            c.fail(n, key, "must be a number");
        }
        if (!(out > 0) || out > 1e9) c.fail(n, key, "must be a number above 0");
        return out;
    };
    for (const auto& kv : v) {
        const std::string sk = kv.first.as<std::string>();
        const std::string k = "http." + sk;
        const YAML::Node& n = kv.second;
        if (sk == "max_request_bytes")
            h.max_request_bytes = static_cast<uint64_t>(integer(c, n, k, 1024, int64_t(1) << 32));
        else if (sk == "max_header_count")
            h.max_header_count = static_cast<uint32_t>(integer(c, n, k, 1, 10000));
        else if (sk == "max_header_bytes")
            h.max_header_bytes = static_cast<uint32_t>(integer(c, n, k, 256, 1 << 20));
        else if (sk == "header_timeout_ms")
            h.header_timeout_ms = integer(c, n, k, 100, 3600000);
        else if (sk == "idle_timeout_ms")
            h.idle_timeout_ms = integer(c, n, k, 100, 86400000);
        else if (sk == "max_connections")
            h.max_connections = static_cast<uint32_t>(integer(c, n, k, 1, 1000000));
        else if (sk == "drain_ms")
            h.drain_ms = integer(c, n, k, 0, 3600000);
        else if (sk == "cors")
            h.cors = cors_settings(c, n, k);
        else if (sk == "access_log")
            h.access_log = boolean(c, n, k);
        else if (sk == "rate_limit" || sk == "account_rate_limit") {
            if (n.IsNull()) continue;  // `rate_limit:` with nothing = off
            RateLimitSettings& limit = sk == "rate_limit" ? h.rate_limit : h.account_rate_limit;
            if (!n.IsMap()) c.fail(n, k, "must be a mapping {requests_per_second, burst, shared}");
            for (const auto& f : n) {
                const std::string fk = f.first.as<std::string>();
                if (fk == "requests_per_second")
                    limit.requests_per_second = positive(f.second, k + "." + fk);
                else if (fk == "burst")
                    limit.burst = positive(f.second, k + "." + fk);
                else if (fk == "shared")
                    limit.shared = boolean(c, f.second, k + "." + fk);
                else
                    c.fail(f.first, k + "." + fk,
                           "unknown key (expected requests_per_second, burst, shared)");
            }
            if (!limit.enabled())
                c.fail(n, k + ".requests_per_second", "missing (the rate limit needs it)");
        } else {
            c.fail(kv.first, k,
                   "unknown key (expected max_request_bytes, max_header_count, max_header_bytes, "
                   "header_timeout_ms, idle_timeout_ms, max_connections, cors, access_log, "
                   "rate_limit, account_rate_limit, drain_ms)");
        }
    }
    return h;
}

// The `payment:` section (profile.hpp PaymentSettings); every error names file:line and
// payment.<key>.
PaymentSettings parse_payment(const Ctx& c, const YAML::Node& v) {
    if (!v.IsMap()) c.fail(v, "payment", "must be a mapping");
    PaymentSettings p;
    auto nonempty = [&](const YAML::Node& n, const std::string& key) {
        std::string s = scalar(c, n, key);
        if (s.empty()) c.fail(n, key, "must not be empty");
        return s;
    };
    for (const auto& kv : v) {
        const std::string sk = kv.first.as<std::string>();
        const std::string k = "payment." + sk;
        const YAML::Node& n = kv.second;
        if (sk == "pay_to")
            p.pay_to = scalar(c, n, k);  // may expand to "" (x402 off)
        else if (sk == "facilitator_url") {
            p.facilitator_url = http_url(c, n, k);
        } else if (sk == "network")
            p.network = nonempty(n, k);
        else if (sk == "asset")
            p.asset = nonempty(n, k);
        else if (sk == "decimals")
            p.decimals = static_cast<int>(integer(c, n, k, 2, 36));
        else if (sk == "max_timeout_seconds")
            p.max_timeout_seconds = integer(c, n, k, 1, 86400);
        else if (sk == "timeout_ms")
            p.timeout_ms = integer(c, n, k, 100, 600000);
        else if (sk == "extra") {
            if (!n.IsMap())
                c.fail(n, k, "must be a mapping (the asset's EIP-712 domain: name, version)");
            p.extra = to_json(n);
        } else {
            c.fail(
                kv.first, k,
                "unknown key (expected pay_to, facilitator_url, network, asset, decimals, extra, "
                "max_timeout_seconds, timeout_ms)");
        }
    }
    return p;
}

// The `xmpp:` section (profile.hpp XmppSettings).
XmppSettings parse_xmpp(const Ctx& c, const YAML::Node& v) {
    if (!v.IsMap()) c.fail(v, "xmpp", "must be a mapping");
    XmppSettings x;
    for (const auto& kv : v) {
        const std::string sk = kv.first.as<std::string>(), k = "xmpp." + sk;
        const YAML::Node& n = kv.second;
        if (sk == "domain")
            x.domain = scalar(c, n, k);
        else if (sk == "server")
            x.server = scalar(c, n, k);
        else if (sk == "secret")
            x.secret = scalar(c, n, k);
        else if (sk == "prosody") {
            x.prosody = scalar(c, n, k);
            if (x.prosody != "scripts" && x.prosody != "operator")
                c.fail(n, k, "must be scripts or operator");
        } else {
            c.fail(kv.first, k, "unknown key (expected domain, server, secret, prosody)");
        }
    }
    return x;
}

Profile parse(const Ctx& c, const YAML::Node& root) {
    if (!root.IsMap()) c.fail(root, "(top)", "a profile must be a YAML mapping");
    Profile p;
    p.file = c.file;
    for (const auto& kv : root) {
        const std::string key = kv.first.as<std::string>();
        const YAML::Node& v = kv.second;
        if (key == "name")
            p.name = text(c, v, key);
        else if (key == "description")
            p.description = text(c, v, key);
        else if (key == "clock") {
            std::string clock = v.IsScalar() ? v.Scalar() : "";
            if (clock != "real" && clock != "manual") c.fail(v, key, "must be real or manual");
            p.manual_clock = clock == "manual";
        } else if (key == "plugins") {
            p.plugins_where = c.where(v);
            if (v.IsScalar() && v.Scalar() == "all")
                p.all_plugins = true;
            else {
                p.all_plugins = false;
                p.plugins = string_list(c, v, key);
            }
        } else if (key == "test_plugins")
            p.test_plugins = boolean(c, v, key);
        else if (key == "plugin_path")
            p.plugin_path = string_list(c, v, key);
        else if (key == "privileged") {
            auto l = string_list(c, v, key);
            p.privileged.insert(l.begin(), l.end());
        } else if (key == "isolation") {
            // isolation: {<plugin id>: process | in-process}
            if (!v.IsMap())
                c.fail(v, key, "must be a mapping of plugin id to process or in-process");
            p.isolation_where = c.where(v);
            for (const auto& iv : v) {
                const std::string id = iv.first.as<std::string>();
                const std::string mode = iv.second.IsScalar() ? iv.second.Scalar() : "";
                if (mode == "process")
                    p.isolated.insert(id);
                else if (mode != "in-process")
                    c.fail(iv.second, key + "." + id, "must be process or in-process");
            }
        } else if (key == "providers") {
            if (!v.IsMap()) c.fail(v, key, "must be a mapping of kind to provider");
            for (const auto& pk : v) {
                const std::string kind = pk.first.as<std::string>();
                const std::string k = "providers." + kind;
                const auto& kinds = provider_kinds();
                if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
                    c.fail(pk.first, k,
                           "unknown provider kind (expected store, broker, events, auth or model)");
                if (!pk.second.IsMap() || !pk.second["plugin"])
                    c.fail(pk.second, k, "needs a `plugin` key");
                ProviderChoice choice;
                for (const auto& f : pk.second) {
                    std::string fk = f.first.as<std::string>();
                    if (fk == "plugin") {
                        choice.plugin = text(c, f.second, k + ".plugin");
                        choice.where = c.where(f.second);
                    } else if (fk == "config") {
                        if (!f.second.IsMap()) c.fail(f.second, k + ".config", "must be a mapping");
                        choice.config = to_json(f.second);
                    } else
                        c.fail(f.first, k + "." + fk, "unknown key (expected plugin, config)");
                }
                p.providers[kind] = choice;
            }
        } else if (key == "plugin_config") {
            if (!v.IsMap()) c.fail(v, key, "must be a mapping of plugin id to config");
            p.plugin_config = to_json(v);
        } else if (key == "settings") {
            if (!v.IsMap()) c.fail(v, key, "must be a mapping");
            for (const auto& s : v) {
                std::string sk = s.first.as<std::string>();
                auto number = [&](int64_t& out) {
                    try {
                        out = s.second.as<int64_t>();
                    } catch (...) {
                        c.fail(s.second, "settings." + sk, "must be an integer");
                    }
                    if (out <= 0) c.fail(s.second, "settings." + sk, "must be positive");
                };
                if (sk == "call_timeout_ms")
                    number(p.call_timeout_ms);
                else if (sk == "max_call_timeout_ms")
                    number(p.max_call_timeout_ms);
                else
                    c.fail(s.first, "settings." + sk,
                           "unknown setting (expected call_timeout_ms, max_call_timeout_ms)");
            }
        } else if (key == "outbound") {
            p.outbound = parse_outbound(c, v);
        } else if (key == "http") {
            p.http = parse_http(c, v);
        } else if (key == "payment") {
            p.payment = parse_payment(c, v);
        } else if (key == "xmpp") {
            p.xmpp = parse_xmpp(c, v);
        } else {
            c.fail(kv.first, key,
                   "unknown key (expected name, description, clock, plugins, test_plugins, "
                   "plugin_path, privileged, isolation, providers, plugin_config, settings, "
                   "outbound, http, payment, xmpp)");
        }
    }
    for (const auto& [kind, choice] : p.providers)
        if (p.isolated.count(choice.plugin))
            throw ProfileError(p.isolation_where + ": isolation." + choice.plugin +
                               ": providers run in the host; only " +
                               "service plugins can run in a worker process");
    for (const char* required : {"store", "broker", "auth"})
        if (!p.providers.count(required))
            throw ProfileError(c.file + ": providers." + required +
                               ": missing (every profile chooses a " + required + " provider)");
    return p;
}

}  // namespace

const std::vector<std::string>& provider_kinds() {
    static const std::vector<std::string> kinds{"store", "broker", "events", "auth", "model"};
    return kinds;
}

std::vector<std::string> profile_search_dirs(const std::string& home, const std::string& exe_dir) {
    std::vector<std::string> dirs;
    if (const char* extra = std::getenv("PLATFORM_PROFILE_PATH")) {
        std::string all = extra;
        for (size_t i = 0, j; i <= all.size(); i = j + 1) {
            j = all.find(':', i);
            if (j == std::string::npos) j = all.size();
            if (j > i) dirs.push_back(all.substr(i, j - i));
        }
    }
    dirs.push_back(home + "/profiles");
    dirs.push_back(exe_dir + "/profiles");
    dirs.push_back(exe_dir + "/../share/platform/profiles");
    if (*build_tree::source_profiles()) dirs.push_back(build_tree::source_profiles());
    return dirs;
}

Profile load_profile(const std::string& name_or_path, const std::vector<std::string>& search_dirs) {
    std::string file;
    const bool is_path =
        name_or_path.find('/') != std::string::npos ||
        (name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".yaml") == 0);
    if (is_path) {
        file = name_or_path;
        if (!fs::exists(file)) throw ProfileError(file + ": profile file not found");
    } else {
        static const std::regex name_re("^[A-Za-z0-9_-]+$");
        if (!std::regex_match(name_or_path, name_re))
            throw ProfileError("profile '" + name_or_path + "': invalid name");
        for (const auto& dir : search_dirs)
            if (fs::exists(dir + "/" + name_or_path + ".yaml")) {
                file = dir + "/" + name_or_path + ".yaml";
                break;
            }
        if (file.empty()) {
            std::string searched;
            for (const auto& d : search_dirs) searched += (searched.empty() ? "" : ", ") + d;
            throw ProfileError("unknown profile '" + name_or_path + "' (looked for " +
                               name_or_path + ".yaml in " + searched + ")");
        }
    }
    Ctx c{file};
    YAML::Node root;
    try {
        root = YAML::LoadFile(file);
    } catch (const YAML::Exception& e) {
        throw ProfileError(file + ":" + std::to_string(e.mark.line + 1) + ": YAML error: " + e.msg);
    }
    Profile p;
    try {
        p = parse(c, root);
    } catch (const YAML::Exception& e) {  // a value of the wrong shape where no check names it
        throw ProfileError(file + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
    if (p.name.empty()) p.name = fs::path(file).stem().string();
    return p;
}

}  // namespace platform::host
