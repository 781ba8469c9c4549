// Fuzz target json_check: json_valid (platform/validation/json_check.hpp), differentially against
// nlohmann::json::accept, the check it replaced on the /api/v1 answer path.
//
// Input: any bytes. The whole input is checked as a JSON text, and again inside an array, as an
// object member's value and between quotes (so the same bytes are also met in nested, member and
// string positions). Finding: an answer that differs from nlohmann's, but where json_valid
// refuses on purpose (a leading byte order mark, a NUL byte: json_check.hpp), and any crash.
#include <nlohmann/json.hpp>
#include <platform/validation/json_check.hpp>
#include <string>

#include "fuzz_support.hpp"

namespace {

void agrees(const std::string& s) {
    const bool ours = platform::validation::json_valid(s);
    const bool on_purpose = s.rfind("\xEF\xBB\xBF", 0) == 0 || s.find('\0') != std::string::npos;
    if (on_purpose) {
        FUZZ_CHECK(!ours, "accepted a text with a leading BOM or a NUL byte");
        return;
    }
    const bool theirs = nlohmann::json::accept(s);
    FUZZ_CHECK(ours == theirs,
               std::string("json_valid ") + (ours ? "accepts" : "refuses") + " what nlohmann " +
                   (theirs ? "accepts" : "refuses") + ": " +
                   nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string s(fuzz::text(data, size));
    agrees(s);
    agrees("[" + s + "]");
    agrees("{\"k\":" + s + "}");
    agrees("\"" + s + "\"");
    return 0;
}
