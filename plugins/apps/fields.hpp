// What an app's fields may hold, and the two views of an app (its owner's and everyone else's).
// Each check throws platform::invalid_argument naming the argument and the rule.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

namespace apps_fields {

// A slug from a name: ASCII letters and digits lower-cased, every other run of characters one
// '-', no '-' at either end, at most 48 characters (room for a suffix); "app" when nothing is
// left.
std::string slug_from(const std::string& name);

// Comma-separated tags, each trimmed, empty ones dropped, repeats (case-insensitive) dropped,
// joined again with ", ". 400 "tags: ..." for a tag over 50 characters or more than 20 tags.
std::string normalise_tags(const std::string& tags);
// True when the comma-separated `tags` hold `tag` (trimmed, case-insensitive).
bool has_tag(const std::string& tags, const std::string& tag);

// An icon is one SVG element: `<svg` ... `</svg>` (an XML declaration and whitespace around are
// allowed), with no script, event handler, foreignObject, javascript: URL or external reference.
// 400 "icon: ..." otherwise; "" (no icon) is fine.
void check_icon(const std::string& svg);

// The public flag the caller asked for: `public` true, or `private` false; nullopt when neither
// was given. 400 naming both when they disagree.
std::optional<bool> visibility(const platform::json& args);

// obj[key] when obj is an object holding a string there, else "" (records read back from the
// store, answers of other services and of the model).
std::string text(const platform::json& obj, const char* key);

// An app as its owner sees it: every field, the HTML included, and its page's `url`
// ("/ui/apps/<slug>").
platform::json owner_view(const platform::json& app);
// An app as another account sees a public one: no HTML and no source references.
platform::json public_view(const platform::json& app);

}  // namespace apps_fields
