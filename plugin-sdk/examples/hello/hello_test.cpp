// Unit test for hello: drives the plugin's handlers through the SDK's fake host, no server needed.
// No test framework, so the example builds with nothing but the SDK; use GoogleTest in real code.
#include <cstdio>
#include <cstdlib>
#include <platform/testing/fake_host.hpp>

extern "C" const platform_plugin_desc_t* platform_plugin_entry(const platform_entry_args_t*);

static int failures = 0;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                                   \
        }                                                                                 \
    } while (0)

int main() {
    platform::testing::FakeHost host;
    auto hello = host.load(platform_plugin_entry);

    auto greet = hello.call("greet", {{"name", "Ada"}});
    CHECK(greet.code == PLATFORM_OK);
    CHECK(greet.json() == nlohmann::json({{"message", "Hello, Ada!"}}));

    // Each account counts on its own; the fake host does not enforce access, the SDK's owned() does.
    CHECK(hello.call("count", {}, "alice").json()["count"] == 1);
    CHECK(hello.call("count", {}, "alice").json()["count"] == 2);
    CHECK(hello.call("count", {}, "bob").json()["count"] == 1);
    CHECK(hello.call("count", {}, "").code == PLATFORM_UNAUTHENTICATED);

    if (failures) return EXIT_FAILURE;
    std::puts("hello_test: ok");
    return EXIT_SUCCESS;
}
