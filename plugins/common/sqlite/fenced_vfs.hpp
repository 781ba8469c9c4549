// common/sqlite/fenced_vfs — the unix VFS with a shared-memory barrier that locks nothing.
//
// In WAL mode SQLite calls the VFS's xShmBarrier several times per transaction (about four per
// read of the store), and the unix VFS's barrier is a memory barrier followed by taking and
// releasing the VFS's one global mutex "for redundancy": a lock every connection of the process
// takes, to every database file. The VFS named kFencedVfs is the default unix VFS with that one
// method replaced by a sequentially consistent fence (the barrier SQLite's own comment asks for:
// memory reads and writes before it complete before those after it). Everything else — locking,
// the shared-memory map, files, sync — is the unix VFS's own, called as it is.
//
// fenced_vfs() registers it once per plugin (not as the default) and answers its name, or nullptr
// (open with the default VFS) when the default VFS is not unix-like (no xShmBarrier) or SQLite
// could not register it. Thread-safe. Plugins are never unloaded, so the registered struct lives
// as long as the process.
#pragma once

namespace common::sqlite {

inline constexpr const char* kFencedVfs = "platform-unix-fenced";

const char* fenced_vfs();

}  // namespace common::sqlite
