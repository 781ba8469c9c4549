#include "zip_archive.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace common::zip {

namespace {

constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kEndOfDirectory64 = 0x06064b50;
constexpr uint32_t kEndOfDirectory64Locator = 0x07064b50;
constexpr uint32_t kDirectoryEntry = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr size_t kChunk = 256 * 1024;

// Little-endian reads, each checked against the end of the bytes.
class Reader {
public:
    Reader(std::string_view bytes, uint64_t at, const char* what)
        : b_(bytes), at_(at), what_(what) {}
    uint64_t at() const { return at_; }
    void skip(uint64_t n) { need(n), at_ += n; }
    uint16_t u16() { return static_cast<uint16_t>(le(2)); }
    uint32_t u32() { return static_cast<uint32_t>(le(4)); }
    uint64_t u64() { return le(8); }
    std::string_view take(uint64_t n) {
        need(n);
        std::string_view v = b_.substr(at_, n);
        at_ += n;
        return v;
    }

private:
    void need(uint64_t n) const {
        if (at_ > b_.size() || n > b_.size() - at_)
            throw Error(std::string("not a readable ZIP archive: ") + what_ + " runs past its end");
    }
    uint64_t le(int n) {
        need(static_cast<uint64_t>(n));
        uint64_t v = 0;
        for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b_[at_ + i]);
        at_ += static_cast<uint64_t>(n);
        return v;
    }
    std::string_view b_;
    uint64_t at_;
    const char* what_;
};

// The end-of-central-directory record: the last signature within the final 64 KiB + 22 bytes.
uint64_t find_end(std::string_view b) {
    if (b.size() < 22) throw Error("not a ZIP archive: too short");
    const uint64_t lowest = b.size() > 65557 ? b.size() - 65557 : 0;
    for (uint64_t at = b.size() - 22;; --at) {
        if (Reader(b, at, "end record").u32() == kEndOfDirectory) return at;
        if (at == lowest) break;
    }
    throw Error("not a ZIP archive: no end-of-central-directory record");
}

// A ZIP64 extended-information extra field fills the 32-bit values that read 0xFFFFFFFF.
void read_zip64_extra(std::string_view extra, Entry& e, bool offset_too) {
    Reader r(extra, 0, "an extra field");
    while (r.at() + 4 <= extra.size()) {
        const uint16_t id = r.u16(), len = r.u16();
        Reader field(r.take(len), 0, "the ZIP64 field");
        if (id != 0x0001) continue;
        if (e.size == 0xFFFFFFFFu) e.size = field.u64();
        if (e.compressed_size == 0xFFFFFFFFu) e.compressed_size = field.u64();
        if (offset_too) e.local_header = field.u64();
        return;
    }
}

std::string base_name(std::string_view name) {
    size_t slash = name.rfind('/');
    return std::string(slash == std::string_view::npos ? name : name.substr(slash + 1));
}

}  // namespace

Archive::Archive(std::string_view bytes) : bytes_(bytes) {
    const uint64_t end = find_end(bytes);
    Reader r(bytes, end + 4, "the end record");
    r.skip(6);  // disk numbers, entries on this disk
    uint64_t count = r.u16();
    uint64_t dir_size = r.u32();
    uint64_t dir_at = r.u32();
    if ((count == 0xFFFF || dir_size == 0xFFFFFFFFu || dir_at == 0xFFFFFFFFu) && end >= 20) {
        Reader loc(bytes, end - 20, "the ZIP64 locator");
        if (loc.u32() == kEndOfDirectory64Locator) {
            loc.skip(4);
            Reader r64(bytes, loc.u64(), "the ZIP64 end record");
            if (r64.u32() != kEndOfDirectory64)
                throw Error("not a readable ZIP archive: the ZIP64 end record is missing");
            r64.skip(8 + 2 + 2 + 4 + 4 + 8);  // size, versions, disks, entries on this disk
            count = r64.u64();
            dir_size = r64.u64();
            dir_at = r64.u64();
        }
    }
    if (dir_at > bytes.size() || dir_size > bytes.size() - dir_at)
        throw Error("not a readable ZIP archive: the central directory lies outside it");
    Reader d(bytes.substr(0, dir_at + dir_size), dir_at, "the central directory");
    entries_.reserve(std::min<uint64_t>(count, dir_size / 46));
    for (uint64_t i = 0; i < count; ++i) {
        if (d.u32() != kDirectoryEntry)
            throw Error("not a readable ZIP archive: central directory entry " +
                        std::to_string(i + 1) + " is damaged");
        Entry e;
        d.skip(4);  // versions
        const uint16_t flags = d.u16();
        e.method = d.u16();
        d.skip(4);  // time, date
        e.crc32 = d.u32();
        e.compressed_size = d.u32();
        e.size = d.u32();
        const uint16_t name_len = d.u16(), extra_len = d.u16(), comment_len = d.u16();
        d.skip(8);  // disk, internal and external attributes
        e.local_header = d.u32();
        e.name = std::string(d.take(name_len));
        read_zip64_extra(d.take(extra_len), e, e.local_header == 0xFFFFFFFFu);
        d.skip(comment_len);
        e.encrypted = (flags & 1) != 0;
        entries_.push_back(std::move(e));
    }
}

