#include "dovecot_server.hpp"

#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "command.hpp"
#include "unused_port.hpp"

namespace fs = std::filesystem;

namespace platform::test {
namespace {

const char* kDovecot = "/usr/sbin/dovecot";

std::string user_name(uid_t uid) {
    const passwd* p = ::getpwuid(uid);
    return p ? p->pw_name : std::to_string(uid);
}

std::string group_name(gid_t gid) {
    const group* g = ::getgrgid(gid);
    return g ? g->gr_name : std::to_string(gid);
}

void own(const std::string& path, int uid, int gid) {
    if (::geteuid() == 0 && ::chown(path.c_str(), uid_t(uid), gid_t(gid)) != 0) return;
}

}  // namespace

DovecotServer::DovecotServer(const std::map<std::string, std::string>& users) {
    if (::access(kDovecot, X_OK) != 0) {
        why_ = "dovecot is not installed (scripts/deps.sh installs dovecot-imapd)";
        return;
    }
    installed_ = true;
    uid_ = int(::geteuid());
    gid_ = int(::getegid());
    if (uid_ == 0) {  // Dovecot runs no login or mail process as root
        const passwd* d = ::getpwnam("dovecot");
        if (!d || !::getpwnam("dovenull")) {
            why_ = "running as root needs the dovecot and dovenull users of the package";
            installed_ = false;
            return;
        }
        uid_ = int(d->pw_uid);
        gid_ = int(d->pw_gid);
    }
    std::string t = (fs::temp_directory_path() / "platform-dovecot.XXXXXX").string();
    dir_ = ::mkdtemp(t.data());
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    for (const auto& [user, password] : users)
        for (const char* sub : {"", "/cur", "/new", "/tmp"}) {
            fs::create_directories(maildir(user) + sub);
            own(maildir(user) + sub, uid_, gid_);
        }
    own(dir_ + "/mail", uid_, gid_);
    for (int attempt = 0; attempt < 3 && !ready_; ++attempt) start(users);  // a port may be taken
}

DovecotServer::~DovecotServer() {
    stop();
    if (!dir_.empty()) fs::remove_all(dir_);
}

std::string DovecotServer::log() const {
    std::stringstream s;
    s << std::ifstream(dir_ + "/dovecot.log").rdbuf()
      << std::ifstream(dir_ + "/console.log").rdbuf();
    return s.str();
}

void DovecotServer::start(const std::map<std::string, std::string>& users) {
    port_ = unused_loopback_port();
    const std::string run = dir_ + "/run" + std::to_string(port_);
    fs::create_directories(run);
    {
        std::ofstream pw(dir_ + "/passwd");
        for (const auto& [user, password] : users)
            pw << user << ":{PLAIN}" << password << ":" << uid_ << ":" << gid_ << "::" << dir_
               << "/home/" << user << "\n";
    }
    const bool root = ::geteuid() == 0;
    std::ofstream(dir_ + "/dovecot.conf")
        << "base_dir = " << run << "\nstate_dir = " << run << "\nlog_path = " << dir_
        << "/dovecot.log\nprotocols = imap\nlisten = 127.0.0.1\nssl = no\n"
        << "disable_plaintext_auth = no\nauth_mechanisms = plain login\nfirst_valid_uid = 1\n"
        << "auth_failure_delay = 0\n"
        << "mail_location = maildir:" << dir_ << "/mail/%u\n"
        << "default_login_user = " << (root ? "dovenull" : user_name(::geteuid())) << "\n"
        << "default_internal_user = " << (root ? "dovecot" : user_name(::geteuid())) << "\n"
        << "default_internal_group = " << (root ? "dovecot" : group_name(::getegid())) << "\n"
        << "passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u " << dir_
        << "/passwd\n}\nuserdb {\n  driver = passwd-file\n  args = username_format=%u " << dir_
        << "/passwd\n}\nservice imap-login {\n  chroot =\n  inet_listener imap {\n"
        << "    address = 127.0.0.1\n    port = " << port_
        << "\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}\nservice anvil {\n  chroot =\n  "
           "unix_listener anvil-auth-penalty {\n    mode = 0\n  }\n}\n";
    std::string binary = kDovecot, conf_flag = "-c", conf = dir_ + "/dovecot.conf",
                foreground = "-F";
    char* argv[] = {binary.data(), conf_flag.data(), conf.data(), foreground.data(), nullptr};
    int log_fd =
        ::open((dir_ + "/console.log").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    pid_ = ::fork();
    if (pid_ == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
        ::dup2(log_fd, 1);
        ::dup2(log_fd, 2);
        ::close_range(3, ~0U, 0);
        ::execv(binary.c_str(), argv);
        ::_exit(127);
    }
    ::close(log_fd);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;
            return;
        }
        if (loopback_accepts(port_)) {
            ready_ = true;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // poll interval, bounded
    }
    stop();
}

std::string DovecotServer::deliver(const std::string& user, const std::string& message,
                                   std::chrono::seconds age) {
    const auto now = std::chrono::system_clock::now() - age;
    const long when = long(std::chrono::system_clock::to_time_t(now));
    const std::string path = maildir(user) + "/cur/" + std::to_string(when) + ".M" +
                             std::to_string(++count_) + "P" + std::to_string(::getpid()) +
                             ".test:2,";
    std::ofstream(path, std::ios::binary) << message;
    own(path, uid_, gid_);
    utimbuf times{when, when};
    ::utime(path.c_str(), &times);
    return path;
}

void DovecotServer::stop() {
    stop_child(pid_);
}

}  // namespace platform::test
