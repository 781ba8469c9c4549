#include "local_accounts.hpp"

#include <gtest/gtest.h>

namespace platform::test {

HostProcess::Options local_options(const std::string& admin_secret, const std::string& profile,
                                   const std::string& home) {
    HostProcess::Options o;
    o.profile = profile;
    o.home = home;
    o.env["PLATFORM_ADMIN_SECRET"] = admin_secret;
    return o;
}

std::string access_token(HttpClient& c, const std::string& id, const std::string& secret) {
    auto r = c.post_json("/auth/token", {{"id", id}, {"secret", secret}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.json().value("access_token", "") : "";
}

std::string account_token(HttpClient& c, const std::string& admin, const std::string& id) {
    auto r = c.post_json("/auth/createAccount", {{"id", id}, {"secret", id + "-secret-1"}},
                         bearer(admin));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? access_token(c, id, id + "-secret-1") : "";
}

}  // namespace platform::test
