// store-postgres — the provider's configuration: where the server is, which schema, how many
// connections.
#pragma once

#include <cstddef>
#include <platform/sdk/host.hpp>
#include <string>

namespace store_postgres {

struct Config {
    std::string dsn;                  // libpq connection string or postgresql:// URI
    std::string schema = "platform";  // holds the `records` table; created when missing
    size_t pool_size = 8;             // connections open at most (each call leases one)
    int acquire_timeout_ms = 10000;   // wait for a free connection before UNAVAILABLE
};

// Reads {"dsn", "schema", "pool_size", "acquire_timeout_ms"}; `dsn` falls back to the environment
// variable PLATFORM_POSTGRES_DSN. Throws platform::invalid_argument naming the key and the rule.
Config read_config(const platform::json& config);

// The DSN with any password replaced by "***", for log lines and error messages.
std::string redact(const std::string& dsn);

}  // namespace store_postgres
