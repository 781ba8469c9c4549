// common/zip — reading a ZIP archive held in memory: its central directory, and each member's
// bytes streamed out in chunks (stored or deflated, through zlib), checked against the size and
// CRC-32 the directory records. For published data that comes zipped (GTFS timetables); a library
// linked by the plugins that need it, not a plugin.
//
//   common::zip::Archive zip(body);                       // body: the whole .zip
//   if (const auto* e = zip.find("stops.txt"))
//       zip.read(*e, [&](std::string_view chunk) { csv.feed(chunk); });
//
// What it reads: the end-of-central-directory record (and its ZIP64 form, for archives or
// members past 4 GiB), then every central-directory entry. Members are found by name, or by the
// name after their last '/' (feeds zipped with their folder). Compression: 0 (stored) and 8
// (deflate); anything else, an encrypted member, a directory that points outside the archive,
// a member that inflates to more or fewer bytes than recorded, or a CRC mismatch throws
// zip::Error with a sentence saying which member and what. A member never inflates past its
// recorded size, so a forged size cannot make it allocate more than the sink keeps.
//
// Threads: an Archive is read-only after construction; read() may run on several threads at once.
// The archive's bytes belong to the caller and must outlive the Archive.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace common::zip {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One member, as the central directory records it.
struct Entry {
    std::string name;              // the path inside the archive, '/'-separated
    uint16_t method = 0;           // 0 stored, 8 deflate
    uint64_t compressed_size = 0;  // bytes in the archive
    uint64_t size = 0;             // bytes once inflated
    uint32_t crc32 = 0;
    uint64_t local_header = 0;  // offset of its local file header
    bool encrypted = false;
};

class Archive {
public:
    // Reads the directory of `bytes`. Throws Error when they are not a ZIP archive or the
    // directory is damaged.
    explicit Archive(std::string_view bytes);

    const std::vector<Entry>& entries() const { return entries_; }
    // The member called `name`, else the only member whose last path part is `name`; nullptr
    // when there is none (or several in different folders).
    const Entry* find(std::string_view name) const;
    // Streams the member's bytes to `sink` in chunks of at most 256 KiB, then checks its size
    // and CRC-32. Throws Error (what the sink throws passes through).
    void read(const Entry& entry, const std::function<void(std::string_view)>& sink) const;
    // The whole member, refused (Error) when it is larger than `max_bytes`.
    std::string read_all(const Entry& entry, uint64_t max_bytes) const;

private:
    std::string_view bytes_;
    std::vector<Entry> entries_;
};

}  // namespace common::zip
