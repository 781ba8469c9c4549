// islam — reference texts of Islam from the Reminder knowledge base (reminder.dev, through
// common/reminder and common/upstream): a search by meaning answering excerpts with their source
// and reference (never a generated answer), and the full passage behind a search result's path.
#pragma once

#include <platform/sdk.hpp>

class Islam {
public:
    static void describe(platform::ServiceSpec<Islam>& s);
    explicit Islam(const platform::Host& host) : host_(host) {}

    platform::json search(platform::Request& r);
    platform::json read(platform::Request& r);

private:
    platform::Host host_;
};
