// zip_writer.hpp — ZIP archives built in memory for tests of the code that reads them
// (common/zip, transit's GTFS reader): members stored or deflated (zlib, raw deflate), with the
// local headers and central directory a ZIP writer produces, and hooks to damage them.
//
//   ZipWriter z;
//   z.add("stops.txt", "stop_id,...\n");               // deflated
//   z.add("agency.txt", "...", ZipWriter::stored);
//   std::string bytes = z.finish();
#pragma once

#include <zlib.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace platform::test {

class ZipWriter {
public:
    enum Method : uint16_t { stored = 0, deflated = 8 };

    // Adds a member. `recorded_size`/`recorded_crc` (when not -1) replace the true values in the
    // headers, to make a damaged archive.
    void add(const std::string& name, const std::string& data, Method method = deflated,
             int64_t recorded_size = -1, int64_t recorded_crc = -1, uint16_t method_id = 0xFFFF) {
        std::string packed = method == stored ? data : deflate_raw(data);
        uint32_t crc = static_cast<uint32_t>(::crc32(
            0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
        Member m{name,
                 method_id == 0xFFFF ? static_cast<uint16_t>(method) : method_id,
                 recorded_crc >= 0 ? static_cast<uint32_t>(recorded_crc) : crc,
                 static_cast<uint32_t>(packed.size()),
                 static_cast<uint32_t>(recorded_size >= 0 ? recorded_size : int64_t(data.size())),
                 static_cast<uint32_t>(out_.size())};
        u32(out_, 0x04034b50), u16(out_, 20), u16(out_, 0), u16(out_, m.method), u32(out_, 0);
        u32(out_, m.crc), u32(out_, m.packed), u32(out_, m.size);
        u16(out_, static_cast<uint16_t>(name.size())), u16(out_, 0);
        out_ += name;
        out_ += packed;
        members_.push_back(m);
    }

    // The archive: members, central directory, end record.
    std::string finish() const {
        std::string out = out_, dir;
        for (const Member& m : members_) {
            u32(dir, 0x02014b50), u16(dir, 20), u16(dir, 20), u16(dir, 0), u16(dir, m.method);
            u32(dir, 0), u32(dir, m.crc), u32(dir, m.packed), u32(dir, m.size);
            u16(dir, static_cast<uint16_t>(m.name.size())), u16(dir, 0), u16(dir, 0);
            u16(dir, 0), u16(dir, 0), u32(dir, 0), u32(dir, m.offset);
            dir += m.name;
        }
        const uint32_t dir_at = static_cast<uint32_t>(out.size());
        out += dir;
        u32(out, 0x06054b50), u16(out, 0), u16(out, 0);
        u16(out, static_cast<uint16_t>(members_.size())),
            u16(out, static_cast<uint16_t>(members_.size()));
        u32(out, static_cast<uint32_t>(dir.size())), u32(out, dir_at), u16(out, 0);
        return out;
    }

    static std::string deflate_raw(const std::string& data) {
        z_stream z{};
        if (deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw std::runtime_error("deflateInit2");
        std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
        z.avail_in = static_cast<uInt>(data.size());
        z.next_out = reinterpret_cast<Bytef*>(out.data());
        z.avail_out = static_cast<uInt>(out.size());
        const int rc = ::deflate(&z, Z_FINISH);
        out.resize(out.size() - z.avail_out);
        deflateEnd(&z);
        if (rc != Z_STREAM_END) throw std::runtime_error("deflate");
        return out;
    }

private:
    struct Member {
        std::string name;
        uint16_t method;
        uint32_t crc, packed, size, offset;
    };
    static void u16(std::string& s, uint16_t v) { s += char(v & 0xFF), s += char(v >> 8); }
    static void u32(std::string& s, uint32_t v) {
        for (int i = 0; i < 4; ++i) s += char((v >> (8 * i)) & 0xFF);
    }

    std::string out_;
    std::vector<Member> members_;
};

}  // namespace platform::test
