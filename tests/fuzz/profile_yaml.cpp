// Fuzz target profile_yaml: the YAML profile loader (profile.hpp load_profile), from a file as
// `platform server --profile <path>` reads it.
//
// The input is the profile's text; it is written to a scratch file (one per process, removed at
// exit) and loaded by path. `${VAR}` references expand from the environment as usual.
//
// Expected: ProfileError, whose message starts with the file's path (every error names the
// file, the line and the key). Findings: any other exception (a yaml-cpp conversion error
// escaping without the file and key, a std::regex error...), a crash, a sanitizer report.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <platform/host/core/profile.hpp>

#include "fuzz_support.hpp"

namespace {

struct ScratchFile {
    std::string path;
    ScratchFile() {
        std::string tmpl = fuzz::temp_dir() + "/platform-fuzz-profile-XXXXXX.yaml";
        const int fd = mkstemps(tmpl.data(), 5);
        FUZZ_CHECK(fd >= 0, "mkstemps failed in " + fuzz::temp_dir());
        close(fd);
        path = tmpl;
    }
    ~ScratchFile() { std::remove(path.c_str()); }
};

const std::string& scratch() {
    static ScratchFile file;  // destroyed at exit: the file does not outlive the fuzzer
    return file.path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    {
        std::ofstream out(scratch(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        platform::host::Profile p = platform::host::load_profile(scratch(), {});
        FUZZ_CHECK(
            p.providers.count("store") && p.providers.count("broker") && p.providers.count("auth"),
            "a profile without the store, broker and auth providers loaded");
    } catch (const platform::host::ProfileError& e) {
        const std::string message = e.what();
        FUZZ_CHECK(message.rfind(scratch(), 0) == 0, "error does not name the file: " + message);
    }
    return 0;
}
