// The cloud drive behind driveconnect, drivedisconnect, driveread and drivesearch: a Google Drive
// v3 adapter (https://developers.google.com/workspace/drive/api/reference/rest/v3) over the
// profile's provider `google-drive` (base URL https://www.googleapis.com), through
// common/upstream.
//
//   connect  GET /drive/v3/about?fields=user                          -> {user: {displayName,
//                                                                          emailAddress}}
//   search   GET /drive/v3/files?q=...&fields=nextPageToken,files(...)&pageSize&pageToken
//   read     GET /drive/v3/files/<id>?fields=...                       -> the metadata
//            GET /drive/v3/files/<id>?alt=media                        -> the bytes
//            GET /drive/v3/files/<id>/export?mimeType=text/plain       -> a Google Doc as text
//
// Each request carries the caller's own OAuth access token (`Authorization: Bearer`), which the
// caller connects with files/driveconnect; it is kept sealed by the host's "secrets" sub-table
// and opened only to make a request. Nothing is cached: the upstream cache keys by path, and
// one account's drive must never answer another's.
#include <cctype>
#include <optional>
#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"
#include "files.hpp"

using common::upstream::Answer;
using common::upstream::Malformed;
using common::upstream::Provider;
using common::upstream::Query;
using common::upstream::Upstream;
using platform::json;

namespace {

constexpr const char* kProviderName = "google-drive";
const Provider kGoogleDrive{kProviderName, "Google Drive", "https://www.googleapis.com",
                            common::upstream::kNoCache};
constexpr const char* kConnect =
    "connect a drive first: files/driveconnect with an OAuth access "
    "token for your Google Drive";
constexpr const char* kFileFields = "id,name,mimeType,size,modifiedTime,webViewLink";
constexpr uint64_t kMaxContent = Files::kMaxBytes;  // 5 MB, as files/put

// Google Workspace types and what driveread exports them as (the others have no content).
const char* export_type(const std::string& type) {
    if (type == "application/vnd.google-apps.document") return "text/plain";
    if (type == "application/vnd.google-apps.presentation") return "text/plain";
    if (type == "application/vnd.google-apps.spreadsheet") return "text/csv";  // the first sheet
    if (type == "application/vnd.google-apps.drawing") return "image/svg+xml";
    if (type == "application/vnd.google-apps.script")
        return "application/vnd.google-apps.script+json";
    return nullptr;
}

bool workspace_type(const std::string& type) {
    return type.rfind("application/vnd.google-apps.", 0) == 0;
}

bool text_type(const std::string& type) {
    const std::string t = platform::lower(type.substr(0, type.find(';')));
    return t.rfind("text/", 0) == 0 || t == "application/json" || t == "application/xml" ||
           t == "application/javascript" || t == "application/x-yaml" || t == "application/yaml" ||
           t == "image/svg+xml" ||
           (t.size() > 5 &&
            (t.compare(t.size() - 5, 5, "+json") == 0 || t.compare(t.size() - 4, 4, "+xml") == 0));
}

// Whether `s` is well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool utf8(const std::string& s) {
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = s[i];
        int n = c < 0x80           ? 0
                : (c >> 5) == 0x6  ? 1
                : (c >> 4) == 0xE  ? 2
                : (c >> 3) == 0x1E ? 3
                                   : -1;
        if (n < 0 || (n == 1 && c < 0xC2)) return false;
        if (n > 0 && i + n >= s.size()) return false;
        uint32_t cp = n == 0 ? c : c & (0x3F >> n);
        for (int k = 1; k <= n; ++k) {
            const unsigned char d = s[i + k];
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        i += n + 1;
    }
    return true;
}

// A Drive error body's message and first reason ({"error": {"code", "message", "errors":
// [{"domain", "reason", "message", "location"}]}}).
struct DriveError {
    std::string message, reason, location;
};
DriveError drive_error(const std::string& body) {
    DriveError e;
    const json j = json::parse(body, nullptr, false);
    if (!j.is_object() || !j.contains("error") || !j["error"].is_object()) return e;
    const json& err = j["error"];
    if (err.contains("message") && err["message"].is_string())
        e.message = err["message"].get<std::string>();
    if (err.contains("errors") && err["errors"].is_array() && !err["errors"].empty() &&
        err["errors"][0].is_object()) {
        const json& first = err["errors"][0];
        if (first.contains("reason") && first["reason"].is_string())
            e.reason = first["reason"].get<std::string>();
        if (first.contains("location") && first["location"].is_string())
            e.location = first["location"].get<std::string>();
    }
    return e;
}

