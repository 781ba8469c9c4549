#include "dynamic.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <platform/validation/schema.hpp>
#include <sstream>

namespace platform::cli {

using nlohmann::json;

namespace {

std::string type_of(const json& schema) {
    if (!schema.is_object() || !schema.contains("type")) return "any";
    const json& t = schema["type"];
    if (t.is_string()) return t;
    for (const auto& x : t)
        if (x != "null") return x;
    return "any";
}

// A flag name resolved against the schema: the path of property names and the leaf schema.
struct Target {
    std::vector<std::string> path;
    const json* schema = nullptr;
};

bool resolve(const json& schema, const std::string& name, Target& out) {
    if (!schema.contains("properties")) return false;
    const json& props = schema["properties"];
    for (const std::string& candidate : {name, [&] {
                                             std::string n = name;
                                             std::replace(n.begin(), n.end(), '-', '_');
                                             return n;
                                         }()})
        if (props.contains(candidate)) {
            out.path.push_back(candidate);
            out.schema = &props[candidate];
            return true;
        }
    // Nested: the longest prefix naming an object property, split on '_' or '-'.
    for (size_t i = name.size(); i-- > 0;) {
        if (name[i] != '_' && name[i] != '-') continue;
        std::string head = name.substr(0, i);
        std::replace(head.begin(), head.end(), '-', '_');
        if (props.contains(head) && type_of(props[head]) == "object") {
            Target inner;
            if (resolve(props[head], name.substr(i + 1), inner)) {
                out.path.push_back(head);
                out.path.insert(out.path.end(), inner.path.begin(), inner.path.end());
                out.schema = inner.schema;
                return true;
            }
        }
    }
    return false;
}

json convert(const std::string& flag, const json& schema, const std::string& text) {
    const std::string type = type_of(schema);
    auto bad = [&](const std::string& what) {
        return UsageError("--" + flag + ": must be " + what + " (got '" + text + "')");
    };
    if (type == "integer") {
        char* end = nullptr;
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end) throw bad("an integer");
        return v;
    }
    if (type == "number") {
        char* end = nullptr;
        double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end) throw bad("a number");
        return v;
    }
    if (type == "boolean") {
        if (text == "true" || text == "1" || text == "yes") return true;
        if (text == "false" || text == "0" || text == "no") return false;
        throw bad("true or false");
    }
    if (type == "object") {
        json v = json::parse(text, nullptr, false);
        if (!v.is_object()) throw bad("a JSON object");
        return v;
    }
    if (type == "any") {
        json v = json::parse(text, nullptr, false);
        return v.is_discarded() ? json(text) : v;
    }
    return text;
}

// An object's own required fields are marked required only when the object itself is: an optional
// object's fields are needed only when it is given.
void flag_lines(const json& schema, const std::string& prefix, const json& required,
                std::ostringstream& os, const std::vector<std::string>& order = {}) {
    if (!schema.contains("properties")) return;
    std::vector<std::string> names = order;
    for (const auto& [name, _] : schema["properties"].items())
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    for (const auto& name : names) {
        if (!schema["properties"].contains(name)) continue;
        // A boolean sub-schema (`true`: anything) describes nothing more than an empty one.
        const json& declared = schema["properties"][name];
        const json prop = declared.is_object() ? declared : json::object();
        const std::string flag = prefix + name;
        const std::string type = type_of(prop);
        bool req = std::find(required.begin(), required.end(), name) != required.end();
        if (type == "object" && prop.contains("properties")) {
            flag_lines(prop, flag + "_",
                       req ? prop.value("required", json::array()) : json::array(), os);
            continue;
        }
        std::string line = "  --" + flag + " " + type;
        line.resize(std::max<size_t>(line.size() + 1, 30), ' ');
        line += req ? "required  " : "          ";
        line += prop.value("description", "");
        std::vector<std::string> limits;
        if (prop.contains("enum")) {
            std::string e;
            for (const auto& v : prop["enum"])
                e += (e.empty() ? "" : ", ") + (v.is_string() ? v.get<std::string>() : v.dump());
            limits.push_back("one of " + e);
        }
        if (prop.contains("minimum")) limits.push_back("min " + prop["minimum"].dump());
        if (prop.contains("maximum")) limits.push_back("max " + prop["maximum"].dump());
        if (prop.contains("maxLength"))
            limits.push_back("at most " + prop["maxLength"].dump() + " characters");
        if (prop.contains("maxBytes"))
            limits.push_back("at most " + prop["maxBytes"].dump() + " bytes");
        if (prop.contains("default")) limits.push_back("default " + prop["default"].dump());
        if (type == "array") limits.push_back("repeat the flag or separate with commas");
        if (!limits.empty()) {
            std::string l;
            for (auto& x : limits) l += (l.empty() ? "" : "; ") + x;
            line += " (" + l + ")";
        }
        os << line << "\n";
    }
}

