// output.hpp — how the CLI prints (docs/cli.md, "Conventions").
//
// Data goes to stdout, messages to stderr. Formats: `table` (the default of listing commands on a
// terminal), `json` (indented; the default of calls), `raw` (compact JSON on one line, a string
// result bare, for scripts). Colour only when the stream is a terminal, NO_COLOR is unset or empty
// and TERM is not `dumb`.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace platform::cli {

enum class Format { json, table, raw };

// Parses "json" / "table" / "raw"; throws UsageError otherwise.
Format parse_format(const std::string& text);

// Prints a result. As a table: an array of objects (or an object holding exactly one such array)
// becomes columns of its keys; an object becomes KEY VALUE lines; anything else prints as JSON.
void print(std::ostream& os, const nlohmann::json& value, Format format);

// Columns in the given order: upper-case headers (bold on a colour terminal), cells padded to the
// widest plus two spaces.
void print_table(std::ostream& os, const std::vector<std::string>& headers,
                 const std::vector<std::vector<std::string>>& rows);

// True when text written to `os` (std::cout or std::cerr) may carry colour escapes.
bool colour(const std::ostream& os);

// `text` wrapped in an SGR escape ("1" bold, "31" red, "32" green) when colour(os); else `text`.
std::string paint(const std::ostream& os, const std::string& sgr, const std::string& text);

}  // namespace platform::cli
