// host/src/runtime/runtime_service.hpp — the `runtime` built-in service (docs/decisions.md 27):
// run, update, kill, status and logs of services built from source.
//
// It is compiled into the host (it starts processes, runs compilers and clones repositories, and
// adds services to the host's table, none of which a plugin may do), but it is written like a
// plugin with the SDK and served like one: go.core.api.runtime, Runtime.Run ... Runtime.Logs,
// /runtime/<method>, /rpc, MCP tools and CLI commands from its descriptor. Its records live in
// its store table `runtime` (runtime_manager.hpp). Callers need the `admin` or the `runtime` scope.
//
//   Runtime.Run    {source, name?, ref?, archive?}  source: what the user typed ("./hello",
//                  "https://host/repo.git@v2", "hello" = <git.baseurl>/hello); archive: a base64
//                  .tar.gz of a local folder (then `name` is required). Answers {service: record}.
//   Runtime.Update {name, archive?}   rebuild and swap (a commit ref only restarts)
//   Runtime.Kill   {name}             stop and remove; its routes answer 404
//   Runtime.Status {name?}            {services: [records]}
//   Runtime.Logs   {name, lines=15, follow=false}  {lines: [...]}; follow streams each line as a
//                  chunk ({"line": "..."}) — Server-Sent Events over HTTP — until the deadline.
//   Runtime.Plugins {}  admin only: {profile, plugins: [{id, version, kind, service, file, state,
//                  reason?, restarts?, last_exit?}]} — every plugin found at start (decision 82).
#pragma once

#include <memory>
#include <platform/host/core/plugin.hpp>

namespace platform::host {

// The built-in as a Plugin for the runtime to create, start and register (privileged, in process).
std::unique_ptr<Plugin> make_runtime_plugin();

}  // namespace platform::host
