// The fuzz targets' driver in the normal build (no libFuzzer): runs LLVMFuzzerTestOneInput once
// over every file given on the command line, or found directly inside a directory given, in
// sorted order, and prints how many ran. A finding aborts the process (the target's FUZZ_CHECK,
// std::terminate on an unexpected exception), so the last "running" line names the input.
//
//   fuzz-replay-<target> tests/fuzz/corpus/<target> tests/fuzz/regressions/<target>
//
// Exit status 0 when every input ran; 2 for a path that does not exist.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<fs::path> here;
            for (const auto& e : fs::directory_iterator(arg))
                if (e.is_regular_file() && e.path().filename().string()[0] != '.')
                    here.push_back(e.path());
            std::sort(here.begin(), here.end());
            inputs.insert(inputs.end(), here.begin(), here.end());
        } else if (fs::is_regular_file(arg, ec)) {
            inputs.push_back(arg);
        } else {
            std::fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            return 2;
        }
    }
    for (const auto& path : inputs) {
        std::fprintf(stderr, "running %s\n", path.c_str());
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replay: %zu inputs ran, none failed\n", inputs.size());
    return 0;
}