// What a 401 or 403 from the drive means to the caller (the statuses every request passes).
[[noreturn]] void refused(const Answer& a) {
    const DriveError e = drive_error(a.body);
    const std::string said = e.message.empty() ? "" : ": " + e.message;
    if (a.status == 401)
        throw platform::permission_denied(
            "your drive connection no longer works: Google Drive refused the token (401" + said +
            "); an access token lasts about an hour, so connect again with files/driveconnect");
    if (e.reason == "userRateLimitExceeded" || e.reason == "rateLimitExceeded" ||
        e.reason == "dailyLimitExceeded")
        throw platform::unavailable("Google Drive is limiting requests now (403 " + e.reason +
                                    "); try again later");
    throw platform::permission_denied("Google Drive refused the request (403" + said +
                                      "); the token may lack the drive.readonly scope");
}

// `value` as a Drive query string literal: backslashes and single quotes escaped.
std::string literal(const std::string& value) {
    std::string out = "'";
    for (char c : value) {
        if (c == '\\' || c == '\'') out += '\\';
        out += c;
    }
    return out + "'";
}

// One Drive file resource as the methods answer it. Drive writes `size` (int64) as a string and
// leaves it out for Google Workspace files and folders.
json file_from(const json& f) {
    if (!f.is_object()) throw Malformed("a file is not an object");
    json size = nullptr;
    if (f.contains("size")) {
        const std::string text =
            f["size"].is_string() ? f["size"].get<std::string>() : f["size"].dump();
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
            throw Malformed("size '" + text + "' is not a number");
        size = std::stoull(text);
    }
    return {{"id", f.at("id").get<std::string>()},
            {"name", f.at("name").get<std::string>()},
            {"type", f.at("mimeType").get<std::string>()},
            {"size", size},
            {"modified", common::upstream::string_or_null(f, "modifiedTime")},
            {"url", common::upstream::string_or_null(f, "webViewLink")}};
}

json headers_for(const std::string& token) {
    return {{"Authorization", "Bearer " + token}, {"Accept", "application/json"}};
}

}  // namespace

const platform_secrets_api_t& Files::secrets() const {
    auto* s = host_.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!s)
        throw platform::unavailable(
            "files: keeping a drive token sealed needs the host's \"secrets\" sub-table: list "
            "files under privileged: in the profile");
    return *s;
}

void Files::require_drive() const {
    const json drive = host_.config("drive");
    if (!drive.is_object() || !drive.contains("provider"))
        throw platform::unavailable(
            "the cloud drive is not configured: set plugin_config.files.drive.provider to "
            "google-drive and outbound.providers.google-drive.base_url (https://"
            "www.googleapis.com) in the profile");
    if (drive["provider"] != kProviderName)
        throw platform::unavailable("the cloud drive provider " + drive["provider"].dump() +
                                    " is not available in this build (plugin_config.files.drive."
                                    "provider; google-drive is)");
}

std::string Files::drive_token(platform::Request& r) const {
    const auto rec = r.owned(kDrive).get("connection");
    if (!rec) throw platform::permission_denied(kConnect);
    std::string token;
    platform::check(secrets().open(host_.ctx(), platform::view(rec->value("sealed", "")),
                                   platform::append_sink, &token),
                    "files: the stored drive token cannot be opened (was the host's secret key "
                    "changed?); connect again with files/driveconnect");
    return token;
}

json Files::driveconnect(platform::Request& r) {
    require_drive();
    const std::string token = r.str("token");
    const auto& s = secrets();
    Upstream drive(host_, kGoogleDrive);
    common::upstream::Options o;
    o.headers = headers_for(token);
    o.pass = {401, 403};
    const Answer a = drive.fetch("/drive/v3/about" + Query().str("fields", "user").text(), o);
    if (a.status == 401 || a.status == 403) {
        const DriveError e = drive_error(a.body);
        throw platform::invalid_argument(
            "token: Google Drive refused it (" + std::to_string(a.status) +
            (e.message.empty() ? "" : ": " + e.message) +
            "); give an OAuth 2.0 access token with the drive.readonly scope");
    }
    const json about = json::parse(a.body, nullptr, false);
    if (about.is_discarded()) throw drive.malformed("the body is not JSON");
    const json user = drive.parse(about, [](const json& j) -> json {
        const json& u = j.at("user");
        if (!u.is_object()) throw Malformed("`user` is not an object");
        return {{"name", common::upstream::string_or_null(u, "displayName")},
                {"email", common::upstream::string_or_null(u, "emailAddress")}};
    });
    std::string sealed;
    platform::check(s.seal(host_.ctx(), platform::view(token), platform::append_sink, &sealed),
                    "files: sealing the drive token failed");
    const json connection = {{"provider", kProviderName},
                             {"user", user},
                             {"connected", files::rfc3339(host_.now_ms())},
                             {"sealed", sealed}};
    r.owned(kDrive).put("connection", connection);
    return {{"connected", true},
            {"provider", kProviderName},
            {"user", user},
            {"connected_at", connection["connected"]}};
}

