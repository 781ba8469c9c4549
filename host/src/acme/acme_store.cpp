// host/src/acme/acme_store.cpp — the ACME client's files under <PLATFORM_HOME>/acme.
#include "acme_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <platform/sdk/random.hpp>
#include <sstream>
#include <stdexcept>

#include "certs.hpp"

namespace platform::host::acme {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void sys_fail(const std::string& what, const std::string& path) {
    throw std::runtime_error("ACME state: " + what + " " + path + ": " + std::strerror(errno));
}

std::string temp_name(const std::string& path) {
    return path + ".tmp-" + std::to_string(::getpid()) + "-" + platform::random_hex(8);
}

// Writes `data` to a new temporary file next to `path` with `mode`, fsynced; returns its name.
std::string write_temp(const std::string& path, const std::string& data, unsigned mode) {
    std::string tmp = temp_name(path);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) sys_fail("cannot create", tmp);
    bool ok = ::fchmod(fd, mode) == 0;
    for (size_t off = 0; ok && off < data.size();) {
        ssize_t n = ::write(fd, data.data() + off, data.size() - off);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) off += size_t(n);
    }
    ok = ok && ::fsync(fd) == 0;
    int saved = errno;
    ::close(fd);
    if (!ok) {
        ::unlink(tmp.c_str());
        errno = saved;
        sys_fail("cannot write", tmp);
    }
    return tmp;
}

std::string hex(const std::string& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

}  // namespace

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream o;
    o << in.rdbuf();
    return o.str();
}

void write_file_atomic(const std::string& path, const std::string& data, unsigned mode) {
    std::string tmp = write_temp(path, data, mode);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int saved = errno;
        ::unlink(tmp.c_str());
        errno = saved;
        sys_fail("cannot replace", path);
    }
}

void AcmeStore::ensure_dir() const {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) throw std::runtime_error("ACME state: cannot create " + dir_ + ": " + ec.message());
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace, ec);  // keys inside
}

std::string AcmeStore::slot(const std::vector<std::string>& names) const {
    std::string joined;
    for (const auto& n : sorted_names(names)) joined += (joined.empty() ? "" : ",") + n;
    return dir_ + "/cert-" + hex(sha256(joined)).substr(0, 16);
}

EcKey AcmeStore::account_key() {
    std::string path = dir_ + "/account.key";
    if (auto pem = read_file(path)) {
        try {
            return EcKey::from_pem(*pem);
        } catch (const std::exception& e) {
            throw std::runtime_error("ACME state: " + path + ": " + e.what() +
                                     " (move it away to start a new account)");
        }
    }
    ensure_dir();
    EcKey key = EcKey::generate();
    std::string tmp = write_temp(path, key.private_pem(), 0600);
    // link() fails with EEXIST when another process got there first: use theirs.
    int rc = ::link(tmp.c_str(), path.c_str());
    int saved = errno;
    ::unlink(tmp.c_str());
    if (rc == 0) return key;
    if (saved != EEXIST) {
        errno = saved;
        sys_fail("cannot create", path);
    }
    auto pem = read_file(path);
    if (!pem) sys_fail("cannot read", path);
    return EcKey::from_pem(*pem);
}

std::optional<Certificate> AcmeStore::load(const std::vector<std::string>& names,
                                           const std::string& directory_url,
                                           std::string* why_not) const {
    std::string base = slot(names);
    auto set = [&](const std::string& why) {
        if (why_not) *why_not = base + ": " + why;
        return std::nullopt;
    };
    auto meta_text = read_file(base + ".json");
    auto cert_pem = read_file(base + ".pem");
    auto key_pem = read_file(base + ".key");
    if (!meta_text && !cert_pem && !key_pem) return std::nullopt;  // nothing stored: no reason
    if (!meta_text || !cert_pem || !key_pem)
        return set("incomplete (.json, .pem and .key expected)");
    auto meta = nlohmann::json::parse(*meta_text, nullptr, false);
    if (!meta.is_object()) return set("unreadable .json");
    if (meta.value("directory_url", "") != directory_url)
        return set("issued by " + meta.value("directory_url", "?") + ", not " + directory_url);
    try {
        LeafInfo info = inspect_chain(*cert_pem);
        if (info.dns_names != sorted_names(names))
            return set("its names differ from the requested ones");
        if (!key_matches_leaf(*cert_pem, EcKey::from_pem(*key_pem)))
            return set("the key does not match");
        return Certificate{*cert_pem, *key_pem, info.not_after_unix};
    } catch (const std::exception& e) {
        return set(e.what());
    }
}

void AcmeStore::save(const std::vector<std::string>& names, const std::string& directory_url,
                     const Certificate& cert) {
    ensure_dir();
    std::string base = slot(names);
    nlohmann::json meta = {{"names", sorted_names(names)},
                           {"directory_url", directory_url},
                           {"not_after_unix", cert.not_after_unix}};
    // The key first: a crash in between leaves a .pem whose key does not match, refused by load().
    write_file_atomic(base + ".key", cert.key_pem, 0600);
    write_file_atomic(base + ".pem", cert.cert_pem, 0644);
    write_file_atomic(base + ".json", meta.dump(2) + "\n", 0644);
}

}  // namespace platform::host::acme