std::string usage_args(const json& schema) {
    std::string out;
    // "required" may name arguments "properties" does not declare (the host allows it unless
    // additionalProperties is false), and may come without "properties" at all.
    const json props = schema.contains("properties") ? schema["properties"] : json::object();
    for (const auto& r : schema.value("required", json::array()))
        if (r.is_string())
            out += " --" + r.get<std::string>() + " <" +
                   type_of(props.value(r.get<std::string>(), json::object())) + ">";
    if (props.size() > schema.value("required", json::array()).size()) out += " [options]";
    return out;
}

}  // namespace

ServiceInfo service_info(const json& service, const std::string& typed) {
    ServiceInfo s;
    s.name = service.value("name", "");
    s.typed = typed;
    if (service.contains("metadata")) s.summary = service["metadata"].value("summary", "");
    for (const auto& e : service.value("endpoints", json::array())) {
        MethodInfo m;
        m.canonical = e.value("name", "");
        const json md = e.value("metadata", json::object());
        m.path = md.value("path", "");
        m.name = m.path.substr(m.path.rfind('/') + 1);
        m.title = md.value("title", "");
        m.description = md.value("description", "");
        m.verb = md.value("verb", "");
        m.access = md.value("access", "");
        m.flags = md.value("flags", "");
        m.max_body = md.value("max_body", "");
        m.since = md.value("since", "");
        m.price = md.value("price", "");
        m.schema = e.value("schema", json::object());
        if (e.contains("request"))
            for (const auto& v : e["request"].value("values", json::array()))
                m.order.push_back(v.value("name", ""));
        s.methods.push_back(std::move(m));
    }
    return s;
}

const MethodInfo* find_method(const ServiceInfo& s, const std::string& word) {
    auto norm = [](std::string x) {
        std::string out;
        for (char c : x)
            if (c != '_' && c != '-' && c != '.')
                out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    for (const auto& m : s.methods)
        if (m.name == word || m.canonical == word) return &m;
    for (const auto& m : s.methods)
        if (norm(m.name) == norm(word)) return &m;
    return nullptr;
}

json parse_flags(const MethodInfo& m, const std::vector<std::string>& args,
                 const ValueReader& read) {
    json request = json::object();
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 3 || a.compare(0, 2, "--") != 0)
            throw UsageError("unexpected argument '" + a + "' (arguments are --name value)");
        std::string name = a.substr(2), value;
        bool has_value = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            has_value = true;
        }
        Target t;
        if (!resolve(m.schema, name, t)) throw UsageError("Unknown flag: --" + name);
        const std::string type = type_of(*t.schema);
        if (!has_value) {
            if (type == "boolean" &&
                (i + 1 >= args.size() || (args[i + 1] != "true" && args[i + 1] != "false")))
                value = "true";
            else if (i + 1 < args.size())
                value = read ? read(name, args[++i]) : args[++i];
            else
                throw UsageError("--" + name + ": needs a value");
        } else if (read) {
            value = read(name, value);
        }
        if (!validation::valid_utf8(value))  // the request is JSON, which carries only UTF-8
            throw UsageError("--" + name + ": must be UTF-8 text (the value has other bytes)");
        json* node = &request;
        for (size_t k = 0; k + 1 < t.path.size(); ++k) node = &(*node)[t.path[k]];
        const std::string& leaf = t.path.back();
        if (type == "array") {
            const json items = t.schema->value("items", json::object());
            json& arr = (*node)[leaf];
            if (!arr.is_array()) arr = json::array();
            if (json whole = json::parse(value, nullptr, false);
                value.rfind("[", 0) == 0 && whole.is_array()) {
                for (const auto& item : whole)
                    arr.push_back(item.is_string() ? convert(name, items, item.get<std::string>())
                                                   : item);
                continue;
            }
            if (type_of(items) == "object") {  // one JSON object per flag: commas belong to it
                arr.push_back(convert(name, items, value));
                continue;
            }
            std::stringstream ss(value);
            for (std::string item; std::getline(ss, item, ',');)
                arr.push_back(convert(name, items, item));
        } else {
            (*node)[leaf] = convert(name, *t.schema, value);
        }
    }
    return request;
}

