#include "local_files.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace platform::test {

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const std::string& path, const std::string& text) {
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    std::ofstream(path, std::ios::binary) << text;
}

void replace_in(const std::string& path, const std::string& from, const std::string& to) {
    std::string text = read_text(path);
    const auto at = text.find(from);
    if (at == std::string::npos) {
        ADD_FAILURE() << from << " not in " << path;
        return;
    }
    write_text(path, text.replace(at, from.size(), to));
}

std::string find_on_path(const std::string& name) {
    std::stringstream path(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    for (std::string dir; std::getline(path, dir, ':');)
        if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0)
            return dir + "/" + name;
    return "";
}

int held_connections(int port, bool established_only) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%04X", port);
    int n = 0;
    for (const char* file : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(file);
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line)) {
            std::istringstream f(line);
            std::string sl, local, remote, state, queues, timer, retr, uid, timeout, inode;
            f >> sl >> local >> remote >> state >> queues >> timer >> retr >> uid >> timeout >>
                inode;
            const bool counted = established_only ? state == "01" : state != "0A";
            if (local.substr(local.find(':') + 1) == hex && counted && inode != "0") ++n;
        }
    }
    return n;
}

}  // namespace platform::test
