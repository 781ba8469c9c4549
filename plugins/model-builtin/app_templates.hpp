// app_templates — model-builtin's app builds (README.md "App builds", docs/decisions.md 60): a
// request whose tools include `app_html` asks for a finished app, answered as a call of that tool
// with {name, description, html}. Offline, only a few honest templates can be built: a checklist,
// a countdown timer, a counter and a unit converter, each one self-contained HTML5 document that
// passes the apps plugin's static check (no outside URLs, no cookies or storage, services only
// through `platform.call`). Any other build gets kAppsNeedAModel, never a stand-in app.
#pragma once

#include <string>
#include <vector>

namespace builtin {

// The tool through which any model answers an app build (decision 60).
inline constexpr const char* kAppTool = "app_html";

// The answer, stop "end", to a build no template matches: names the settings to configure.
extern const char* const kAppsNeedAModel;

struct AppTemplate {
    const char* key;          // checklist, timer, counter, converter
    const char* name;         // the app's name, e.g. "Checklist"
    const char* description;  // what it does, honestly (what it keeps, and where)
    const char* html;         // the whole document
};

// The four templates, in the order above.
const std::vector<AppTemplate>& app_templates();

// Requests longer than this (after the clean-up of phrasing.hpp) match no template: they describe
// more than a template gives.
inline constexpr size_t kLongestAppRequest = 400;

// The template `request` names, or nullptr. The request is cleaned up as the rules' (phrasing.hpp,
// normalise) and searched, ignoring case, for each template's words on word boundaries (the table
// in README.md); a template's exclusions ("word counter", "countdown to ...", "stopwatch",
// "currency") take it out. Exactly one template must be left: a request naming two ("a checklist
// with a timer") or none is nullptr, as is an empty one or one over kLongestAppRequest bytes.
const AppTemplate* match_app(const std::string& request);

}  // namespace builtin
