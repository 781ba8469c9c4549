#include "files.hpp"

#include <algorithm>
#include <atomic>

namespace schema = platform::schema;

using platform::json;

namespace {

std::string make_id(const std::string& seed, int attempt) {
    return platform::hash_id(seed, attempt, "fl-");
}

const schema::Object kIdSchema = schema::id_object("The file's id");

// A stored record as the methods answer it: without the internal `seq`.
json visible(json file) {
    file.erase("seq");
    return file;
}

[[noreturn]] void missing(const char* argument, const std::string& id) {
    throw platform::not_found(std::string(argument) + ": no file '" + id + "'");
}

}  // namespace

void Files::describe(platform::ServiceSpec<Files>& s) {
    s.id("files")
        .version("1.0.0")
        .service("v1.files")
        .summary("Files of their owner, each served at a /ui/ URL");
    s.post("put")
        .title("Store a file")
        .description(
            "Stores a private file (text, or binary as base64 with `encoding: base64`; at most 5 "
            "MB) and "
            "returns it with its URL, /ui/files/<id>, which serves the bytes to you with the "
            "file's type.")
        .schema(schema::object()
                    .str("name")
                    .max_len(255)
                    .pattern("^[^/\\\\\\r\\n]*\\.[A-Za-z0-9]{1,16}$")
                    .required()
                    .doc("The file's name, with an extension (report.pdf)")
                    .str("content")
                    .max_len(7000000)
                    .required()
                    .doc("The text, or the bytes in base64")
                    .str("encoding")
                    .one_of({"base64", "text"})
                    .def("text")
                    .doc("base64 for binary content; omit for text")
                    .str("type")
                    .max_len(255)
                    .pattern("^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+( *;[ -~]*)?$")
                    .doc("The media type; guessed from the name's extension when omitted"))
        .access(platform::Access::owner)
        .max_body(7400 * 1024)
        .handler(&Files::put);
    s.get("get")
        .title("Get a file")
        .description(
            "One of your files with its content (text, or base64 with `encoding: base64`); 404 "
            "when absent.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .read_only()
        .handler(&Files::get);
    s.get("list")
        .title("List files")
        .description("Your files without their content, newest first.")
        .access(platform::Access::owner)
        .read_only()
        .handler(&Files::list);
    s.post("delete")
        .title("Delete a file")
        .description("Deletes your file and its bytes; 404 when absent.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .destructive()
        .action()
        .idempotent()
        .handler(&Files::remove);
    s.post("driveconnect")
        .title("Connect your cloud drive")
        .description(
            "Connects your Google Drive with an OAuth 2.0 access token (a drive.readonly scope is "
            "enough): checked with the drive, then kept sealed; replaces an earlier connection. "
            "Answers the drive's account name and address, never the token.")
        .schema(schema::object()
                    .str("token")
                    .min_len(1)
                    .max_len(4096)
                    .pattern("^[A-Za-z0-9._~+/-]+=*$")
                    .required()
                    .doc("An OAuth 2.0 access token for Google Drive"))
        .access(platform::Access::owner)
        .idempotent()
        .handler(&Files::driveconnect);
    s.post("drivedisconnect")
        .title("Disconnect your cloud drive")
        .description("Forgets your drive connection and its token.")
        .access(platform::Access::owner)
        .destructive()
        .idempotent()
        .handler(&Files::drivedisconnect);
    s.get("driveread")
        .title("Read a file from your cloud drive")
        .description(
            "Read-only, from the Google Drive connected to your account (files/driveconnect "
            "first): the file's metadata and content, text or base64, up to 5 MB; Google Docs, "
            "Sheets and Slides exported as text or CSV.")
        .schema(schema::id_object("The drive file's id", 512))
        .access(platform::Access::owner)
        .read_only()
        .open_world()
        .handler(&Files::driveread);
    s.post("drivesearch")
        .title("Search your cloud drive")
        .description(
            "Read-only search of the Google Drive connected to your account by name and full "
            "text; up to 20 a page; without a query, the most recently modified files.")
        .schema(schema::object()
                    .str("query")
                    .max_len(500)
                    .doc("Words to find")
                    .str("page")
                    .max_len(1024)
                    .doc("The next-page token of the previous answer")
                    .prop("limit", schema::limit(20, 20, "Page size")))
        .access(platform::Access::owner)
        .read_only()
        .open_world()
        .handler(&Files::drivesearch);
    s.get("resources")
        .title("List files as MCP resources")
        .description("MCP resources/list: your 100 newest files as files://<id> resources.")
        .schema(schema::object().open().prop("cursor", schema::cursor()))
        .access(platform::Access::owner)
        .read_only()
        .mcp_resources()
        .handler(&Files::resources);
    s.get("read_resource")
        .title("Read a file as an MCP resource")
        .description("MCP resources/read of files://<id>; 404 when absent.")
        .schema(schema::object().open().str("uri").required().doc("files://<id>"))
        .access(platform::Access::owner)
        .read_only()
        .mcp_resource_read(kScheme)
        .handler(&Files::read_resource);
    s.get("raw")
        .title("A file's bytes")
        .description("GET /ui/files/<id>: the bytes with the file's content type.")
        .schema(kIdSchema)
        .access(platform::Access::owner)
        .read_only()
        .http_path("/ui/files/{id}")
        .mcp_hidden()
        .async(&Files::serve);
}

json Files::put(platform::Request& r) {
    const std::string name = r.str("name"), encoding = r.str("encoding", "text");
    std::string bytes = r.str("content");
    if (encoding == "base64") {
        auto decoded = files::base64_decode(bytes);
        if (!decoded)
            throw platform::invalid_argument("content: not valid base64 (encoding is base64)");
        bytes = std::move(*decoded);
    }
    if (bytes.size() > kMaxBytes)
        throw platform::invalid_argument("content: " + std::to_string(bytes.size()) +
                                         " bytes is more than 5 MB (" + std::to_string(kMaxBytes) +
                                         " bytes)");
    const int64_t now = host_.now_ms();
    const std::string type = r.str("type", files::guess_type(name)),
                      data = files::base64_encode(bytes);
    const std::string seed = std::to_string(now) + "\n" + name + "\n" + type + "\n" + data;
    std::string id;
    for (int attempt = 0;;
         ++attempt)  // the bytes claim the first of the seed's ids the owner lacks
        if (r.owned(kData).insert_if_absent(id = make_id(seed, attempt), {{"data", data}})) break;
    json file = {{"id", id},
                 {"name", name},
                 {"type", type},
                 {"encoding", encoding},
                 {"size", bytes.size()},
                 {"url", "/ui/files/" + id},
                 {"created", files::rfc3339(now)},
                 {"seq", platform::next_sequence(now)}};
    r.owned(kFiles).put(id, file);
    host_.resource_updated(kScheme + id, r.account());
    return visible(file);
}

std::pair<json, std::string> Files::load(platform::Request& r, const std::string& id,
                                         const char* argument) const {
    auto file = r.owned(kFiles).get(id);
    if (!file) missing(argument, id);
    auto data = r.owned(kData).get(id);
    auto bytes = data ? files::base64_decode(data->value("data", "")) : std::nullopt;
    if (!bytes) throw platform::internal("stored file " + id + " is not readable");
    return {visible(std::move(*file)), std::move(*bytes)};
}

std::vector<json> Files::newest(platform::Request& r) const {
    std::vector<json> out;
    for (auto& [id, file] : r.owned(kFiles).list()) out.push_back(std::move(file));
    std::stable_sort(out.begin(), out.end(), [](const json& a, const json& b) {
        return a.value("seq", 0LL) > b.value("seq", 0LL);
    });
    for (auto& f : out) f = visible(std::move(f));
    return out;
}

json Files::get(platform::Request& r) {
    auto [file, bytes] = load(r, r.str("id"), "id");
    file["content"] =
        file.value("encoding", "text") == "base64" ? files::base64_encode(bytes) : bytes;
    return file;
}

json Files::list(platform::Request& r) {
    return {{"files", newest(r)}};
}

json Files::remove(platform::Request& r) {
    const std::string id = r.str("id");
    if (!r.owned(kFiles).erase(id)) missing("id", id);
    r.owned(kData).erase(id);
    host_.resource_updated(kScheme + id, r.account());
    return {{"deleted", id}};
}

void Files::serve(platform::Request& r, platform::Responder out) {
    auto [file, bytes] = load(r, r.str("id"), "id");
    out.raw(files::content_type(file.value("type", "application/octet-stream"),
                                file.value("encoding", "") == "text"),
            bytes);
}

PLATFORM_SERVICE(Files)
