#include "shared_host_test.hpp"

namespace platform::test {

HostProcess* SharedHostTest::host = nullptr;
TempDir* SharedHostTest::dir_ = nullptr;

void SharedHostTest::start_host(HostProcess::Options options) {
    host = new HostProcess(std::move(options));
    host->start();
}

void SharedHostTest::stop_host(bool expect_clean) {
    if (host) {
        const int status = host->stop();
        if (expect_clean) {
            EXPECT_EQ(status, 0) << host->log();
        }
    }
    delete host;
    host = nullptr;
    delete dir_;
    dir_ = nullptr;
}

const std::string& SharedHostTest::suite_dir() {
    if (!dir_) dir_ = new TempDir();
    return dir_->path();
}

}  // namespace platform::test
