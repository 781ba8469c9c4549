// completion.cpp — `platform completion bash|zsh`: a completion script generated from the
// built-in commands and, when the server answers, the registry's services, methods and flags.
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "common.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {

const char* kCompletionHelp =
    "Print a shell completion script for platform.\n\n"
    "Examples:\n"
    "  source <(platform completion bash)                         this shell\n"
    "  platform completion bash > /etc/bash_completion.d/platform   every bash\n"
    "  platform completion zsh > \"${fpath[1]}/_platform\"           zsh (then compinit)\n\n"
    "Usage: platform completion bash|zsh\n\n"
    "Services, methods and their flags come from the registry of the selected environment when it\n"
    "answers; otherwise only the built-in commands are completed. Generate again after new "
    "services.\n";

// The built-in commands and their sub-words.
const std::map<std::string, std::string>& builtin_words() {
    static const std::map<std::string, std::string> w = {
        {"server", ""},
        {"env", "list get add set del"},
        {"services", ""},
        {"call", ""},
        {"config", "get set del list"},
        {"store", "read write delete list"},
        {"registry", "list get"},
        {"tools", ""},
        {"help", ""},
        {"completion", "bash zsh"},
        {"login", ""},
        {"logout", ""},
        {"user", "token set"},
        {"signup", ""},
        {"auth", "create list delete"},
        {"run", ""},
        {"update", ""},
        {"kill", ""},
        {"status", ""},
        {"logs", ""},
        {"ask", ""},
        {"submit", ""},
        {"work", "get list retry"},
        {"inbox", "list read mark_read mark_unread"}};
    return w;
}

// Only words a shell can take unquoted make it into the script.
bool safe(const std::string& w) {
    static const std::regex re("[A-Za-z0-9_.:-]+");
    return std::regex_match(w, re);
}

// service -> method -> flags ("--title --text"); empty when the server cannot be asked.
using Catalogue = std::map<std::string, std::map<std::string, std::string>>;

void flags_of(const json& schema, const std::string& prefix, std::string& out) {
    if (!schema.is_object() || !schema.contains("properties")) return;
    for (const auto& [name, prop] : schema["properties"].items()) {
        if (!safe(name)) continue;
        if (prop.is_object() && prop.value("type", json()) == "object" &&
            prop.contains("properties"))
            flags_of(prop, prefix + name + "_", out);
        else
            out += (out.empty() ? "" : " ") + ("--" + prefix + name);
    }
}

Catalogue catalogue() {
    Catalogue out;
    try {
        RpcClient rpc;
        auto r =
            rpc.call("registry", "Registry.ListServices", json::object(), CallOptions::reads());
        if (!r.ok()) return out;
        for (const auto& s : r.body.value("services", json::array())) {
            const std::string name = s.value("name", "");
            const std::string typed = name.substr(name.rfind('.') + 1);
            if (!safe(typed) || typed == "server" || typed == "completion") continue;
            auto& methods = out[typed];
            for (const auto& e : s.value("endpoints", json::array())) {
                const std::string path = e.value("metadata", json::object()).value("path", "");
                const std::string method = path.substr(path.rfind('/') + 1);
                if (!safe(method)) continue;
                flags_of(e.value("schema", json::object()), "", methods[method]);
            }
        }
    } catch (const std::exception&) {  // unreachable or no such environment: built-ins only
    }
    return out;
}

std::string join(const std::set<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// "m1 m2": a service's method names, sorted.
std::string method_names(const std::map<std::string, std::string>& methods) {
    std::set<std::string> names;
    for (const auto& [m, _] : methods) names.insert(m);
    return join(names);
}

// " m1 m2" for a built-in that is also a service (config, store, registry, auth): its methods too.
std::string methods_of(const Catalogue& cat, const std::string& cmd) {
    auto it = cat.find(cmd);
    if (it == cat.end()) return "";
    return " " + method_names(it->second);
}

// Every first word: the built-in commands and the services.
std::string first_words(const Catalogue& cat) {
    std::set<std::string> top;
    for (const auto& [cmd, _] : builtin_words()) top.insert(cmd);
    for (const auto& [svc, _] : cat) top.insert(svc);
    return join(top);
}

// command -> the words that may follow it: a built-in's sub-words (and its methods when it is
// also a service), a service's methods.
std::vector<std::pair<std::string, std::string>> second_words(const Catalogue& cat) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [cmd, subs] : builtin_words())
        if (!subs.empty()) out.emplace_back(cmd, subs + methods_of(cat, cmd));
    for (const auto& [svc, methods] : cat) {
        if (builtin_words().count(svc) && !builtin_words().at(svc).empty()) continue;
        out.emplace_back(svc, method_names(methods));
    }
    return out;
}

