// abi-throwing — service abi.throwing, built with the C++ SDK (PLATFORM_SERVICE). Every handler
// throws; the SDK's noexcept trampolines must turn each exception into an answer, and nothing may
// unwind into the host:
//
//   std    throws std::runtime_error("boom")                  -> INTERNAL (500), message "boom"
//   other  throws an int (`throw 42;`)                         -> INTERNAL (500)
//   typed  throws platform::Error(Code::conflict, "typed conflict") -> CONFLICT (409)
#include <platform/sdk.hpp>
#include <stdexcept>

namespace {

class Throwing {
public:
    static void describe(platform::ServiceSpec<Throwing>& s) {
        s.id("abi-throwing")
            .version("1.0.0")
            .summary("ABI test: handlers that throw; the SDK turns exceptions into error codes")
            .service("abi.throwing");
        s.get("std")
            .title("Throw std::runtime_error")
            .description("Throws std::runtime_error(\"boom\"); answered INTERNAL (500).")
            .handler(&Throwing::throw_std);
        s.get("other")
            .title("Throw an int")
            .description("Throws a non-std exception (an int); answered INTERNAL (500).")
            .handler(&Throwing::throw_other);
        s.get("typed")
            .title("Throw platform::Error")
            .description(
                "Throws platform::Error(conflict, \"typed conflict\"); answered CONFLICT (409).")
            .handler(&Throwing::throw_typed);
    }

    platform::json throw_std(platform::Request&) { throw std::runtime_error("boom"); }
    platform::json throw_other(platform::Request&) { throw 42; }
    platform::json throw_typed(platform::Request&) {
        throw platform::Error(platform::Code::conflict, "typed conflict");
    }
};

}  // namespace

PLATFORM_SERVICE(Throwing)
