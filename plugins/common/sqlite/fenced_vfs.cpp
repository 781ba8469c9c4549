#include "common/sqlite/fenced_vfs.hpp"

#include <sqlite3.h>

#include <array>
#include <atomic>
#include <mutex>
#include <utility>

namespace common::sqlite {

namespace {

sqlite3_vfs* unix_vfs = nullptr;  // the default VFS the fenced one wraps
sqlite3_vfs fenced;

void fence(sqlite3_file*) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The unix VFS has a few method tables (by locking style); each gets one copy with the fence.
std::mutex copies_m;
std::array<std::pair<const sqlite3_io_methods*, sqlite3_io_methods>, 8> copies;
size_t copies_used = 0;

const sqlite3_io_methods* fenced_methods(const sqlite3_io_methods* original) {
    std::lock_guard<std::mutex> g(copies_m);
    for (size_t i = 0; i < copies_used; ++i)
        if (copies[i].first == original) return &copies[i].second;
    if (copies_used == copies.size()) return original;
    copies[copies_used] = {original, *original};
    copies[copies_used].second.xShmBarrier = fence;
    return &copies[copies_used++].second;
}

int open_fenced(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
    const int rc = unix_vfs->xOpen(unix_vfs, name, file, flags, out_flags);
    if (rc == SQLITE_OK && file->pMethods && file->pMethods->iVersion >= 2 &&
        file->pMethods->xShmBarrier)
        file->pMethods = fenced_methods(file->pMethods);
    return rc;
}

const char* register_fenced() {
    unix_vfs = sqlite3_vfs_find(nullptr);
    if (!unix_vfs || unix_vfs->iVersion < 1) return nullptr;
    if (sqlite3_vfs_find(kFencedVfs)) return kFencedVfs;  // another plugin's, the same
    fenced = *unix_vfs;
    fenced.zName = kFencedVfs;
    fenced.pNext = nullptr;
    fenced.xOpen = open_fenced;
    return sqlite3_vfs_register(&fenced, 0) == SQLITE_OK ? kFencedVfs : nullptr;
}

}  // namespace

const char* fenced_vfs() {
    static const char* const name = register_fenced();
    return name;
}

}  // namespace common::sqlite
