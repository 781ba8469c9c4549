// The entry-symbol check of a built plugin (runtime_build.hpp, docs/decisions.md 84): the
// library's dynamic symbol table (.dynsym, the symbols dlsym can find) read from the file itself,
// before anything loads it.
#include <elf.h>
#include <platform/abi.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "runtime_build.hpp"

namespace platform::host::runtime {

namespace {
template <typename T>
bool read_at(std::ifstream& in, uint64_t offset, T& out) {
    in.seekg(static_cast<std::streamoff>(offset));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(&out), sizeof out));
}
}  // namespace

std::string read_exports(const std::string& path, std::vector<std::string>& exports) {
    exports.clear();
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open it";
    in.seekg(0, std::ios::end);
    const auto size = static_cast<uint64_t>(in.tellg());
    Elf64_Ehdr eh{};
    if (!read_at(in, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
        return "not an ELF file";
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type != ET_DYN)
        return "not a 64-bit ELF shared library";
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
        eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr) > size)
        return "no section headers to find its dynamic symbol table in";
    for (uint16_t i = 0; i < eh.e_shnum; ++i) {
        Elf64_Shdr sh{};
        if (!read_at(in, eh.e_shoff + uint64_t(i) * sizeof sh, sh)) return "truncated ELF file";
        if (sh.sh_type != SHT_DYNSYM) continue;
        Elf64_Shdr strtab{};
        if (sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh.e_shnum ||
            !read_at(in, eh.e_shoff + uint64_t(sh.sh_link) * sizeof strtab, strtab) ||
            sh.sh_offset + sh.sh_size > size || strtab.sh_offset + strtab.sh_size > size)
            return "a malformed dynamic symbol table";
        std::string names(strtab.sh_size, '\0');
        in.seekg(static_cast<std::streamoff>(strtab.sh_offset));
        if (!in.read(names.data(), static_cast<std::streamsize>(names.size())))
            return "truncated ELF file";
        for (uint64_t k = 1; k < sh.sh_size / sizeof(Elf64_Sym); ++k) {  // 0 is the null symbol
            Elf64_Sym sym{};
            if (!read_at(in, sh.sh_offset + k * sizeof sym, sym)) return "truncated ELF file";
            const unsigned bind = ELF64_ST_BIND(sym.st_info);
            const unsigned vis = ELF64_ST_VISIBILITY(sym.st_other);
            if (sym.st_shndx == SHN_UNDEF || bind == STB_LOCAL || vis == STV_HIDDEN ||
                vis == STV_INTERNAL || sym.st_name >= names.size())
                continue;
            exports.emplace_back(names.c_str() + sym.st_name);
        }
        return "";
    }
    return "";  // no .dynsym: it exports nothing
}

std::string check_entry_symbol(const std::string& path, const LogFn& log) {
    std::vector<std::string> exports;
    const std::string file = path.substr(path.rfind('/') + 1);
    if (std::string why = read_exports(path, exports); !why.empty())
        return "plugin: cannot read the symbols " + file + " exports: " + why;
    // Entry-like: the entry's name, or a name that starts with it (platform_plugin_entry_v2, a
    // second version of the same name). Exactly one, and the entry itself.
    const std::string entry = PLATFORM_ENTRY_SYMBOL;
    std::vector<std::string> entries;
    for (const auto& e : exports)
        if (e.compare(0, entry.size(), entry) == 0) entries.push_back(e);
    if (entries.size() == 1 && entries[0] == entry) {
        log("runtime: " + file + " exports " + entry +
            (exports.size() > 1 ? " and " + std::to_string(exports.size() - 1) +
                                      " other symbols (not entry-like; allowed)"
                                : " only"));
        return "";
    }
    std::sort(entries.begin(), entries.end());
    std::string list;
    for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
    if (std::find(entries.begin(), entries.end(), entry) == entries.end())
        return "plugin: " + file + " exports no " + entry +
               (list.empty() ? std::string() : " (only " + list + ")") +
               "; a plugin exports exactly one entry symbol, " + entry +
               ", with default visibility and C linkage";
    return "plugin: " + file + " exports " + std::to_string(entries.size()) +
           " entry-like symbols (" + list + "); a plugin exports exactly one entry symbol, " +
           entry;
}

}  // namespace platform::host::runtime
