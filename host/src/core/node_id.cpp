// This host's node id (node_id.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <platform/host/core/node_id.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/sdk/random.hpp>
#include <sstream>
#include <stdexcept>

namespace platform::host {

namespace fs = std::filesystem;

namespace {

// The id in `path`, trimmed; "" when the file does not exist. Throws when it holds no node id.
std::string read_id(const std::string& path) {
    std::ifstream in(path);
    if (!in) return "";
    std::stringstream text;
    text << in.rdbuf();
    std::string id = text.str();
    while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back()))) id.pop_back();
    if (auto problem = node_id_problem(id))
        throw std::runtime_error(path + ": holds '" + id.substr(0, 80) + "', which " + *problem +
                                 " (remove the file for a new id, or set PLATFORM_NODE_ID)");
    return id;
}

}  // namespace

std::string random_node_id() {
    return "node-" + platform::random_hex(8);
}

std::string stable_node_id(const std::string& configured, const std::string& home,
                           std::string* warning) {
    if (!configured.empty()) return configured;
    auto fallback = [&](const std::string& why) {
        if (warning) *warning = why;
        return random_node_id();
    };
    if (home.empty()) return random_node_id();  // a runtime without a home (unit tests)
    const std::string path = home + "/node-id";
    if (std::string id = read_id(path); !id.empty()) return id;
    std::error_code ec;
    fs::create_directories(home, ec);
    // Written whole to a file of its own, then linked into place: a host starting at the same
    // time on the same home either links first or reads the id the other one linked.
    const std::string id = random_node_id();
    const std::string tmp = path + "." + platform::random_hex(8) + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return fallback("cannot write " + tmp + ": " + std::strerror(errno) +
                        "; a node id for this process only");
    const std::string line = id + "\n";
    const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    const bool synced = written && ::fsync(fd) == 0;
    ::close(fd);
    if (!synced) {
        ::unlink(tmp.c_str());
        return fallback("cannot write " + tmp + "; a node id for this process only");
    }
    const int linked = ::link(tmp.c_str(), path.c_str());
    const int link_errno = errno;
    ::unlink(tmp.c_str());
    if (linked == 0) return id;
    if (link_errno == EEXIST)
        if (std::string other = read_id(path); !other.empty()) return other;
    return fallback("cannot create " + path + ": " + std::strerror(link_errno) +
                    "; a node id for this process only");
}

}  // namespace platform::host
