#include "owned_fixtures.hpp"

#include <gtest/gtest.h>

namespace platform::test {

using nlohmann::json;

json with_id(const json& j, const std::string& id) {
    if (j.is_string()) {
        std::string s = j.get<std::string>();
        for (size_t at; (at = s.find("{id}")) != std::string::npos;) s.replace(at, 4, id);
        return s;
    }
    json out = j;
    if (j.is_structured())
        for (auto it = out.begin(); it != out.end(); ++it) *it = with_id(*it, id);
    return out;
}

std::optional<std::string> create_owned(HttpClient& c, const OwnedFixture& f, const Headers& owner,
                                        const std::string& path) {
    auto created = c.post_json(f.create_path, f.create_args, owner);
    EXPECT_EQ(created.status, 200) << path << " " << created.body;
    if (created.status != 200) return std::nullopt;
    const json data = created.json()["data"];
    if (!data.is_object()) return "";
    if (data.contains("id")) return data["id"].get<std::string>();
    return data.contains("slug") ? data["slug"].get<std::string>() : "";  // apps are named by slug
}

const std::map<std::string, OwnedFixture>& owned_fixtures() {
    using E = Expect;
    const json note = {{"title", "owned"}, {"text", kMarker}};
    const OwnedFixture n{"/api/v1/notes/add",  note,
                         {{"title", "owned"}}, E::NotFound,
                         "/api/v1/notes/get",  {{"title", "owned"}}};
    const json doc = {{"title", kMarker}, {"content", kMarker}};
    const OwnedFixture d{"/api/v1/docs/write", doc,
                         {{"id", "{id}"}},     E::NotFound,
                         "/api/v1/docs/read",  {{"id", "{id}"}}};
    const json task = {{"title", kMarker}};
    const OwnedFixture t{"/api/v1/tasks/create", task,
                         {{"id", "{id}"}},       E::NotFound,
                         "/api/v1/tasks/read",   {{"id", "{id}"}}};
    const json card = {{"name", kMarker}, {"email", "a@example.com"}};
    const OwnedFixture c{"/api/v1/contacts/add",  card,
                         {{"id", "{id}"}},        E::NotFound,
                         "/api/v1/contacts/find", {{"query", kMarker}}};
    const json mark = {{"url", "https://example.com/owned-by-A"}};
    const OwnedFixture b{"/api/v1/bookmarks/add", mark,
                         {{"id", "{id}"}},        E::NotFound,
                         "/api/v1/bookmarks/get", {{"id", "{id}"}}};
    const json post = {
        {"content", std::string(kMarker) + " writes a private post long enough to be accepted."},
        {"private", true}};
    const OwnedFixture p{"/api/v1/blog/create", post,
                         {{"id", "{id}"}},      E::NotFound,
                         "/api/v1/blog/read",   {{"id", "{id}"}}};
    const json event = {{"title", kMarker}, {"when", "2030-01-01T10:00:00Z"}};
    const OwnedFixture e{"/api/v1/events/create", event,           {{"id", "{id}"}}, E::NotFound,
                         "/api/v1/events/read",   {{"id", "{id}"}}};
    const json file = {{"name", "owned.txt"}, {"content", kMarker}};
    const OwnedFixture f{"/api/v1/files/put", file,
                         {{"id", "{id}"}},    E::NotFound,
                         "/api/v1/files/get", {{"id", "{id}"}}};
    const json form = {{"title", kMarker},
                       {"fields", {{{"name", "email"}, {"label", "E"}, {"type", "email"}}}}};
    const OwnedFixture m{"/api/v1/forms/write", form,
                         {{"id", "{id}"}},      E::NotFound,
                         "/api/v1/forms/read",  {{"id", "{id}"}}};
    const json image = {{"data",
                         "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
                         "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
                        {"description", kMarker}};
    const OwnedFixture i{"/api/v1/images/upload", image,           {{"id", "{id}"}}, E::NotFound,
                         "/api/v1/images/get",    {{"id", "{id}"}}};
    const json group = {{"name", kMarker}};
    const OwnedFixture g{"/api/v1/groups/create", group,           {{"id", "{id}"}}, E::NotFound,
                         "/api/v1/groups/read",   {{"id", "{id}"}}};
    const json said = {{"room", "owned-room"}, {"message", kMarker}};
    const OwnedFixture ch{"/api/v1/chat/send",   said,
                          {{"id", "{id}"}},      E::NotFound,
                          "/api/v1/chat/source", {{"id", "{id}"}}};
    // A browser's subscription: RFC 8291 §5's example key and auth secret, a push service that
    // is never reached (no sweep sends as A).
    auto push_sub = [](const std::string& endpoint) {
        return json{
            {"endpoint", endpoint},
            {"keys",
             {{"p256dh",
               "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkN"
               "toIAiw4"},
              {"auth", "BTBZMqHH6r4Tts7J_aSIgg"}}}};
    };
    const json device = {{"subscription", push_sub("https://push.invalid/owned-by-A")},
                         {"name", kMarker}};
    const OwnedFixture nf{"/api/v1/notify/subscribe", device,        {{"id", "{id}"}}, E::NotFound,
                          "/api/v1/notify/devices",   json::object()};
    const json letter = {{"to", "owned-mail-peer"}, {"subject", kMarker}, {"body", kMarker}};
    const OwnedFixture ml{"/api/v1/mail/send",   letter,          {{"id", "{id}"}}, E::NotFound,
                          "/api/v1/mail/source", {{"id", "{id}"}}};
    const json app = {{"name", kMarker}, {"html", std::string("<p>") + kMarker + "</p>"}};
    const OwnedFixture ap{"/api/v1/apps/create", app,
                          {{"slug", "{id}"}},    E::NotFound,
                          "/api/v1/apps/read",   {{"slug", "{id}"}}};
    const OwnedFixture bd{"/api/v1/apps/build", {{"prompt", kMarker}},      {{"id", "{id}"}},
                          E::NotFound,          "/api/v1/apps/buildstatus", {{"id", "{id}"}}};
    auto as = [](OwnedFixture fx, Expect expect, json args = json::object()) {
        fx.expect = expect;
        if (!args.empty() || expect == Expect::List) fx.args = std::move(args);
        return fx;
    };
    // The C, Rust and Go examples (plugin-sdk/examples/hello-*, started with `platform run` in
    // the languages area): `count` adds one to the caller's own counter, so B's first count
    // answers 1 and A's read-back, its second count, 2.
    auto counter = [](const std::string& path) {
        return std::pair<const std::string, OwnedFixture>{
            path,
            {path, json::object(), json::object(), E::Own, path, json::object(), "\"count\":2",
             "\"count\":1"}};
    };
    static const std::map<std::string, OwnedFixture> all = {
        counter("/api/v1/hello-c/count"),
        counter("/api/v1/hello-rust/count"),
        counter("/api/v1/hello-go/count"),
        {"/api/v1/notes/add", as(n, E::Own, {{"title", "owned"}, {"text", "B"}})},
        {"/api/v1/notes/get", n},
        {"/api/v1/notes/delete", n},
        {"/api/v1/notes/list", as(n, E::List)},
        {"/api/v1/notes/resources", as(n, E::List)},
        {"/api/v1/notes/read_resource", as(n, E::NotFound, {{"uri", "notes://owned"}})},
        {"/api/v1/notify/subscribe",
         as(nf, E::Own, {{"subscription", push_sub("https://push.invalid/b")}, {"name", "B"}})},
        {"/api/v1/notify/unsubscribe", nf},
        {"/api/v1/notify/devices", as(nf, E::List)},
        {"/api/v1/notify/send", as(nf, E::List, {{"title", "B"}})},
        {"/api/v1/groups/create", as(g, E::Own, {{"name", "B"}})},
        {"/api/v1/groups/list", as(g, E::List)},
        {"/api/v1/groups/read", g},
        {"/api/v1/groups/update",
         as(g, E::NotFound, {{"id", "{id}"}, {"action", "rename"}, {"value", "B"}})},
        {"/api/v1/chat/source", ch},
        {"/api/v1/chat/sources", as(ch, E::List)},
        {"/api/v1/mail/source", ml},
        {"/api/v1/mail/sources", as(ml, E::List)},
        // sms makes nothing without a provider, which the sweeps' hosts lack: B asks for A's
        // letter id and lists its own (tests/integration/sms_test.cpp sends for real).
        {"/api/v1/sms/source", ml},
        {"/api/v1/sms/sources", as(ml, E::List)},
        {"/api/v1/docs/write",
         as(d, E::NotFound, {{"id", "{id}"}, {"title", "B"}, {"content", "B"}})},
        {"/api/v1/docs/read", d},
        {"/api/v1/docs/delete", d},
        {"/api/v1/docs/list", as(d, E::List)},
        {"/api/v1/docs/resources", as(d, E::List)},
        {"/api/v1/docs/read_resource", as(d, E::NotFound, {{"uri", "docs://{id}"}})},
        {"/api/v1/tasks/create", as(t, E::Own, {{"title", "B"}})},
        {"/api/v1/tasks/read", t},
        {"/api/v1/tasks/update", as(t, E::NotFound, {{"id", "{id}"}, {"status", "done"}})},
        {"/api/v1/tasks/delete", t},
        {"/api/v1/tasks/list", as(t, E::List)},
        {"/api/v1/tasks/next", as(t, E::List)},
        {"/api/v1/contacts/add", as(c, E::Own, {{"name", kMarker}, {"email", "b@example.com"}})},
        {"/api/v1/contacts/delete", c},
        {"/api/v1/contacts/find", as(c, E::List, {{"query", kMarker}})},
        {"/api/v1/contacts/list", as(c, E::List)},
        {"/api/v1/bookmarks/add", as(b, E::Own, {{"url", "https://example.com/b"}})},
        {"/api/v1/bookmarks/annotate", as(b, E::NotFound, {{"id", "{id}"}, {"note", "B"}})},
        {"/api/v1/bookmarks/get", b},
        {"/api/v1/bookmarks/delete", b},
        {"/api/v1/bookmarks/list", as(b, E::List)},
        {"/api/v1/blog/create", as(p, E::Own, {{"content", std::string(50, 'b')}})},
        {"/api/v1/blog/update", as(p, E::NotFound, {{"id", "{id}"}, {"title", "B"}})},
        {"/api/v1/blog/delete", p},
        {"/api/v1/events/create",
         as(e, E::Own, {{"title", "B"}, {"when", "2030-01-01T10:00:00Z"}})},
        {"/api/v1/events/read", e},
        {"/api/v1/events/update", as(e, E::NotFound, {{"id", "{id}"}, {"note", "B"}})},
        {"/api/v1/events/delete", e},
        {"/api/v1/events/list", as(e, E::List)},
        {"/api/v1/events/free", as(e, E::List)},
        {"/api/v1/files/put", as(f, E::Own, {{"name", "b.txt"}, {"content", "B"}})},
        {"/api/v1/files/get", f},
        {"/api/v1/files/raw", f},
        {"/api/v1/files/delete", f},
        {"/api/v1/files/list", as(f, E::List)},
        {"/api/v1/files/resources", as(f, E::List)},
        {"/api/v1/files/read_resource", as(f, E::NotFound, {{"uri", "files://{id}"}})},
        {"/api/v1/files/driveread", as(f, E::Unavailable)},
        {"/api/v1/files/drivesearch", as(f, E::Unavailable, {{"query", kMarker}})},
        {"/api/v1/files/driveconnect", as(f, E::Unavailable, {{"token", kMarker}})},
        {"/api/v1/files/drivedisconnect", as(f, E::List)},
        {"/api/v1/forms/write",
         as(m, E::NotFound, {{"id", "{id}"}, {"title", "B"}, {"fields", form["fields"]}})},
        {"/api/v1/forms/read", m},
        {"/api/v1/forms/responses", m},
        {"/api/v1/forms/delete", m},
        {"/api/v1/forms/list", as(m, E::List)},
        {"/api/v1/images/upload", as(i, E::Own, {{"data", image["data"]}})},
        {"/api/v1/images/browser_upload", as(i, E::Own, {{"data", image["data"]}})},
        {"/api/v1/images/get", i},
        {"/api/v1/images/update", as(i, E::NotFound, {{"id", "{id}"}, {"title", "B"}})},
        {"/api/v1/images/delete", i},
        {"/api/v1/images/list", as(i, E::List)},
        {"/api/v1/images/search", as(i, E::List, {{"query", kMarker}})},
        {"/api/v1/images/daily", as(i, E::Unavailable, {{"date", "2020-01-01"}})},
        {"/api/v1/images/generate", as(i, E::Unavailable, {{"prompt", kMarker}})},
        {"/api/v1/apps/create", as(ap, E::Own, {{"name", "B"}, {"html", "<p>B</p>"}})},
        {"/api/v1/apps/edit", as(ap, E::NotFound, {{"slug", "{id}"}, {"name", "B"}})},
        {"/api/v1/apps/fork", ap},
        {"/api/v1/apps/test", ap},
        {"/api/v1/apps/search", as(ap, E::List, {{"query", "owned"}})},
        {"/api/v1/apps/collection", as(ap, E::List)},
        {"/api/v1/apps/build", as(bd, E::Own, {{"prompt", "B's own build"}})},
        {"/api/v1/apps/buildstatus", bd},
        {"/api/v1/apps/builds", as(bd, E::List)},
    };
    return all;
}

}  // namespace platform::test
