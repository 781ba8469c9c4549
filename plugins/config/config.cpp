// config — the platform's configuration service, after micro's: get, set, delete and list values
// by dotted path (README.md).
// A privileged built-in: values live in its own store table, one record per top-level segment
// (README.md), and secrets are sealed through the "secrets" sub-table.
#include <optional>
#include <platform/sdk.hpp>

#include "tree.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

// A dotted path (a.b.c): segments of letters, digits, _ and -; optional_path() may also be "".
schema::Value path(const char* doc) {
    return schema::string()
        .min_len(1)
        .max_len(512)
        .pattern("^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$")
        .doc(doc);
}
schema::Value optional_path(const char* doc) {
    return schema::string()
        .max_len(512)
        .pattern("^([A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*)?$")
        .def("")
        .doc(doc);
}

std::string dump(const json& v) {
    return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

class ConfigService {
public:
    static void describe(platform::ServiceSpec<ConfigService>& s) {
        s.id("config").version("1.0.0").service("config").summary(
            "Configuration values by dotted path, with secrets");
        s.get("get")
            .title("Read config")
            .description(
                "The value at a dotted path; a prefix returns the nested map and an empty path "
                "everything. "
                "Secrets read as the string \"[secret]\" unless decrypt is true. 404 naming the "
                "path when "
                "nothing is set there.")
            .schema(schema::object()
                        .prop("path", optional_path("Dotted path (a.b.c; segments of letters, "
                                                    "digits, _ and -); empty = every value"))
                        .boolean("decrypt")
                        .def(false)
                        .doc("Show secrets in clear instead of \"[secret]\""))
            .output(schema::object()
                        .open()
                        .prop("value", schema::any().doc("The value (any JSON type)"))
                        .required())
            .access(platform::Access::admin)
            .read_only()
            .idempotent()
            .withheld_from_agent()
            .handler(&ConfigService::get);
        s.post("set")
            .title("Set config")
            .description(
                "Stores a value at a dotted path. A string holding a JSON object is stored as that "
                "object; "
                "an object merges into an object already there (recursively); any other value "
                "replaces "
                "the subtree. secret=true seals the value at rest (any JSON type).")
            .schema(
                schema::object()
                    .prop("path", path("Dotted path (a.b.c; segments of letters, digits, _ and -)"))
                    .required()
                    .prop("value", schema::any().doc("The value: any JSON type; a string holding a "
                                                     "JSON object is stored as the object"))
                    .required()
                    .boolean("secret")
                    .def(false)
                    .doc("Seal the value at rest; reads show \"[secret]\" unless decrypted"))
            .output(schema::object().open())
            .access(platform::Access::admin)
            .idempotent()
            .withheld_from_agent()
            .handler(&ConfigService::set);
        s.post("delete")
            .title("Delete config")
            .description(
                "Removes the value at a dotted path and everything under it; 404 naming the path "
                "when nothing is set there.")
            .schema(
                schema::object()
                    .prop("path", path("Dotted path (a.b.c) of the key to remove with its subtree"))
                    .required())
            .output(schema::object().open())
            .access(platform::Access::admin)
            .destructive()
            .withheld_from_agent()
            .handler(&ConfigService::remove);
        s.get("list")
            .title("List config paths")
            .description(
                "The dotted paths of the values under a path (every value when empty), in key "
                "order; "
                "a secret is listed by its path only.")
            .schema(schema::object().prop(
                "path", optional_path("Dotted path whose leaves to list; empty = all")))
            .output(schema::object().open().array("paths", schema::string()).required())
            .access(platform::Access::admin)
            .read_only()
            .idempotent()
            .withheld_from_agent()
            .handler(&ConfigService::list);
    }

    explicit ConfigService(const platform::Host& host)
        : host_(host),
          secrets_(host.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1)) {}

    json get(platform::Request& r) {
        const std::string path = r.str("path");
        const auto segs = config_tree::split(path);
        const bool decrypt = r.args().value("decrypt", false);
        config_tree::Opener open;
        if (decrypt) open = [this](const std::string& sealed) { return unseal(sealed); };
        if (segs.empty()) {
            json all = json::object();
            for (auto& rec : host_.store().scan({}))
                all[rec.key] = config_tree::reveal(parse(rec.value), open);
            return {{"value", all}};
        }
        auto doc = load(segs[0]);
        bool found = false;
        json value = doc ? config_tree::read(*doc, rest(segs), open, found) : json();
        if (!found) throw platform::not_found("path: nothing is set at '" + path + "'");
        return {{"value", value}};
    }

    json set(platform::Request& r) {
        const std::string path = r.str("path");
        const auto segs = config_tree::split(path);
        if (segs.empty()) throw platform::invalid_argument("path: must not be empty");
        if (!r.args().contains("value")) throw platform::invalid_argument("value: is required");
        json value = config_tree::normalise(r.args()["value"]);
        config_tree::check_no_marker(value);
        const bool secret = r.args().value("secret", false);
        if (secret) value = {{config_tree::kSecretKey, seal(dump(value))}};

        update(segs[0], [&](std::optional<json>& doc) {
            if (!doc) doc = json();
            config_tree::set(*doc, rest(segs), value, !secret);
            return true;
        });
        return json::object();
    }

    json remove(platform::Request& r) {
        const std::string path = r.str("path");
        const auto segs = config_tree::split(path);
        if (segs.empty()) throw platform::invalid_argument("path: must not be empty");
        const bool found = update(segs[0], [&](std::optional<json>& doc) {
            if (!doc) return false;
            if (segs.size() == 1) {
                doc.reset();
                return true;
            }
            return config_tree::erase(*doc, rest(segs));
        });
        if (!found) throw platform::not_found("path: nothing is set at '" + path + "'");
        return json::object();
    }

    json list(platform::Request& r) {
        const std::string path = r.str("path");
        const auto segs = config_tree::split(path);
        std::vector<std::string> out;
        if (segs.empty()) {
            for (auto& rec : host_.store().scan({}))
                config_tree::leaves(parse(rec.value), rec.key, out);
        } else if (auto doc = load(segs[0])) {
            const json* node = &*doc;
            for (size_t i = 1; node && i < segs.size(); ++i) {
                auto it = node->is_object() && !config_tree::is_secret(*node) ? node->find(segs[i])
                                                                              : node->end();
                node = node->is_object() && it != node->end() ? &*it : nullptr;
            }
            if (node) config_tree::leaves(*node, path, out);
        }
        return {{"paths", out}};
    }

private:
    static std::vector<std::string> rest(const std::vector<std::string>& segs) {
        return std::vector<std::string>(segs.begin() + 1, segs.end());
    }

    static json parse(const std::string& text) {
        json v = json::parse(text, nullptr, false);
        if (v.is_discarded()) throw platform::internal("config: a stored document is not JSON");
        return v;
    }

    // One read-modify-write of the document `top` as a compare-and-set on its record, repeated
    // when another writer (a replica sharing the store) changed it in between, so no write is
    // lost. `change` edits the document (nullopt: absent; reset it to delete the record) and
    // returns false to write nothing; update returns what `change` returned.
    template <class Change>
    bool update(const std::string& top, Change change) {
        for (int attempt = 0; attempt < 64; ++attempt) {
            const auto raw = host_.store().get(top);
            std::optional<json> doc;
            if (raw) doc = parse(*raw);
            if (!change(doc)) return false;
            std::optional<std::string> next;
            if (doc) next = dump(*doc);
            if (host_.store().compare_and_set(top, raw, next)) return true;
        }
        throw platform::unavailable("config: " + top + " kept changing; try again");
    }

    std::optional<json> load(const std::string& top) const {
        auto raw = host_.store().get(top);
        if (!raw) return std::nullopt;
        return parse(*raw);
    }

    std::string seal(const std::string& plain) const {
        if (!secrets_)
            throw platform::unavailable(
                "secret: sealing needs the privileged \"secrets\" sub-table (list config under "
                "privileged in the profile)");
        std::string out;
        platform::check(
            secrets_->seal(host_.ctx(), platform::view(plain), platform::append_sink, &out),
            "secret: sealing failed");
        return out;
    }

    json unseal(const std::string& sealed) const {
        if (!secrets_)
            throw platform::unavailable(
                "decrypt: opening secrets needs the privileged \"secrets\" sub-table");
        std::string out;
        auto st = secrets_->open(host_.ctx(), platform::view(sealed), platform::append_sink, &out);
        if (st == PLATFORM_PERMISSION_DENIED)
            throw platform::permission_denied(
                "decrypt: a secret was sealed with another key or altered");
        platform::check(st, "decrypt: opening a secret failed");
        return parse(out);
    }

    platform::Host host_;
    const platform_secrets_api_t* secrets_;
};

PLATFORM_SERVICE(ConfigService)
