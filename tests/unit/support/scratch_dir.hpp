// scratch_dir.hpp — a fresh directory under the system's temporary directory, removed with
// everything in it when the object goes; for plugins that need files (SQLite providers), with the
// unusable files their on_create must refuse.
//
// Header-only; one object per test, not shared between threads.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace plugin_test {

class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "unit-test-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A path nothing can be created at: `name` below a regular file of `dir`.
inline std::filesystem::path below_a_file(const TempDir& dir, const std::string& name) {
    std::ofstream(dir.path() / "file") << "not a directory";
    return dir.path() / "file" / name;
}

// A file `name` of `dir` holding 8 KiB of 'x': no database of any kind.
inline std::filesystem::path junk_file(const TempDir& dir, const std::string& name) {
    const std::filesystem::path junk = dir.path() / name;
    std::ofstream(junk) << std::string(8192, 'x');
    return junk;
}

}  // namespace plugin_test
