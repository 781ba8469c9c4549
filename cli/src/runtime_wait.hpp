// runtime_wait.hpp — `platform run` and `platform update` follow the build to its outcome unless
// given --detach.
//
//   run     pending -> building -> starting -> running: exit 0; -> error: exit 1
//   update  updating -> running: exit 0, or exit 1 when the record carries metadata.error (the
//           new build failed and the old one serves on)
//
// Every change of status is one line on stderr ("hello: building"), so stdout stays empty for
// scripts. A failure prints the first line of the error that names one (the compiler's first
// error, git's or CMake's; runtime_format.hpp first_error) and where the whole output is
// (`platform logs <name>`). Waiting longer than `timeout_seconds` is exit 1 naming --timeout; the
// build goes on.
#pragma once

#include <string>

#include "rpc_client.hpp"

namespace platform::cli {

int follow_build(const RpcClient& rpc, const std::string& name, bool update,
                 double timeout_seconds);

}  // namespace platform::cli