namespace {
std::string missing_in(const json& schema, const json& given, const std::string& prefix,
                       const std::vector<std::string>& order) {
    std::vector<std::string> names = order;
    for (const auto& r : schema.value("required", json::array()))
        if (r.is_string() && std::find(names.begin(), names.end(), r) == names.end())
            names.push_back(r);
    const json required = schema.value("required", json::array());
    const json props = schema.value("properties", json::object());
    for (const auto& name : names) {
        const bool is_required =
            std::find(required.begin(), required.end(), name) != required.end();
        const bool present = given.is_object() && given.contains(name);
        if (is_required && !present) return "--" + prefix + name;
        const json prop = props.contains(name) && props[name].is_object() ? props[name] : json();
        if (present && prop.is_object() && type_of(prop) == "object" && prop.contains("properties"))
            if (std::string nested = missing_in(prop, given[name], prefix + name + "_", {});
                !nested.empty())
                return nested;
    }
    return "";
}
}  // namespace

std::string missing_required(const MethodInfo& m, const json& request) {
    return missing_in(m.schema, request, "", m.order);
}

bool retryable(const MethodInfo& m) {
    auto has = [&](const std::string& flag) {
        return ("," + m.flags + ",").find("," + flag + ",") != std::string::npos;
    };
    return m.verb == "GET" || has("read_only") || has("idempotent");
}

std::string service_help(const ServiceInfo& s) {
    std::ostringstream os;
    os << "platform " << s.typed << (s.summary.empty() ? "" : " — " + s.summary) << "\n";
    os << "Service " << s.name << "\n";
    if (!s.methods.empty()) {
        os << "\nExamples:\n";
        for (size_t i = 0; i < s.methods.size() && i < 2; ++i)
            os << "  platform " << s.typed << " " << s.methods[i].name
               << usage_args(s.methods[i].schema) << "\n";
    }
    os << "\nUsage: platform " << s.typed << " <method> [--argument value ...]\n\nMethods:\n";
    size_t width = 0;
    for (const auto& m : s.methods) width = std::max(width, m.name.size());
    for (const auto& m : s.methods) {
        os << "  " << m.name << std::string(width - m.name.size() + 2, ' ') << m.verb
           << std::string(m.verb.size() < 5 ? 5 - m.verb.size() : 1, ' ') << m.title << "\n";
        std::ostringstream args;
        flag_lines(m.schema, "", m.schema.value("required", json::array()), args, m.order);
        std::string a = args.str();
        if (a.empty()) a = "  (no arguments)\n";
        std::istringstream lines(a);
        for (std::string l; std::getline(lines, l);) os << "      " << l << "\n";
    }
    os << "\nRun `platform " << s.typed << " <method> --help` for one method.\n";
    return os.str();
}

std::string method_help(const ServiceInfo& s, const MethodInfo& m) {
    std::ostringstream os;
    os << "platform " << s.typed << " " << m.name << (m.title.empty() ? "" : " — " + m.title)
       << "\n";
    os << "\nExample:\n  platform " << s.typed << " " << m.name << usage_args(m.schema) << "\n\n";
    if (!m.description.empty()) os << m.description << "\n\n";
    os << m.verb << " " << m.path << " · " << m.canonical << " · access: " << m.access;
    if (!m.flags.empty()) os << " · flags: " << m.flags;
    os << "\n";
    if (!m.max_body.empty()) os << "Request body: at most " << m.max_body << " bytes\n";
    if (!m.price.empty()) os << "Price per call: " << m.price << "\n";
    if (!m.since.empty()) os << "Since: " << m.since << "\n";
    os << (retryable(m) ? "Retried on 500/408 (reads only)\n"
                        : "Never retried automatically (a submission)\n");
    std::ostringstream args;
    flag_lines(m.schema, "", m.schema.value("required", json::array()), args, m.order);
    os << "\nArguments:\n" << (args.str().empty() ? "  (none)\n" : args.str());
    os << "\nGlobal options: -e/--env <name> (before the service), --output json|table|raw, "
          "--help\n";
    return os.str();
}

}  // namespace platform::cli
