// platform/sdk/config.hpp — read the platform's config service from a plugin.
//
//   platform::Config cfg(host);                        // as the plugin's own service account
//   std::string url = cfg.string("notes.base_url", "http://localhost");
//   int64_t limit   = cfg.integer("notes.limit", 50);  // "50" (a string) also reads as 50
//   bool on         = cfg.boolean("notes.enabled");    // true, 1, "true", "1", "yes", "on"
//   auto key        = cfg.decrypt().string("notes.api_key");   // secrets in clear
//   Settings s      = cfg.scan<Settings>("notes");     // nlohmann from_json; throws on a mismatch
//
// Every read is one call to Config.Get (Host::call("config", "Config.Get", {path, decrypt})).
// Typed getters coerce on a best-effort basis and always return a usable value: anything missing,
// unreadable or of a type that does not convert gives the default, and the call's failure (no config
// service, 403, 404) is kept in ConfigValue::code()/error() for whoever wants to know. Structured
// reads (object(), scan<T>()) are strict: a value of the wrong shape throws
// platform::Error(invalid_argument) naming the path; a missing value gives the default.
//
// Secrets read as the string "[secret]" unless decrypt() is used. The config service's endpoints
// need the admin scope; pass the call being handled (`Config(host, request.call())`) to read as
// that caller instead of as the plugin's service account.
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/host.hpp>
#include <platform/sdk/text.hpp>
#include <string>
#include <string_view>

namespace platform {

// One value read from the config service, or the reason there is none.
class ConfigValue {
public:
    ConfigValue() = default;
    ConfigValue(std::string path, json value, Code code, std::string error)
        : path_(std::move(path)), value_(std::move(value)), code_(code), error_(std::move(error)) {}

    // True when the config service answered with a value (null counts as absent).
    bool exists() const { return code_ == Code::ok && !value_.is_null(); }
    const json& raw() const { return value_; }
    Code code() const { return code_; }
    const std::string& error() const { return error_; }
    const std::string& path() const { return path_; }

    // A string; numbers and booleans as their JSON text, objects and arrays as JSON.
    std::string string(std::string def = {}) const {
        if (!exists()) return def;
        if (value_.is_string()) return value_.get<std::string>();
        return value_.dump(-1, ' ', false, json::error_handler_t::replace);
    }

    // An integer; a float is truncated, a boolean is 0/1, a string is parsed ("42", " 42 ", "42.0").
    int64_t integer(int64_t def = 0) const {
        if (!exists()) return def;
        if (value_.is_number_integer()) return value_.get<int64_t>();
        if (value_.is_boolean()) return value_.get<bool>() ? 1 : 0;
        double d = 0;
        if (value_.is_number_float())
            d = value_.get<double>();
        else if (value_.is_string()) {
            const std::string s = trimmed(value_.get<std::string>());
            if (s.empty()) return def;
            errno = 0;
            char* end = nullptr;
            long long ll = std::strtoll(s.c_str(), &end, 10);
            if (errno == 0 && end && *end == '\0') return ll;
            if (!parse_double(s, d)) return def;
        } else {
            return def;
        }
        if (!std::isfinite(d) || d >= 9.2e18 || d <= -9.2e18) return def;
        return static_cast<int64_t>(d);
    }

    // A number; a boolean is 0/1, a string is parsed ("2.5").
    double number(double def = 0) const {
        if (!exists()) return def;
        if (value_.is_number()) return value_.get<double>();
        if (value_.is_boolean()) return value_.get<bool>() ? 1 : 0;
        double d = 0;
        if (value_.is_string() && parse_double(trimmed(value_.get<std::string>()), d)) return d;
        return def;
    }

    // A boolean; a number is true unless 0, a string reads true/1/yes/on or false/0/no/off (any case).
    bool boolean(bool def = false) const {
        if (!exists()) return def;
        if (value_.is_boolean()) return value_.get<bool>();
        if (value_.is_number()) return value_.get<double>() != 0;
        if (!value_.is_string()) return def;
        const std::string s = lower(trimmed(value_.get<std::string>()));
        if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
        if (s == "false" || s == "0" || s == "no" || s == "off") return false;
        return def;
    }

    // The value as an object; {} when absent; throws invalid_argument when it is not an object.
    json object() const {
        if (!exists()) return json::object();
        if (!value_.is_object())
            throw invalid_argument(path_ + ": expected an object, the config holds " +
                                   std::string(value_.type_name()));
        return value_;
    }

    // The value converted with nlohmann's from_json; `def` when absent; throws invalid_argument
    // naming the path when the value does not have T's shape.
    template <class T>
    T scan(T def = T{}) const {
        if (!exists()) return def;
        try {
            return value_.get<T>();
        } catch (const json::exception& e) {
            throw invalid_argument(path_ + ": the config value does not match the expected type (" +
                                   e.what() + ")");
        }
    }

private:
    static std::string trimmed(const std::string& s) {
        size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
        return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
    }
    static bool parse_double(const std::string& s, double& out) {
        if (s.empty()) return false;
        errno = 0;
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (errno != 0 || !end || *end != '\0' || !std::isfinite(d)) return false;
        out = d;
        return true;
    }

    std::string path_;
    json value_;
    Code code_ = Code::not_found;
    std::string error_;
};

// Reads the config service. Cheap to copy; thread-safe like Host.
class Config {
public:
    // `parent`: the call being handled, to read as its caller; nullptr reads as this plugin's
    // service account. `service`: the config service's name (short or full).
    explicit Config(const Host& host, platform_call_t* parent = nullptr,
                    std::string service = "config")
        : host_(host), parent_(parent), service_(std::move(service)) {}

    // A copy that reads secrets in clear (or not).
    Config decrypt(bool on = true) const {
        Config c = *this;
        c.decrypt_ = on;
        return c;
    }

    // One read of `path` ("" = everything). Never throws: failures are in the result's code().
    ConfigValue get(std::string_view path) const {
        const std::string p(path);
        try {
            auto r = host_.call(service_, "Config.Get", json{{"path", p}, {"decrypt", decrypt_}},
                                parent_);
            if (!r.ok()) return ConfigValue(p, nullptr, r.code, r.body);
            json body = json::parse(r.body, nullptr, false);
            if (!body.is_object() || !body.contains("value"))
                return ConfigValue(p, nullptr, Code::bad_gateway,
                                   "config: the answer has no value");
            return ConfigValue(p, body["value"], Code::ok, {});
        } catch (const Error& e) {
            return ConfigValue(p, nullptr, e.code(), e.what());
        } catch (const std::exception& e) {
            return ConfigValue(p, nullptr, Code::internal, e.what());
        }
    }

    std::string string(std::string_view path, std::string def = {}) const {
        return get(path).string(std::move(def));
    }
    int64_t integer(std::string_view path, int64_t def = 0) const { return get(path).integer(def); }
    double number(std::string_view path, double def = 0) const { return get(path).number(def); }
    bool boolean(std::string_view path, bool def = false) const { return get(path).boolean(def); }
    json object(std::string_view path) const { return get(path).object(); }
    template <class T>
    T scan(std::string_view path, T def = T{}) const {
        return get(path).template scan<T>(std::move(def));
    }

private:
    Host host_;
    platform_call_t* parent_ = nullptr;
    std::string service_;
    bool decrypt_ = false;
};

}  // namespace platform
