// store_commands.cpp — `platform store read|write|delete|list` over the `store` built-in
// (plugins/store/README.md), printing what micro's CLI prints (docs/cli.md).
#include <cmath>
#include <iostream>
#include <map>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kStoreHelp =
    "Read and write the records of a store table (admin only).\n\n"
    "Examples:\n"
    "  platform store write greeting hello --expiry 1h\n"
    "  platform store read greeting                        hello\n"
    "  platform store read --prefix greet -v                KEY, VALUE and EXPIRY columns\n"
    "  platform store list --table notes --order desc --limit 10\n"
    "  platform store delete greeting\n\n"
    "Usage: platform store read [flags] <key> | write [--expiry d] <key> <value> | delete <key> | "
    "list [flags]\n\n"
    "Flags:\n"
    "  --table name            the table (default `default`; each service's own is named after its "
    "plugin)\n"
    "  --prefix, --suffix      read: the key is a prefix / suffix (both: keys with both); list: "
    "--prefix p\n"
    "  --limit n, --offset n   page the matches (limit 1-1000, default 100)\n"
    "  --order asc|desc        key order (default asc)\n"
    "  -v, --verbose           read: a KEY VALUE EXPIRY table instead of the bare values\n"
    "  --expiry 1h30m          write: the record expires after this long\n"
    "  -o json|table|raw       read/list as JSON (records or keys)\n\n"
    "A missing key prints `Not found` and exits 5; write and delete print nothing. Other words "
    "are\n"
    "the store service's methods (platform help store).\n";

struct Flags {
    std::map<std::string, std::string>
        values;  // --table, --limit, --offset, --order, --expiry, --prefix=, --suffix=
    bool prefix = false, suffix = false, verbose = false;
    Args words;
};

Flags parse(const Args& args) {
    static const std::map<std::string, bool> known = {
        // name -> takes a value
        {"--table", true},   {"--limit", true},    {"--offset", true},
        {"--order", true},   {"--expiry", true},   {"--prefix", false},
        {"--suffix", false}, {"--verbose", false}, {"-v", false}};
    Flags f;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("-", 0) != 0 || a == "-") {
            f.words.push_back(a);
            continue;
        }
        if (a == "--") {
            f.words.insert(f.words.end(), args.begin() + static_cast<long>(i) + 1, args.end());
            break;
        }
        const auto eq = a.find('=');
        const std::string name = a.substr(0, eq);
        auto it = known.find(name);
        if (it == known.end())
            throw UsageError("Unknown flag: " + name + " (see `platform store --help`)");
        if (eq != std::string::npos) {
            f.values[name] = a.substr(eq + 1);
        } else if (it->second) {
            if (i + 1 >= args.size()) throw UsageError(name + ": needs a value");
            f.values[name] = args[++i];
        } else {
            (name == "--prefix" ? f.prefix : name == "--suffix" ? f.suffix : f.verbose) = true;
        }
    }
    return f;
}

int64_t integer(const Flags& f, const std::string& name) {
    const std::string& text = f.values.at(name);
    char* end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end || v < 0)
        throw UsageError(name + ": must be a whole number (got '" + text + "')");
    return v;
}

// The shared part of read and list requests: table, prefix/suffix, paging, order.
json query(const Flags& f, const std::string& key, bool key_is_text) {
    json q = {{"table", f.values.count("--table") ? f.values.at("--table") : "default"}};
    for (const char* name : {"--prefix", "--suffix"})
        if (f.values.count(name)) q[name + 2] = f.values.at(name);
    if (key_is_text) {
        if (f.prefix) q["prefix"] = key;
        if (f.suffix) q["suffix"] = key;
        if (!f.prefix && !f.suffix) q["key"] = key;
    }
    for (const char* name : {"--limit", "--offset"})
        if (f.values.count(name)) q[name + 2] = integer(f, name);
    if (f.values.count("--order")) {
        const std::string& o = f.values.at("--order");
        if (o != "asc" && o != "desc")
            throw UsageError("--order: must be asc or desc (got '" + o + "')");
        q["order"] = o;
    }
    return q;
}

std::string expiry_text(const json& e) {
    const int64_t s = e.is_number() ? e.get<int64_t>() : 0;
    return s <= 0 ? "None" : std::to_string(s) + "s";
}

}  // namespace

int store_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (auto done = subcommand_or_method(
                "store", in, args, c, {"read", "write", "delete", "del", "list"}, kStoreHelp))
            return *done;
        const std::string sub = args[0];
        Flags f = parse(Args(args.begin() + 1, args.end()));
        RpcClient rpc;
        if (sub == "read") {
            if (f.words.size() != 1) throw UsageError("Usage: platform store read [flags] <key>");
            auto r =
                rpc.call("store", "Store.Read", query(f, f.words[0], true), CallOptions::reads());
            if (!r.ok()) return report_missing(r);
            const json records = r.body.value("records", json::array());
            if (c.format && *c.format != Format::table) {
                print(std::cout, records, *c.format);
            } else if (f.verbose || c.format) {
                std::vector<std::vector<std::string>> rows;
                for (const auto& rec : records)
                    rows.push_back({rec.value("key", ""), rec.value("value", ""),
                                    expiry_text(rec.value("expiry", json(0)))});
                print_table(std::cout, {"key", "value", "expiry"}, rows);
            } else {
                for (const auto& rec : records) std::cout << rec.value("value", "") << "\n";
            }
            return 0;
        }
        if (sub == "write") {
            if (f.words.size() != 2)
                throw UsageError("Usage: platform store write [--expiry d] <key> <value>");
            json request = query(f, "", false);
            request["key"] = f.words[0];
            request["value"] = f.words[1];
            if (f.values.count("--expiry"))
                request["ttl"] = static_cast<int64_t>(
                    std::ceil(parse_duration("--expiry", f.values.at("--expiry"))));
            auto r = rpc.call("store", "Store.Write", request);  // a submission: never retried
            return r.ok() ? 0 : report_missing(r);
        }
        if (sub == "delete" || sub == "del") {
            if (f.words.size() != 1) throw UsageError("Usage: platform store delete <key>");
            json request = {{"table", query(f, "", false)["table"]}, {"key", f.words[0]}};
            auto r = rpc.call("store", "Store.Delete", request);
            return r.ok() ? 0 : report_missing(r);
        }
        // list
        if (f.words.size() > 1) throw UsageError("Usage: platform store list [flags] [<prefix>]");
        json q = query(f, "", false);
        if (f.words.size() == 1) q["prefix"] = f.words[0];
        auto r = rpc.call("store", "Store.List", q, CallOptions::reads());
        if (!r.ok()) return report_missing(r);
        const json keys = r.body.value("keys", json::array());
        if (c.format && *c.format != Format::table)
            print(std::cout, keys, *c.format);
        else
            for (const auto& k : keys)
                std::cout << (k.is_string() ? k.get<std::string>() : k.dump()) << "\n";
        return 0;
    });
}

}  // namespace platform::cli