json Files::drivedisconnect(platform::Request& r) {
    return {{"disconnected", r.owned(kDrive).erase("connection")}};
}

json Files::drivesearch(platform::Request& r) {
    require_drive();
    const std::string token = drive_token(r);
    std::string words = r.str("query");
    while (!words.empty() && std::isspace(static_cast<unsigned char>(words.back())))
        words.pop_back();
    words.erase(0, words.find_first_not_of(" \t\r\n"));
    const int64_t limit = r.args().value("limit", 20);
    const std::string page = r.str("page");

    Query q;
    q.str("q", words.empty() ? "trashed = false"
                             : "(name contains " + literal(words) + " or fullText contains " +
                                   literal(words) + ") and trashed = false");
    q.str("fields", std::string("nextPageToken,incompleteSearch,files(") + kFileFields + ")");
    q.integer("pageSize", limit);
    q.str("spaces", "drive");
    if (words.empty()) q.str("orderBy", "modifiedTime desc");  // full-text results keep relevance
    if (!page.empty()) q.str("pageToken", page);

    Upstream drive(host_, kGoogleDrive);
    common::upstream::Options o;
    o.headers = headers_for(token);
    o.pass = {400, 401, 403};
    const Answer a = drive.fetch("/drive/v3/files" + q.text(), o);
    if (a.status == 401 || a.status == 403) refused(a);
    if (a.status == 400) {
        const DriveError e = drive_error(a.body);
        if (e.location == "pageToken")
            throw platform::invalid_argument("page: not a next-page token of this search");
        throw platform::Error(
            platform::Code::bad_gateway,
            "Google Drive answered 400" + (e.message.empty() ? std::string() : ": " + e.message));
    }
    const json body = json::parse(a.body, nullptr, false);
    if (body.is_discarded()) throw drive.malformed("the body is not JSON");
    return drive.parse(body, [](const json& j) -> json {
        json out = json::array();
        if (j.contains("files")) {
            if (!j["files"].is_array()) throw Malformed("`files` is not an array");
            for (const auto& f : j["files"]) out.push_back(file_from(f));
        }
        return {{"files", out},
                {"next_page", common::upstream::string_or_null(j, "nextPageToken")},
                {"incomplete", j.value("incompleteSearch", false)}};
    });
}

json Files::driveread(platform::Request& r) {
    require_drive();
    const std::string token = drive_token(r);
    const std::string id = r.str("id");
    Upstream drive(host_, kGoogleDrive);
    common::upstream::Options o;
    o.headers = headers_for(token);
    o.pass = {401, 403, 404};
    const std::string path = "/drive/v3/files/" + common::upstream::encode(id);
    const Answer meta = drive.fetch(
        path + Query().str("fields", kFileFields).str("supportsAllDrives", "true").text(), o);
    if (meta.status == 401 || meta.status == 403) refused(meta);
    if (meta.status == 404) throw platform::not_found("id: no file '" + id + "' in your drive");
    const json body = json::parse(meta.body, nullptr, false);
    if (body.is_discarded()) throw drive.malformed("the body is not JSON");
    json file = drive.parse(body, file_from);
    const std::string type = file["type"].get<std::string>();

    std::string note;
    std::optional<Answer> content;
    const char* as = export_type(type);
    if (as) {
        o.max_bytes = kMaxContent;
        content = drive.fetch(path + "/export" + Query().str("mimeType", as).text(), o);
        file["exported_as"] = as;
    } else if (type == "application/vnd.google-apps.folder") {
        note = "a folder has no content; drivesearch lists files";
    } else if (workspace_type(type)) {
        note = "a " + type + " cannot be exported as a file";
    } else if (file["size"].is_number() && file["size"].get<uint64_t>() > kMaxContent) {
        note = "larger than 5 MB (" + std::to_string(kMaxContent) + " bytes): open it at `url`";
    } else {
        o.max_bytes = kMaxContent;
        content = drive.fetch(
            path + Query().str("alt", "media").str("supportsAllDrives", "true").text(), o);
    }
    if (content && content->status == 403 &&
        drive_error(content->body).reason == "exportSizeLimitExceeded") {
        content.reset();
        note = "too large for Google Drive to export (10 MB at most): open it at `url`";
    }
    if (content) {
        if (content->status == 401 || content->status == 403) refused(*content);
        if (content->status == 404)
            throw platform::not_found("id: no file '" + id + "' in your drive");
        const bool text = text_type(as ? as : type) && utf8(content->body);
        file["encoding"] = text ? "text" : "base64";
        file["content"] = text ? content->body : files::base64_encode(content->body);
    } else {
        file["encoding"] = nullptr;
        file["content"] = nullptr;
        file["note"] = note;
    }
    return file;
}
