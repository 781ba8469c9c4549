// build_model — what an app build asks the model and how its answer becomes an app (builds.cpp).
//
// The request is the provider-neutral one of Host::complete: a system text saying what an app
// is here (one self-contained HTML file of at most 256 KB, run in a sandboxed frame with an opaque
// origin: no outside requests, no cookies or storage, services only through
// platform.call(service, method, args) or fetch('/api/v1/<service>/<method>')), the methods the
// owner may call, the owner's prompt as the one user message, and one tool, `app_html {name,
// description, html}`, through which the model hands the finished app back. Nothing runs that
// tool: its arguments are the build's outcome.
//
// The answer: the first `app_html` call's arguments (an object, or a string holding one). A model
// that answered text instead is read too, when the text holds a whole HTML document (a ```html
// fence, else from `<!doctype` or `<html` to the last `</html>`); its name is then the document's
// <title>. Anything else is no app, and `why` is the model's own text (its first 400 characters), which
// is where an offline model says what it cannot build and which setting gives a real model.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace apps_build {

// The tool through which the model returns the app.
inline constexpr const char* kTool = "app_html";

// The completion request for `prompt`; `methods` are "service/method" names the owner may call
// (listed for the model, at most 150 of them).
platform::json model_request(const std::string& prompt, const std::vector<std::string>& methods);

struct Built {
    std::string name, description, html;
};

// The app in a model's neutral reply, or nullopt with *why set.
std::optional<Built> read_reply(const platform::json& reply, std::string* why);

}  // namespace apps_build