// "service method" -> its flags, for the methods that take any.
std::vector<std::pair<std::string, std::string>> method_flags(const Catalogue& cat) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [svc, methods] : cat)
        for (const auto& [m, flags] : methods)
            if (!flags.empty()) out.emplace_back(svc + " " + m, flags);
    return out;
}

std::string bash(const Catalogue& cat) {
    std::ostringstream os;
    os << "# bash completion for platform (generated by `platform completion bash`)\n"
          "_platform() {\n"
          "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" i=1\n"
          "    while [[ $i -lt $COMP_CWORD && ${COMP_WORDS[$i]} == -* ]]; do\n"
          "        case \"${COMP_WORDS[$i]}\" in -e|--env|-o|--output) i=$((i + 1)) ;; esac\n"
          "        i=$((i + 1))\n"
          "    done\n"
          "    local cmd=\"${COMP_WORDS[$i]}\" sub=\"${COMP_WORDS[$((i + 1))]}\" pos=$((COMP_CWORD "
          "- i)) words=\"\"\n"
          "    case \"${COMP_WORDS[$((COMP_CWORD - 1))]}\" in\n"
          "        -e|--env) COMPREPLY=($(compgen -W \"$(platform env -o raw 2>/dev/null | grep -o "
          "'\"name\":\"[^\"]*\"' | cut -d'\"' -f4)\" -- \"$cur\")); return ;;\n"
          "        -o|--output) COMPREPLY=($(compgen -W \"json table raw\" -- \"$cur\")); return "
          ";;\n"
          "    esac\n"
          "    if [[ $pos -le 0 ]]; then\n"
          "        words=\""
       << first_words(cat)
       << " -e --env -o --output --help\"\n"
          "    elif [[ $pos -eq 1 ]]; then\n"
          "        case \"$cmd\" in\n";
    for (const auto& [cmd, words] : second_words(cat))
        os << "            " << cmd << ") words=\"" << words << "\" ;;\n";
    os << "        esac\n"
          "    else\n"
          "        case \"$cmd $sub\" in\n";
    for (const auto& [call, flags] : method_flags(cat))
        os << "            \"" << call << "\") words=\"" << flags << " --help\" ;;\n";
    os << "            *) words=\"--help --output\" ;;\n"
          "        esac\n"
          "    fi\n"
          "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "}\n"
          "complete -F _platform platform\n";
    return os.str();
}

std::string zsh(const Catalogue& cat) {
    std::ostringstream os;
    os << "#compdef platform\n"
          "# zsh completion for platform (generated by `platform completion zsh`)\n"
          "_platform() {\n"
          "    local -a words_\n"
          "    local i=2\n"
          "    while (( i < CURRENT )) && [[ ${words[i]} == -* ]]; do\n"
          "        case ${words[i]} in -e|--env|-o|--output) (( i++ )) ;; esac\n"
          "        (( i++ ))\n"
          "    done\n"
          "    local cmd=${words[i]} sub=${words[i+1]} pos=$(( CURRENT - i ))\n"
          "    if (( pos <= 0 )); then\n"
          "        words_=("
       << first_words(cat)
       << " -e --env -o --output --help)\n"
          "    elif (( pos == 1 )); then\n"
          "        case $cmd in\n";
    for (const auto& [cmd, words] : second_words(cat))
        os << "            " << cmd << ") words_=(" << words << ") ;;\n";
    os << "        esac\n"
          "    else\n"
          "        case \"$cmd $sub\" in\n";
    for (const auto& [call, flags] : method_flags(cat))
        os << "            \"" << call << "\") words_=(" << flags << " --help) ;;\n";
    os << "            *) words_=(--help --output) ;;\n"
          "        esac\n"
          "    fi\n"
          "    compadd -- $words_\n"
          "}\n"
          "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _platform \"$@\"; else compdef "
          "_platform platform; fi\n";
    return os.str();
}

}  // namespace

int completion_command(const Args& in) {
    return guarded([&]() -> int {
        Args args = in;
        Common c = take_common(args);
        if (c.help) {
            std::cout << kCompletionHelp;
            return 0;
        }
        if (args.size() != 1 || (args[0] != "bash" && args[0] != "zsh")) {
            std::cerr << kCompletionHelp;
            return 2;
        }
        const Catalogue cat = catalogue();
        std::cout << (args[0] == "bash" ? bash(cat) : zsh(cat));
        return 0;
    });
}

}  // namespace platform::cli
