#include "gtfs_csv.hpp"

#include <algorithm>

#include "common/upstream/upstream.hpp"

namespace transit {

std::string_view GtfsRow::get(std::string_view column) const {
    auto it = columns_->find(std::string(column));
    if (it == columns_->end() || it->second >= fields_->size()) return {};
    return (*fields_)[it->second];
}

GtfsTable::GtfsTable(std::string name, std::function<void(const GtfsRow&)> on_row)
    : name_(std::move(name)), on_row_(std::move(on_row)) {}

void GtfsTable::end_field() {
    if (used_ == fields_.size()) fields_.emplace_back();
    fields_[used_++].swap(field_);
    field_.clear();
}

void GtfsTable::end_record() {
    end_field();
    in_record_ = false;
    const size_t n = used_;
    used_ = 0;
    if (n == 1 && fields_[0].empty()) return;  // a blank line
    if (!header_done_) {
        for (size_t i = 0; i < n; ++i) {
            std::string h = fields_[i];
            while (!h.empty() && (h.back() == ' ' || h.back() == '\t')) h.pop_back();
            size_t k = h.find_first_not_of(" \t");
            columns_.emplace(k == std::string::npos ? std::string() : h.substr(k), i);
        }
        header_done_ = true;
        return;
    }
    for (size_t i = n; i < fields_.size(); ++i) fields_[i].clear();
    ++records_;
    GtfsRow row;
    row.columns_ = &columns_;
    row.fields_ = &fields_;
    on_row_(row);
}

void GtfsTable::feed(std::string_view chunk) {
    static constexpr std::string_view kBom = "\xEF\xBB\xBF";
    if (!bom_checked_) {  // the first three bytes may come in several chunks
        const size_t take = std::min(chunk.size(), kBom.size() - start_.size());
        start_.append(chunk.substr(0, take));
        chunk.remove_prefix(take);
        if (start_.size() < kBom.size()) return;
        bom_checked_ = true;
        if (start_ != kBom) scan(start_);
        start_.clear();
    }
    scan(chunk);
}

void GtfsTable::scan(std::string_view chunk) {
    for (char c : chunk) {
        if (quoted_) {
            if (c == '"')
                quoted_ = false, after_quote_ = true;
            else
                field_ += c;
            continue;
        }
        if (after_quote_ && c == '"') {  // "" inside a quoted field
            field_ += '"';
            quoted_ = true;
            after_quote_ = false;
            continue;
        }
        after_quote_ = false;
        switch (c) {
            case '"':  // opens a quoted field at its start; elsewhere it is text
                if (field_.empty())
                    quoted_ = true;
                else
                    field_ += c;
                in_record_ = true;
                break;
            case ',':
                end_field();
                in_record_ = true;
                break;
            case '\r':
                break;
            case '\n':
                end_record();
                break;
            default:
                field_ += c;
                in_record_ = true;
        }
    }
}

void GtfsTable::finish() {
    if (!bom_checked_) bom_checked_ = true, scan(std::string(start_));
    if (quoted_)
        throw common::upstream::Malformed(name_ + ": a quoted field is not closed at its end");
    if (in_record_ || !field_.empty() || used_ > 0) end_record();
}

}  // namespace transit
