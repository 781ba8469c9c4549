// output.hpp — how the CLI prints results: --output json (default, indented) or table.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace platform::cli {

enum class Format { json, table };

// Parses "json" / "table"; throws UsageError otherwise.
Format parse_format(const std::string& text);

// Prints a result. As a table: an array of objects (or an object holding exactly one such array)
// becomes columns of its keys; an object becomes KEY VALUE lines; anything else prints as JSON.
void print(std::ostream& os, const nlohmann::json& value, Format format);

// Columns in the given order: upper-case headers, cells padded to the widest plus two spaces.
void print_table(std::ostream& os, const std::vector<std::string>& headers,
                 const std::vector<std::vector<std::string>>& rows);

}  // namespace platform::cli
