#include "environments.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "dynamic.hpp"
#include "state_files.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const std::vector<Environment>& builtins() {
    static const std::vector<Environment> envs = {
        {"cluster", "platform-proxy.platform.svc.cluster.local:8081",
         "Kubernetes install, from inside the cluster", true},
        {"dev", "127.0.0.1:18081", "Second server on this machine, for development", true},
        {"local", "127.0.0.1:8081", "Local running platform server", true},
    };
    return envs;
}

std::string& flag_value() {
    static std::string v;
    return v;
}

std::string env_var(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

bool valid_name(const std::string& name) {
    static const std::regex re("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    return std::regex_match(name, re);
}

}  // namespace

std::vector<Environment> environments() {
    std::vector<Environment> out = builtins();
    json config = read_state(config_path());
    if (config.contains("envs") && config["envs"].is_object())
        for (const auto& item : config["envs"].items()) {
            const std::string& name = item.key();
            const json& e = item.value();
            if (!e.is_object() || find_if(out.begin(), out.end(),
                                          [&](auto& x) { return x.name == name; }) != out.end())
                continue;
            out.push_back({name, e.value("address", ""), e.value("description", ""), false});
        }
    std::sort(out.begin(), out.end(),
              [](const Environment& a, const Environment& b) { return a.name < b.name; });
    return out;
}

std::optional<Environment> find_environment(const std::string& name) {
    for (auto& e : environments())
        if (e.name == name) return e;
    return std::nullopt;
}

void set_environment_flag(const std::string& name) {
    flag_value() = name;
}

std::string selected_environment() {
    if (!flag_value().empty()) return flag_value();
    if (std::string v = env_var("PLATFORM_ENV"); !v.empty()) return v;
    json config = read_state(config_path());
    if (config.contains("env") && config["env"].is_string() &&
        !config["env"].get<std::string>().empty())
        return config["env"];
    return "local";
}

std::string selected_address() {
    if (std::string proxy = env_var("PLATFORM_PROXY"); !proxy.empty())
        return normal_address(proxy, "PLATFORM_PROXY");
    const std::string name = selected_environment();
    auto e = find_environment(name);
    if (!e) throw UsageError("Environment '" + name + "' does not exist (see `platform env`)");
    return e->address;
}

std::string normal_address(const std::string& text, const std::string& what) {
    std::string a = text;
    if (a.rfind("https://", 0) == 0)
        throw UsageError(what + ": '" + text +
                         "': the RPC proxy speaks plain HTTP; give host:port or http://host:port");
    if (a.rfind("http://", 0) == 0) a = a.substr(7);
    for (const char* tail : {"/", "/rpc"})
        if (a.size() > std::strlen(tail) &&
            a.compare(a.size() - std::strlen(tail), std::strlen(tail), tail) == 0)
            a.resize(a.size() - std::strlen(tail));
    if (!valid_address(a))
        throw UsageError(what + ": '" + text +
                         "' is not host:port or http://host:port (e.g. 127.0.0.1:8081)");
    return a;
}

bool valid_address(const std::string& address) {
    static const std::regex re(R"((\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5}))");
    std::smatch m;
    if (!std::regex_match(address, m, re)) return false;
    int port = std::stoi(m[2].str());
    return port >= 1 && port <= 65535;
}

void add_environment(const std::string& name, const std::string& given,
                     const std::string& description) {
    std::string address = given;
    try {  // http://host:port/ is host:port
        address = normal_address(given, "address");
    } catch (const UsageError&) {
    }
    if (!valid_name(name))
        throw EnvError{
            "Invalid environment name '" + name + "': letters, digits, '.', '_' and '-', up to 64",
            2};
    if (!valid_address(address))
        throw EnvError{"Invalid address '" + address + "': must be host:port", 2};
    if (find_environment(name)) throw EnvError{"Environment '" + name + "' already exists", 1};
    json config = read_state(config_path());
    if (!config.contains("envs") || !config["envs"].is_object()) config["envs"] = json::object();
    config["envs"][name] = {{"address", address}, {"description", description}};
    write_state(config_path(), config);
}

void select_environment(const std::string& name) {
    if (!find_environment(name)) throw EnvError{"Environment '" + name + "' does not exist", 5};
    json config = read_state(config_path());
    config["env"] = name;
    write_state(config_path(), config);
}

void delete_environment(const std::string& name) {
    auto e = find_environment(name);
    if (!e) throw EnvError{"Environment '" + name + "' does not exist", 5};
    if (e->builtin)
        throw EnvError{"Environment '" + name + "' is built in and cannot be deleted", 1};
    if (selected_environment() == name)
        throw EnvError{
            "Environment '" + name + "' is the current one: `platform env set` another first", 1};
    json config = read_state(config_path());
    config["envs"].erase(name);
    write_state(config_path(), config);
}

}  // namespace platform::cli
