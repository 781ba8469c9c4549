#include "upstream_host_test.hpp"

#include "profiles.hpp"

namespace platform::test {

std::unique_ptr<FakeUpstream> UpstreamHostTest::up;
std::string UpstreamHostTest::service_;

void UpstreamHostTest::start_with(const std::string& service,
                                  const std::vector<FakeUpstream::Entry>& providers,
                                  const std::string& extra) {
    service_ = service;
    up = std::make_unique<FakeUpstream>();
    HostProcess::Options o;
    o.profile = test_profile_with(suite_dir() + "/" + service + ".yaml",
                                  up->outbound_yaml(providers) + extra);
    start_host(o);
}

void UpstreamHostTest::TearDownTestSuite() {
    stop_host();
    up.reset();
}

HttpResult UpstreamHostTest::get(const std::string& target) {
    return api.get("/api/v1/" + service_ + "/" + target);
}

nlohmann::json UpstreamHostTest::ok(const std::string& target) {
    const HttpResult r = get(target);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    return r.status == 200 ? r.json()["data"] : nlohmann::json();
}

void UpstreamHostTest::fails(const std::string& target, int status, const std::string& part) {
    const HttpResult r = get(target);
    EXPECT_EQ(r.status, status) << target << ": " << r.body;
    EXPECT_NE(r.body.find(part), std::string::npos) << target << ": " << r.body;
}

}  // namespace platform::test
