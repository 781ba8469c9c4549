// The cloud-drive adapter behind driveread and drivesearch. A drive is connected through the
// plugin's config `drive` ({provider, ...}); no provider adapter ships yet, so without one the
// methods answer 503 naming the missing setting, and with one they say that provider is not
// available in this build. Never invented data.
#include "files.hpp"

using platform::json;

namespace {

[[noreturn]] void no_drive(const platform::Host& host, const std::string& method) {
    const json drive = host.config("drive");
    if (drive.is_null() || !drive.is_object() || !drive.contains("provider"))
        throw platform::unavailable(
            "files/" + method +
            " needs a connected cloud drive: set plugin_config.files.drive.provider in the "
            "profile and connect the drive in your account");
    throw platform::unavailable("files/" + method + ": the cloud drive provider " +
                                drive["provider"].dump() + " is not available in this build");
}

}  // namespace

json Files::driveread(platform::Request&) {
    no_drive(host_, "driveread");
}

json Files::drivesearch(platform::Request&) {
    no_drive(host_, "drivesearch");
}
