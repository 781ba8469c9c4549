// crash_workload.hpp — writers for the crash-safety test, and the ledger of what they were told.
//
// A WriteClient is one account driving writes through the real HTTP surface of the `local`
// profile: notes/add (a few titles, rewritten), docs/write (new documents and replacements by id),
// tasks/create and tasks/update (the detail), and the `store` built-in's write (table
// crash_safety, keys of its own; as admin). Each write that got a 2xx is acknowledged: the ledger
// keeps, per record, the latest acknowledged value. A write whose answer never came (the host was
// killed under it) is "in flight": after the restart the record may hold it or the value before.
//
//   WriteClient c(0, token, admin_token, seed);
//   while (c.write_one(api)) {}      // until the host dies under it
//   c.verify(api);                   // after the restart: every acknowledged value, intact
//
// One thread per client; a client's ledger is touched only by its own thread, and by verify() once
// that thread was joined.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "http_client.hpp"

namespace platform::test {

// What one record must hold after a restart.
struct ExpectedRecord {
    std::optional<std::string> acked;  // the latest acknowledged value; none: never acknowledged
    std::optional<std::string> in_flight;  // a write sent but never answered
};

// Counters of one client, summed by the test for its figures.
struct WriteCounts {
    size_t acknowledged = 0;  // writes answered 2xx
    size_t unexpected = 0;    // writes answered anything else (a failure)
    size_t in_flight = 0;     // writes cut short by the kill
    size_t checked = 0;       // records read back by verify()
    size_t landed = 0;        // in-flight writes found applied after the restart
};

class WriteClient {
public:
    static constexpr const char* kTable = "crash_safety";  // the store built-in's table

    WriteClient(int index, std::string token, std::string admin_token, unsigned seed);

    // One write of a randomly chosen kind; false once the host stopped answering (the write is
    // then in flight). A non-2xx answer is counted in `unexpected` and described in `errors`.
    bool write_one(HttpClient& api);
    // Reads every record in the ledger back; each must hold its acknowledged value, or the
    // in-flight one. Mismatches are appended to `problems`. Clears the in-flight marks.
    void verify(HttpClient& api, std::vector<std::string>& problems);

    WriteCounts counts;               // reset by the test at each cycle
    std::vector<std::string> errors;  // the unexpected answers
    size_t records() const { return ledger_.size(); }

private:
    struct Write {
        std::string path, key;  // key empty: a creation whose id comes back in the answer
        std::string value;
        std::string kind;  // note, doc, task or record
        nlohmann::json body;
    };
    Write next();
    std::string value_for(const std::string& what);
    std::optional<std::string> read_back(HttpClient& api, const std::string& key,
                                         std::string& error);
    std::map<std::string, std::string> auth(bool admin) const;

    int index_;
    std::string token_, admin_token_;
    std::mt19937 rng_;
    unsigned seq_ = 0;
    // "note:<title>", "doc:<id>", "task:<id>", "record:<key>"
    std::map<std::string, ExpectedRecord> ledger_;
    std::vector<std::string> docs_, tasks_;  // acknowledged ids
};

}  // namespace platform::test
