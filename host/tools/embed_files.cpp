// embed_files — turns the web console's folder into C++ the host is linked with (a build tool,
// run by CMake and meson; console_files.hpp declares what it writes).
//
//   embed_files <out.cpp> <out.d> <folder>
//
// Every file of <folder> (not its subfolders) named [a-z0-9-]+ "." (html|js|css|svg) becomes one
// entry of platform::host::console_files, sorted by name, its bytes as a string literal. <out.d>
// is a Makefile-style depfile naming the folder and each file, so that the build runs this again
// when a file changes or one is added. Exit 1 with a message when the folder cannot be read or
// holds nothing to embed.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

bool embeddable(const std::string& name) {
    const auto dot = name.rfind('.');
    if (dot == std::string::npos || dot == 0) return false;
    for (size_t i = 0; i < dot; ++i) {
        const char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    }
    const std::string ext = name.substr(dot + 1);
    return ext == "html" || ext == "js" || ext == "css" || ext == "svg";
}

// The bytes as adjacent string literals of at most 96 source characters each; anything but
// printable ASCII (and the quote, backslash and '?', which could start a trigraph) as 3-digit
// octal, which never runs into the next character.
void write_literal(std::ostream& out, const std::string& bytes) {
    std::string line;
    for (unsigned char c : bytes) {
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
            line += static_cast<char>(c);
        } else {
            char buf[5];
            std::snprintf(buf, sizeof buf, "\\%03o", c);
            line += buf;
        }
        if (line.size() >= 96) {
            out << "    \"" << line << "\"\n";
            line.clear();
        }
    }
    out << "    \"" << line << "\"";
}

// A depfile path: spaces and '#' escaped as make reads them.
std::string make_escaped(const std::string& path) {
    std::string out;
    for (char c : path) {
        if (c == ' ' || c == '#') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: embed_files <out.cpp> <out.d> <folder>\n";
        return 2;
    }
    const fs::path out_path = argv[1], dep_path = argv[2], folder = argv[3];
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.is_regular_file() && embeddable(entry.path().filename().string()))
            files.push_back(entry.path());
    if (ec || files.empty()) {
        std::cerr << "embed_files: " << folder.string() << ": "
                  << (ec ? ec.message() : "no .html, .js, .css or .svg file") << "\n";
        return 1;
    }
    std::sort(files.begin(), files.end());

    std::ostringstream cpp;
    cpp << "// Written by host/tools/embed_files.cpp from " << folder.filename().string()
        << "/: do not edit.\n#include \"console_files.hpp\"\n\n"
        << "namespace platform::host {\n\n"
        << "const std::vector<EmbeddedFile>& console_files() {\n"
        << "    static const std::vector<EmbeddedFile> files = {\n";
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::cerr << "embed_files: cannot read " << f.string() << "\n";
            return 1;
        }
        cpp << "        {\"" << f.filename().string() << "\",\n        std::string_view(\n";
        write_literal(cpp, bytes);
        cpp << ",\n        " << bytes.size() << ")},\n";
    }
    cpp << "    };\n    return files;\n}\n\n}  // namespace platform::host\n";

    std::ofstream out(out_path, std::ios::binary);
    out << cpp.str();
    std::ofstream dep(dep_path);
    dep << make_escaped(out_path.string()) << ":";
    dep << " \\\n  " << make_escaped(fs::absolute(folder).string());
    for (const auto& f : files) dep << " \\\n  " << make_escaped(fs::absolute(f).string());
    dep << "\n";
    if (!out || !dep) {
        std::cerr << "embed_files: cannot write " << out_path.string() << "\n";
        return 1;
    }
    return 0;
}
