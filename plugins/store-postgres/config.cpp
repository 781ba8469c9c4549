// store-postgres — reading and checking the configuration.
#include "config.hpp"

#include <cstdlib>
#include <platform/sdk/error.hpp>
#include <regex>

namespace store_postgres {

namespace {

constexpr const char* kName = "store-postgres";

[[noreturn]] void bad(const std::string& what) {
    throw platform::invalid_argument(std::string(kName) + ": config " + what);
}

int64_t integer(const platform::json& config, const char* key, int64_t dflt, int64_t lo,
                int64_t hi) {
    auto it = config.find(key);
    if (it == config.end() || it->is_null()) return dflt;
    if (!it->is_number_integer()) bad(std::string("'") + key + "' must be an integer");
    int64_t v = it->get<int64_t>();
    if (v < lo || v > hi)
        bad(std::string("'") + key + "' must be between " + std::to_string(lo) + " and " +
            std::to_string(hi));
    return v;
}

}  // namespace

Config read_config(const platform::json& config) {
    if (!config.is_null() && !config.is_object()) bad("must be an object");
    const platform::json cfg = config.is_null() ? platform::json::object() : config;
    Config c;
    if (auto it = cfg.find("dsn"); it != cfg.end() && !it->is_null()) {
        if (!it->is_string()) bad("'dsn' must be a string");
        c.dsn = it->get<std::string>();
    } else if (const char* env = std::getenv("PLATFORM_POSTGRES_DSN")) {
        c.dsn = env;
    }
    if (c.dsn.empty())
        bad("'dsn' is required (a libpq connection string such as "
            "postgresql://user@127.0.0.1:5432/db), or set PLATFORM_POSTGRES_DSN");
    if (auto it = cfg.find("schema"); it != cfg.end() && !it->is_null()) {
        if (!it->is_string()) bad("'schema' must be a string");
        c.schema = it->get<std::string>();
        static const std::regex ident("[a-z_][a-z0-9_]{0,62}");
        if (!std::regex_match(c.schema, ident))
            bad("'schema' must be 1 to 63 characters of a-z, 0-9 and _, not starting with a digit");
    }
    c.pool_size = static_cast<size_t>(integer(cfg, "pool_size", 8, 1, 64));
    c.acquire_timeout_ms = static_cast<int>(integer(cfg, "acquire_timeout_ms", 10000, 1, 600000));
    return c;
}

std::string redact(const std::string& dsn) {
    // URI form: scheme://user:password@host...; keyword form: password=...
    static const std::regex uri("(://[^:/@]*):[^@/]*@");
    static const std::regex kw("(password\\s*=\\s*)('[^']*'|\\S+)");
    std::string out = std::regex_replace(dsn, uri, "$1:***@");
    return std::regex_replace(out, kw, "$1***");
}

}  // namespace store_postgres
