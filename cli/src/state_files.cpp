#include "state_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace platform::cli {

using nlohmann::json;
namespace fs = std::filesystem;

std::string platform_home() {
    if (const char* v = std::getenv("PLATFORM_HOME"); v && *v) return v;
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.platform";
}

std::string config_path() {
    return (fs::path(platform_home()) / "config.json").string();
}
std::string tokens_path() {
    return (fs::path(platform_home()) / "tokens.json").string();
}

json read_state(const std::string& path) {
    std::ifstream in(path);
    if (!in) return json::object();
    std::stringstream ss;
    ss << in.rdbuf();
    json all = json::parse(ss.str(), nullptr, false);
    return all.is_object() ? all : json::object();
}

void write_state(const std::string& file, const json& value) {
    const fs::path path = file;
    auto fail = [&](int err) {
        return std::runtime_error("cannot write " + file + ": " + std::strerror(err));
    };
    std::error_code ec;
    if (!fs::exists(path.parent_path(), ec)) {
        fs::create_directories(path.parent_path(), ec);
        if (ec)
            throw std::runtime_error("cannot create " + path.parent_path().string() + ": " +
                                     ec.message());
        ::chmod(path.parent_path().c_str(), 0700);
    }
    std::string tmpl = file + ".XXXXXX";
    int fd = ::mkstemp(tmpl.data());  // mode 0600
    if (fd < 0) throw fail(errno);
    ::fchmod(fd, 0600);
    const std::string text = value.dump(2) + "\n";
    for (size_t off = 0; off < text.size();) {
        ssize_t n = ::write(fd, text.data() + off, text.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int err = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            throw fail(err);
        }
        off += static_cast<size_t>(n);
    }
    ::fsync(fd);
    ::close(fd);
    if (::rename(tmpl.c_str(), file.c_str()) != 0) {
        int err = errno;
        ::unlink(tmpl.c_str());
        throw fail(err);
    }
}

}  // namespace platform::cli
