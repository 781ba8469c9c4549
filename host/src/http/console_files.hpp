// The web console's files as built into the host (console/ at the top of the tree, written into
// console_files.cpp by host/tools/embed_files.cpp at build time). console_route.cpp serves them.
#pragma once

#include <string_view>
#include <vector>

namespace platform::host {

struct EmbeddedFile {
    std::string_view name;   // "app.js": a file name of console/, no folder
    std::string_view bytes;  // the whole file, static storage
};

// Every embedded file, sorted by name; the same object for the process's life.
const std::vector<EmbeddedFile>& console_files();

}  // namespace platform::host
