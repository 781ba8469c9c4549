// upstream_host_test.hpp — the base of the external-data services' integration suites: one host
// per suite on the `test` profile, its providers pointed at one FakeUpstream (`up`), and the calls
// the suites make of one service.
//
//   class Flights : public UpstreamHostTest {
//   protected:
//       static void SetUpTestSuite() { start_with("flights", {{"adsb"}, {"flight-status", "k", "?access_key", true}}); }
//   };
//   TEST_F(Flights, ...) { up->serve("/adsb/v2/point/51.47/-0.45/10", ...); json d = ok("airport?code=LHR"); }
//
// TearDownTestSuite stops the host, then the upstream. Suites run one at a time, so `up` is one
// pointer for all of them.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

namespace platform::test {

class UpstreamHostTest : public SharedHostTest {
protected:
    // Makes `up`, writes the test profile with `providers` at it (and `extra` YAML) to
    // suite_dir()/<service>.yaml and starts the host; get/ok/fails then call /api/v1/<service>/.
    static void start_with(const std::string& service,
                           const std::vector<FakeUpstream::Entry>& providers,
                           const std::string& extra = "");
    static void TearDownTestSuite();

    // GET /api/v1/<service>/<target> (target: "method?query").
    HttpResult get(const std::string& target);
    // The call's data, after checking it answered 200 (a test failure naming target otherwise).
    nlohmann::json ok(const std::string& target);
    // That the call answers `status` with a body naming `part`.
    void fails(const std::string& target, int status, const std::string& part);

    static std::unique_ptr<FakeUpstream> up;
    static std::string service_;
};

}  // namespace platform::test
