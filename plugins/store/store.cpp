// store — the platform's store service, after micro's (README.md), over the privileged "store"
// sub-table: read, write, delete and list the records of any table of the profile's store.
#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace schema = platform::schema;

using platform::json;

namespace {

// Every endpoint names a table; read and list scan it the same way.
const schema::Object kTable =
    schema::object()
        .str("table")
        .min_len(1)
        .max_len(128)
        .pattern("^[A-Za-z0-9_.:-]+$")
        .required()
        .doc(
            "Table name: each service's records live in the table named after its plugin id "
            "(notes, config...)");
const schema::Object kScan =
    schema::object()
        .str("prefix")
        .max_len(4096)
        .doc("Only keys starting with this text")
        .str("suffix")
        .max_len(4096)
        .doc("Only keys ending with this text (applied after the prefix scan)")
        .prop("limit", schema::limit(1000, 100, "At most this many results (1-1000)"))
        .prop("offset", schema::offset("Results skipped first, after filtering"))
        .max(1000000)
        .str("order")
        .one_of({"asc", "desc"})
        .def("asc")
        .doc("Key order: asc (bytewise) or desc");
// A record's key.
schema::Value key_arg(const char* doc) {
    return schema::string().min_len(1).max_len(4096).doc(doc);
}
const schema::Object kRecordOutput =
    schema::object()
        .open()
        .array("records",
               schema::object().open().str("key").str("value").integer("expiry").doc(
                   "Seconds left before the record expires; 0 = none or not reported by the store"))
        .required();

struct Query {
    std::string prefix, suffix;
    uint32_t limit = 100, offset = 0;
    bool desc = false;
};

Query query_of(const platform::Request& r) {
    Query q;
    q.prefix = r.str("prefix");
    q.suffix = r.str("suffix");
    const json& a = r.args();
    auto int_arg = [&](const char* name, int64_t def, int64_t lo, int64_t hi) {
        auto it = a.find(name);
        if (it == a.end() || it->is_null()) return def;
        if (!it->is_number_integer())
            throw platform::invalid_argument(std::string(name) + ": must be an integer");
        int64_t v = it->get<int64_t>();
        if (v < lo || v > hi)
            throw platform::invalid_argument(std::string(name) + ": must be between " +
                                             std::to_string(lo) + " and " + std::to_string(hi));
        return v;
    };
    q.limit = static_cast<uint32_t>(int_arg("limit", 100, 1, 1000));
    q.offset = static_cast<uint32_t>(int_arg("offset", 0, 0, 1000000));
    const std::string order = r.str("order", "asc");
    if (order != "asc" && order != "desc")
        throw platform::invalid_argument("order: must be asc or desc");
    q.desc = order == "desc";
    return q;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

class StoreService {
public:
    static void describe(platform::ServiceSpec<StoreService>& s) {
        s.id("store").version("1.0.0").service("store").summary(
            "Records of any table of the platform's store");
        s.get("read")
            .title("Read records")
            .description(
                "One record by exact key (404 when absent), or the records whose key has the "
                "prefix and/or "
                "suffix, in key order with limit and offset applied after filtering. Without key, "
                "prefix and "
                "suffix: every record of the table, paged.")
            .schema(schema::object()
                        .include(kTable)
                        .prop("key", key_arg("Exact key to read (not with prefix or suffix)"))
                        .include(kScan))
            .output(kRecordOutput)
            .access(platform::Access::admin)
            .read_only()
            .idempotent()
            .withheld_from_agent()
            .handler(&StoreService::read);
        s.post("write")
            .title("Write a record")
            .description(
                "Writes (or overwrites) one record; ttl makes it expire after that many seconds.")
            .schema(schema::object()
                        .include(kTable)
                        .prop("key", key_arg("Record key"))
                        .required()
                        .str("value")
                        .max_len(1048576)
                        .required()
                        .doc("Record value (text)")
                        .integer("ttl")
                        .range(0, 315360000)
                        .def(0)
                        .doc("Seconds until the record expires; 0 = never"))
            .output(schema::object().open())
            .access(platform::Access::admin)
            .idempotent()
            .withheld_from_agent()
            .max_body(2u * 1024u * 1024u)
            .handler(&StoreService::write);
        s.post("delete")
            .title("Delete a record")
            .description(
                "Deletes one record by key. Deleting a missing key succeeds with deleted=false, as "
                "in micro.")
            .schema(schema::object().include(kTable).prop("key", key_arg("Record key")).required())
            .output(schema::object().open().boolean("deleted").required())
            .access(platform::Access::admin)
            .destructive()
            .idempotent()
            .withheld_from_agent()
            .handler(&StoreService::remove);
        s.get("list")
            .title("List keys")
            .description(
                "The keys of a table, with the same prefix, suffix, order, limit and offset rules "
                "as read.")
            .schema(schema::object().include(kTable).include(kScan))
            .output(schema::object().open().array("keys", schema::string()).required())
            .access(platform::Access::admin)
            .read_only()
            .idempotent()
            .withheld_from_agent()
            .handler(&StoreService::list);
        s.get("tables")
            .title("List tables")
            .description(
                "The tables that hold records; 501 when the store provider cannot list them.")
            .output(schema::object().open().array("tables", schema::string()).required())
            .access(platform::Access::admin)
            .read_only()
            .idempotent()
            .withheld_from_agent()
            .handler(&StoreService::tables);
    }

    explicit StoreService(const platform::Host& host)
        : host_(host), store_(host.service<platform_store_api_t>(PLATFORM_SERVICE_STORE, 1)) {
        if (!store_)
            throw platform::unavailable(
                "store needs the privileged \"store\" sub-table (list store under privileged in "
                "the profile)");
    }

    json read(platform::Request& r) {
        const std::string table = table_of(r), key = r.str("key");
        json records = json::array();
        if (!key.empty()) {
            if (r.args().contains("prefix") || r.args().contains("suffix"))
                throw platform::invalid_argument(
                    "key: read either one key or by prefix/suffix, not both");
            std::string value;
            auto st = store_->get(host_.ctx(), platform::view(table), platform::view(key),
                                  platform::append_sink, &value);
            if (st == PLATFORM_NOT_FOUND)
                throw platform::not_found("key: no record '" + key + "' in table '" + table + "'");
            platform::check(st, "store: read failed");
            records.push_back(record(key, value));
        } else {
            scan(table, query_of(r),
                 [&](std::string k, std::string v) { records.push_back(record(k, v)); });
        }
        return {{"records", records}};
    }

    json write(platform::Request& r) {
        const std::string table = table_of(r), key = r.str("key"), value = r.str("value");
        if (key.empty()) throw platform::invalid_argument("key: must not be empty");
        if (!r.args().contains("value") || !r.args()["value"].is_string())
            throw platform::invalid_argument("value: must be a string");
        int64_t ttl = r.args().value("ttl", int64_t{0});
        if (ttl < 0 || ttl > 315360000)
            throw platform::invalid_argument("ttl: must be between 0 and 315360000 seconds");
        platform::check(store_->put(host_.ctx(), platform::view(table), platform::view(key),
                                    platform::view(value), ttl * 1000),
                        "store: write failed");
        return json::object();
    }

    json remove(platform::Request& r) {
        const std::string table = table_of(r), key = r.str("key");
        if (key.empty()) throw platform::invalid_argument("key: must not be empty");
        auto st = store_->del(host_.ctx(), platform::view(table), platform::view(key));
        if (st == PLATFORM_NOT_FOUND) return {{"deleted", false}};
        platform::check(st, "store: delete failed");
        return {{"deleted", true}};
    }

    json list(platform::Request& r) {
        const std::string table = table_of(r);
        json keys = json::array();
        scan(table, query_of(r), [&](std::string k, std::string) { keys.push_back(std::move(k)); });
        return {{"keys", keys}};
    }

    json tables(platform::Request&) {
        std::string out;
        auto st = store_->tables(host_.ctx(), platform::append_sink, &out);
        if (st == PLATFORM_UNSUPPORTED)
            throw platform::Error(platform::Code::unsupported,
                                  "tables: this store provider cannot list its tables");
        platform::check(st, "store: listing tables failed");
        json names = json::parse(out, nullptr, false);
        if (!names.is_array())
            throw platform::internal(
                "store: the provider listed tables as something other than a JSON array");
        return {{"tables", names}};
    }

private:
    static std::string table_of(const platform::Request& r) {
        std::string t = r.str("table");
        if (t.empty()) throw platform::invalid_argument("table: is required");
        return t;
    }

    // The store sub-table reports no TTL, so expiry is 0 (README.md, "Expiry").
    static json record(const std::string& key, const std::string& value) {
        return {{"key", key}, {"value", value}, {"expiry", 0}};
    }

    // Prefix scan in the provider; the suffix filter, offset and limit after it (micro's order:
    // filter, then offset, then limit). Without a suffix the provider pages by itself.
    template <class F>
    void scan(const std::string& table, const Query& q, F&& emit) const {
        struct State {
            const Query* q;
            F* emit;
            uint32_t skipped = 0, sent = 0;
        } st{&q, &emit};
        platform_scan_t s{};
        s.struct_size = sizeof s;
        s.prefix = platform::view(q.prefix);
        s.order = q.desc ? PLATFORM_ORDER_DESC : PLATFORM_ORDER_ASC;
        const bool filter = !q.suffix.empty();
        s.limit = filter ? 0 : q.limit;
        s.offset = filter ? 0 : q.offset;
        auto sink = [](void* user, platform_str_t k, platform_str_t v) -> bool {
            auto* st = static_cast<State*>(user);
            std::string key = platform::copy(k);
            if (!st->q->suffix.empty()) {
                if (!ends_with(key, st->q->suffix)) return true;
                if (st->skipped < st->q->offset) return ++st->skipped, true;
            }
            (*st->emit)(std::move(key), platform::copy(v));
            return ++st->sent < st->q->limit;
        };
        platform::check(store_->scan(host_.ctx(), platform::view(table), &s, sink, &st),
                        "store: scan failed");
    }

    platform::Host host_;
    const platform_store_api_t* store_;
};

PLATFORM_SERVICE(StoreService)
