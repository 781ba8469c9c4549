// profile_section_test.hpp — a gtest fixture for one section of a profile (platform/host/
// profile.hpp): each test writes `name: p`, the three providers every profile must choose (lines
// 1-5) and the section under test (from line 6) to p.yaml in a fresh directory, and loads it.
//
//   class PaymentProfile : public plugin_test::ProfileSectionTest {};
//   TEST_F(PaymentProfile, Defaults) { ASSERT_EQ(error_of(""), ""); EXPECT_...(profile_.payment); }
//
// Header-only; for executables linking platform_host.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <platform/host/core/profile.hpp>
#include <string>

#include "scratch_dir.hpp"

namespace plugin_test {

class ProfileSectionTest : public ::testing::Test {
    TempDir dir_;

protected:
    const std::string file_ = (dir_.path() / "p.yaml").string();  // the profile's path

    // Writes the profile with `section`; answers its path.
    std::string write(const std::string& section) {
        std::ofstream(file_) << "name: p\n"
                                "providers:\n"
                                "  store: {plugin: store-memory}\n"
                                "  broker: {plugin: broker-memory}\n"
                                "  auth: {plugin: auth-noop}\n"
                             << section;
        return file_;
    }
    // Loads the profile with `section` into profile_; the ProfileError text, or "" when it loaded.
    std::string error_of(const std::string& section) {
        try {
            profile_ = platform::host::load_profile(write(section), {});
        } catch (const platform::host::ProfileError& e) {
            return e.what();
        }
        return "";
    }

    platform::host::Profile profile_;
};

}  // namespace plugin_test
