// crashy — test-only: a plugin that fails on purpose, to test process isolation (isolation: process;
// tests/integration/isolation_test.cpp). ok answers; segfault raises SIGSEGV; abort calls abort();
// hang never answers (until the call is cancelled); pid answers the process id it runs in (and its parent's).
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <platform/sdk.hpp>

using platform::json;

class Crashy {
public:
    static void describe(platform::ServiceSpec<Crashy>& s) {
        s.id("crashy")
            .version("1.0.0")
            .service("v1.crashy")
            .summary("Test-only plugin that crashes on request");
        s.get("ok")
            .title("Answer")
            .description("Answers {\"ok\": true}.")
            .read_only()
            .handler(&Crashy::ok);
        s.post("segfault")
            .title("Crash with SIGSEGV")
            .description("Raises SIGSEGV.")
            .handler(&Crashy::segfault);
        s.post("abort").title("Abort").description("Calls abort().").handler(&Crashy::abort_now);
        s.post("hang").title("Hang").description("Never returns.").handler(&Crashy::hang);
        s.get("pid")
            .title("Process id")
            .description("The id of the process the plugin runs in.")
            .read_only()
            .handler(&Crashy::pid);
    }

    explicit Crashy(const platform::Host&) {}

    json ok(platform::Request&) { return {{"ok", true}}; }
    json segfault(platform::Request&) {
        std::raise(SIGSEGV);
        return nullptr;
    }
    json abort_now(platform::Request&) { std::abort(); }
    json hang(platform::Request&) {
        for (;;) ::pause();  // a wedged handler: only killing the process ends it
    }
    json pid(platform::Request&) {
        return {{"pid", static_cast<int64_t>(::getpid())},
                {"ppid", static_cast<int64_t>(::getppid())}};
    }
};

PLATFORM_SERVICE(Crashy)
