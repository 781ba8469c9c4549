// gtfs_csv — the comma-separated tables of a GTFS feed (stops.txt, stop_times.txt, ...), read as
// they stream out of the ZIP: RFC 4180 quoting ("a ""b"", c" is one field), CRLF or LF line
// ends, a UTF-8 byte-order mark before the header, spaces around header names, and records
// shorter than the header (the missing fields read as empty), all of which published feeds do.
//
//   GtfsTable stops([&](const GtfsRow& row) { add(row.get("stop_id"), row.get("stop_name")); });
//   zip.read(*entry, [&](std::string_view chunk) { stops.feed(chunk); });
//   stops.finish();
//
// The first record names the columns; each later one is handed to the callback as a GtfsRow,
// valid only during the call. Blank lines are skipped. A quoted field left open at the end of
// the table throws common::upstream::Malformed naming the table.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace transit {

// One record, its fields read by column name.
class GtfsRow {
public:
    // The field under `column`, or "" when the table has no such column or this record stops
    // before it.
    std::string_view get(std::string_view column) const;
    bool has(std::string_view column) const { return columns_->count(std::string(column)) != 0; }

private:
    friend class GtfsTable;
    const std::unordered_map<std::string, size_t>* columns_ = nullptr;
    const std::vector<std::string>* fields_ = nullptr;
};

class GtfsTable {
public:
    GtfsTable(std::string name, std::function<void(const GtfsRow&)> on_row);
    // The next bytes of the table, cut anywhere (inside a field or a CRLF too).
    void feed(std::string_view chunk);
    // The end of the table: the last record, if it had no line end, is handed over.
    void finish();
    // Whether the header named `column` (valid once the header was read).
    bool has_column(std::string_view column) const { return columns_.count(std::string(column)); }
    size_t records() const { return records_; }

private:
    void scan(std::string_view chunk);
    void end_field();
    void end_record();

    std::string name_;
    std::function<void(const GtfsRow&)> on_row_;
    std::unordered_map<std::string, size_t> columns_;
    std::vector<std::string> fields_;
    size_t used_ = 0;  // fields_ filled in the current record
    std::string field_;
    bool quoted_ = false, after_quote_ = false, in_record_ = false, header_done_ = false;
    bool bom_checked_ = false;
    std::string start_;  // the table's first bytes until there are three (a byte-order mark?)
    size_t records_ = 0;
};

}  // namespace transit