const Entry* Archive::find(std::string_view name) const {
    const Entry* by_base = nullptr;
    int matches = 0;
    for (const Entry& e : entries_) {
        if (e.name == name) return &e;
        if (base_name(e.name) == name) by_base = &e, ++matches;
    }
    return matches == 1 ? by_base : nullptr;
}

void Archive::read(const Entry& e, const std::function<void(std::string_view)>& sink) const {
    const std::string who = "ZIP member " + e.name + ": ";
    if (e.encrypted) throw Error(who + "is encrypted");
    if (e.method != 0 && e.method != 8)
        throw Error(who + "compression method " + std::to_string(e.method) +
                    " is not supported (only stored and deflate)");
    Reader local(bytes_, e.local_header, "a local header");
    if (local.u32() != kLocalHeader) throw Error(who + "its local header is damaged");
    local.skip(22);
    const uint16_t name_len = local.u16(), extra_len = local.u16();
    local.skip(uint64_t(name_len) + extra_len);
    const std::string_view data = local.take(e.compressed_size);

    uLong crc = crc32(0L, Z_NULL, 0);
    uint64_t out = 0;
    auto emit = [&](const char* p, size_t n) {
        if (n > e.size - out) throw Error(who + "holds more than its recorded size");
        crc = crc32(crc, reinterpret_cast<const Bytef*>(p), static_cast<uInt>(n));
        out += n;
        sink(std::string_view(p, n));
    };
    if (e.method == 0) {
        for (size_t at = 0; at < data.size(); at += kChunk)
            emit(data.data() + at, std::min(kChunk, data.size() - at));
    } else {
        z_stream z{};
        if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw Error(who + "zlib could not start");
        std::string buf(kChunk, '\0');
        size_t fed = 0;
        int rc = Z_OK;
        try {
            while (rc != Z_STREAM_END) {
                if (z.avail_in == 0 && fed < data.size()) {
                    const size_t n = std::min<size_t>(data.size() - fed, 1u << 30);
                    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + fed));
                    z.avail_in = static_cast<uInt>(n);
                    fed += n;
                }
                z.next_out = reinterpret_cast<Bytef*>(buf.data());
                z.avail_out = static_cast<uInt>(buf.size());
                rc = inflate(&z, Z_NO_FLUSH);
                if (rc != Z_OK && rc != Z_STREAM_END)
                    throw Error(who + "its deflate data is damaged" +
                                (z.msg ? std::string(" (") + z.msg + ")" : ""));
                const size_t got = buf.size() - z.avail_out;
                if (got) emit(buf.data(), got);
                if (rc == Z_OK && got == 0 && z.avail_in == 0 && fed == data.size())
                    throw Error(who + "its deflate data ends early");
            }
        } catch (...) {
            inflateEnd(&z);
            throw;
        }
        inflateEnd(&z);
    }
    if (out != e.size)
        throw Error(who + "holds " + std::to_string(out) + " bytes, not the recorded " +
                    std::to_string(e.size));
    if (static_cast<uint32_t>(crc) != e.crc32) throw Error(who + "fails its CRC-32 check");
}

std::string Archive::read_all(const Entry& e, uint64_t max_bytes) const {
    if (e.size > max_bytes)
        throw Error("ZIP member " + e.name + ": " + std::to_string(e.size) +
                    " bytes is more than the " + std::to_string(max_bytes) + " allowed");
    std::string out;
    out.reserve(e.size);
    read(e, [&](std::string_view chunk) { out.append(chunk); });
    return out;
}

}  // namespace common::zip
