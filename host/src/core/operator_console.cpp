#include <fcntl.h>
#include <openssl/crypto.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <platform/host/core/operator_console.hpp>
#include <platform/sdk/random.hpp>

namespace platform::host {

std::string operator_box(std::string_view from, std::string_view text) {
    std::vector<std::string> lines;
    std::string first(from);
    first += ": ";
    for (size_t i = 0; i <= text.size();) {
        size_t end = std::min(text.find('\n', i), text.size());
        lines.push_back((lines.empty() ? first : std::string()) +
                        std::string(text.substr(i, end - i)));
        i = end + 1;
    }
    size_t width = 0;
    for (const auto& l : lines) width = std::max(width, l.size());
    const std::string rule = "+" + std::string(width + 2, '-') + "+\n";
    std::string out = "\n" + rule;
    for (const auto& l : lines) out += "| " + l + std::string(width - l.size(), ' ') + " |\n";
    return out + rule + "\n";
}

void OperatorConsole::notice(std::string_view from, std::string_view text) {
    std::lock_guard<std::mutex> g(m_);
    if (open_)
        print(std::string(from), std::string(text));
    else
        held_.emplace_back(from, text);
}

void OperatorConsole::open() {
    std::lock_guard<std::mutex> g(m_);
    open_ = true;
    for (const auto& [from, text] : held_) print(from, text);
    held_.clear();
    held_.shrink_to_fit();
}

void OperatorConsole::print(const std::string& from, const std::string& text) {
    const std::string box = operator_box(from, text);
    std::fwrite(box.data(), 1, box.size(), out_);
    std::fflush(out_);
}

std::string OperatorConsole::write_credential(const std::string& home, const std::string& api,
                                              const std::string& proxy) {
    const std::string token = platform::random_base64url(32);
    const std::string dir = home + "/keys";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    ::chmod(dir.c_str(), 0700);
    const std::string path = dir + "/operator.json", tmp = path + ".tmp";
    const std::string text =
        nlohmann::json{{"token", token}, {"api", api}, {"proxy", proxy}, {"pid", ::getpid()}}
            .dump() +
        "\n";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return tmp + ": cannot create";
    const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(fd);
    if (!written || ::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        return path + ": cannot write";
    }
    std::lock_guard<std::mutex> g(m_);
    tokens_.push_back(std::make_unique<const std::string>(token));
    token_.store(tokens_.back().get(), std::memory_order_release);
    path_ = path;
    return "";
}

void OperatorConsole::remove_credential() {
    std::lock_guard<std::mutex> g(m_);
    const std::string* token = token_.exchange(nullptr, std::memory_order_acq_rel);
    if (path_.empty() || !token) return;
    std::FILE* f = std::fopen(path_.c_str(), "r");  // another server may have taken the home over
    if (f) {
        std::string text(4096, '\0');
        text.resize(std::fread(text.data(), 1, text.size(), f));
        std::fclose(f);
        if (text.find(*token) != std::string::npos) ::unlink(path_.c_str());
    }
    path_.clear();
}

bool OperatorConsole::is_operator(std::string_view credential) const {
    const std::string* token = token_.load(std::memory_order_acquire);  // every authentication
    if (!token || credential.size() != token->size()) return false;
    return CRYPTO_memcmp(credential.data(), token->data(), token->size()) == 0;
}

}  // namespace platform::host
