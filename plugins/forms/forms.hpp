// forms — forms their owner builds and the responses visitors send (a public form takes anyone's
// until closed; responses stay private). Owner methods in forms.cpp, responses and their
// validation in responses.cpp, the browser page /ui/forms/<id> (GET shows the form, POST submits)
// in page.cpp.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <utility>

class Forms {
public:
    static void describe(platform::ServiceSpec<Forms>& s);
    explicit Forms(const platform::Host& host) : host_(host) {}

    platform::json write(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json responses(platform::Request& r);
    platform::json remove(platform::Request& r);
    // GET /ui/forms/<id>: the form as an HTML page (public forms; private ones to their owner).
    void page(platform::Request& r, platform::Responder out);
    // POST /ui/forms/<id> (form-encoded or JSON; also /api/v1/forms/submit): stores a response
    // after checking it against the fields. Public open forms take anyone; a private form only its
    // owner (404 to others), a closed one nobody (403). Form-encoded posts get an HTML answer.
    void submit(platform::Request& r, platform::Responder out);

    static constexpr int kPage = 50;
    // The owner-scoped collections: forms by id; responses by "<form id>/<response id>".
    static constexpr const char* kForms = "forms";
    static constexpr const char* kResponses = "responses";

private:
    // {owner, form} of any account's form, through the plugin-wide index "owner/<id>" -> account;
    // nullopt when there is none.
    std::optional<std::pair<std::string, platform::json>> find(const std::string& id) const;
    // Checks visitor values against the form's fields; the cleaned values (strings) or 400.
    static platform::json validate(const platform::json& form, const platform::json& args);
    platform::json store_response(const std::string& owner, const platform::json& form,
                                  const platform::json& values);

    platform::Host host_;
};

// Shared by the sources: time-ordered unique ids and RFC 3339 stamps of the business clock.
namespace forms_util {
std::string new_id(const char* prefix, int64_t now_ms);
using platform::html_escape;  // platform/sdk/text.hpp
using platform::rfc3339;
}  // namespace forms_util
