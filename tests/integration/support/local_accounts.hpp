// local_accounts.hpp — hosts with real accounts (auth-local, as the `local` profile and its
// variants load it) and the access tokens tests sign in for:
//
//   HostProcess host(local_options("admin-secret-for-x"));
//   host.start();
//   HttpClient c("127.0.0.1", host.api_port());
//   const std::string admin = access_token(c, "admin", "admin-secret-for-x");
//
// Failures are reported through gtest; nothing here throws.
#pragma once

#include <string>

#include "host_process.hpp"
#include "http_client.hpp"

namespace platform::test {

// Options for a host on `profile` whose admin signs in with `admin_secret`
// (PLATFORM_ADMIN_SECRET), under `home` ("" = a temporary home of the host's own).
HostProcess::Options local_options(const std::string& admin_secret,
                                   const std::string& profile = "local",
                                   const std::string& home = "");

// The access token POST /auth/token gives `id` signing in with `secret`; a test failure, and "",
// when it answers anything but 200.
std::string access_token(HttpClient& c, const std::string& id, const std::string& secret);

// Creates account `id` (secret `<id>-secret-1`) as `admin` (an access token) and returns the
// access token it signs in for; a test failure, and "", when either call is refused.
std::string account_token(HttpClient& c, const std::string& admin, const std::string& id);

}  // namespace platform::test
