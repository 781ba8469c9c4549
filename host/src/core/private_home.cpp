#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <platform/host/core/private_home.hpp>

namespace platform::host {

namespace fs = std::filesystem;

namespace {

// Takes group and other permissions from `path` when this user owns it (symlinks left alone).
void tighten(const fs::path& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || S_ISLNK(st.st_mode) || st.st_uid != ::geteuid()) return;
    if ((st.st_mode & 077) != 0) ::chmod(path.c_str(), st.st_mode & 07700);
}

}  // namespace

std::string make_home_private(const std::string& home) {
    ::umask(077);
    std::error_code ec;
    fs::create_directories(fs::path(home) / "data", ec);
    if (ec) return "PLATFORM_HOME " + home + ": cannot create: " + ec.message();
    tighten(home);
    for (const auto& entry : fs::directory_iterator(home, ec)) {
        tighten(entry.path());
        if (!entry.is_directory(ec) || entry.is_symlink(ec)) continue;
        for (const auto& inner : fs::directory_iterator(entry.path(), ec)) tighten(inner.path());
    }
    return "";
}

}  // namespace platform::host
