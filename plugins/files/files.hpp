// files — the caller's files, private to their owner (the catalogue's `files` service).
//
// A file is {id, name, type, encoding, size, url, created}: `put` stores its bytes (text as given,
// or base64-decoded with `encoding: base64`) and answers the record with `url`, `/ui/files/<id>`,
// which serves the bytes with `type` as the content type (the ABI's raw reply) to the owner only.
// put/get/list/delete/serve are in files.cpp; the MCP resources (files://<id>) in
// files_resources.cpp; the cloud drive (driveconnect, drivedisconnect, driveread, drivesearch:
// Google Drive v3) in drive.cpp; base64 and the type guessed from a name in codec.cpp.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

class Files {
public:
    static void describe(platform::ServiceSpec<Files>& s);
    explicit Files(const platform::Host& host) : host_(host) {}

    platform::json put(platform::Request& r);
    platform::json get(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json remove(platform::Request& r);
    // GET /ui/files/<id>: the bytes with the file's type; 404 for an absent or another's file.
    void serve(platform::Request& r, platform::Responder out);

    // The cloud drive (drive.cpp): the caller's Google Drive, through an OAuth access token the
    // caller connects (kept sealed). 503 naming plugin_config.files.drive.provider when the
    // operator configured no drive; 403 "connect a drive first" without a connection.
    platform::json driveconnect(platform::Request& r);
    platform::json drivedisconnect(platform::Request& r);
    platform::json driveread(platform::Request& r);
    platform::json drivesearch(platform::Request& r);

    // MCP resources/list: the caller's 100 newest files as {uri: files://<id>, name, description,
    // mimeType, size}; resources/read: {"contents": [{uri, mimeType, text | blob}]}, `text` for a
    // file put as text, `blob` (base64) for one put as base64.
    platform::json resources(platform::Request& r);
    platform::json read_resource(platform::Request& r);

    static constexpr const char* kScheme = "files://";
    static constexpr size_t kMaxBytes = 5 * 1024 * 1024;  // decoded

private:
    // The owner-scoped collections: the records by id, and each file's bytes ({data: base64}).
    static constexpr const char* kFiles = "files";
    static constexpr const char* kData = "data";
    // The caller's drive connection, key "connection": {provider, user, connected, sealed}, the
    // token sealed by the host's "secrets" sub-table.
    static constexpr const char* kDrive = "drive";

    // The drive connection's pieces (drive.cpp).
    void require_drive() const;  // 503 unless plugin_config.files.drive.provider is google-drive
    std::string drive_token(platform::Request& r) const;  // 403 without a connection
    const platform_secrets_api_t& secrets() const;        // 503 unless files is privileged

    // The caller's file `id` and its bytes; 404 naming `argument` when absent.
    std::pair<platform::json, std::string> load(platform::Request& r, const std::string& id,
                                                const char* argument) const;
    // The caller's files, newest first.
    std::vector<platform::json> newest(platform::Request& r) const;

    platform::Host host_;
};

namespace files {

using platform::base64_decode;  // standard or URL-safe alphabet (platform/sdk/text.hpp)
using platform::base64_encode;
// The media type for a file name's extension (case-insensitive); application/octet-stream when
// the extension is unknown.
std::string guess_type(const std::string& name);
// Types a browser would run on this origin (HTML, XHTML, SVG, XML, XSL, JavaScript, PDF): the
// owner's bytes are served as text/plain instead, so a file cannot script the instance.
bool active_type(const std::string& type);
// The Content-Type to serve: an active type is text/plain; charset=utf-8; a file put as text
// (UTF-8) of a text type (text/*, json, yaml) gets "; charset=utf-8" unless its type names a
// charset; anything else is served as stored.
std::string content_type(const std::string& type, bool utf8);
using platform::rfc3339;  // "YYYY-MM-DDTHH:MM:SSZ" (platform/sdk/text.hpp)

}  // namespace files
