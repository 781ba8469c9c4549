#include "runtime_wait.hpp"

#include <chrono>
#include <iostream>
#include <thread>

#include "common.hpp"
#include "runtime_format.hpp"

namespace platform::cli {

using nlohmann::json;

int follow_build(const RpcClient& rpc, const std::string& name, bool update,
                 double timeout_seconds) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int64_t>(timeout_seconds * 1000));
    std::string shown;
    for (;;) {
        auto r = rpc.call("runtime", "Runtime.Status", {{"name", name}}, CallOptions::reads());
        if (!r.ok()) return report(r);  // killed meanwhile: 404
        const json rec = r.body.value("services", json::array()).empty() ? json::object()
                                                                         : r.body["services"][0];
        const std::string status = rec.value("status", "");
        const json md = rec.value("metadata", json::object());
        const std::string error = md.is_object() ? md.value("error", "") : "";
        const bool failed = status == "error" || (update && status == "running" && !error.empty());
        if (status != shown && !failed) std::cerr << name << ": " << status << "\n";
        shown = status;
        if (failed) {
            std::cerr << "error: " << first_error(error) << "\n"
                      << (status == "running" ? "The previous build still serves. " : "")
                      << "The whole output: platform logs -n 200 " << name << "\n";
            return 1;
        }
        if (status == "running") {
            std::cerr << name << ": serving " << rec.value("version", "") << "\n";
            return 0;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            std::cerr << "error: " << name << " is still " << status << " after " << timeout_seconds
                      << " s (--timeout); it goes on: platform status " << name << "\n";
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the status poll's pace
    }
}

}  // namespace platform::cli
