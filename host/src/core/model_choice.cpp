// The model provider of each model_complete, and the call to it (model_choice.hpp).
#include <cstdlib>
#include <future>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/model_choice.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/status.hpp>

namespace platform::host {

using nlohmann::json;

namespace {

void append(void* user, platform_str_t b) {
    static_cast<std::string*>(user)->append(b.ptr ? b.ptr : "", b.len);
}

// config `model.provider` through the config built-in, as the host's own service account; "" when
// there is no config service or the path is not set.
std::string configured_provider(Runtime& rt) {
    const ServiceEntry* svc = rt.registry().find("config");
    const Endpoint* ep = svc && svc->plugin ? svc->plugin->endpoint("Config.Get") : nullptr;
    if (!ep) return "";
    Identity host;
    host.id = qualify(rt.settings().ns, "host");
    host.scopes = {"service"};
    host.type = "service";
    host.issuer = rt.settings().ns;
    host.name = host.id;
    Invocation inv;
    inv.service = svc;
    inv.endpoint = ep;
    inv.args = {{"path", "model.provider"}};
    auto answer = std::make_shared<std::promise<Outcome>>();
    auto got = answer->get_future();
    rt.dispatch_as(host, std::move(inv), [answer](Outcome o) { answer->set_value(std::move(o)); });
    const Outcome o = got.get();
    if (o.code != PLATFORM_OK) return "";
    const json body = json::parse(o.body, nullptr, false);
    const json value = body.is_object() ? body.value("value", json()) : json();
    return value.is_string() ? value.get<std::string>() : "";
}

// Whether the text is one JSON value, an object whose top-level "messages" is an array; nothing
// is kept but the depth and two flags.
class MessagesCheck : public nlohmann::json_sax<json> {
public:
    bool object = false;    // the top-level value is an object
    bool messages = false;  // its last "messages" member is an array

    bool null() override { return value(false); }
    bool boolean(bool) override { return value(false); }
    bool number_integer(number_integer_t) override { return value(false); }
    bool number_unsigned(number_unsigned_t) override { return value(false); }
    bool number_float(number_float_t, const string_t&) override { return value(false); }
    bool string(string_t&) override { return value(false); }
    bool binary(binary_t&) override { return value(false); }
    bool start_object(std::size_t) override {
        if (depth_ == 0) object = true;
        value(false);
        ++depth_;
        return true;
    }
    bool key(string_t& k) override {
        if (depth_ == 1) at_messages_ = k == "messages";
        return true;
    }
    bool end_object() override {
        --depth_;
        return true;
    }
    bool start_array(std::size_t) override {
        value(true);
        ++depth_;
        return true;
    }
    bool end_array() override {
        --depth_;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }

private:
    // A value starts: when it is a top-level member named "messages", it decides `messages`.
    bool value(bool array) {
        if (depth_ == 1 && at_messages_) messages = array;
        at_messages_ = false;
        return true;
    }

    size_t depth_ = 0;
    bool at_messages_ = false;
};

}  // namespace

std::string model_request_problem(std::string_view request_json) {
    MessagesCheck check;
    if (!json::sax_parse(request_json, &check) || !check.object)
        return "request: must be a JSON object with a `messages` array";
    if (!check.messages) return "messages: required, an array of {role, content}";
    return "";
}

ModelPick pick_model(const ModelSources& s, const std::function<bool(const std::string&)>& loaded) {
    if (!s.configured.empty())
        return {s.configured.rfind("model-", 0) == 0 ? s.configured : "model-" + s.configured,
                "config model.provider = " + s.configured};
    for (const char* var : {"OPENAI_API_KEY", "OPENAI_BASE_URL"})
        if (s.env && !s.env(var).empty()) return {"model-openai", std::string(var) + " is set"};
    for (const char* var : {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"})
        if (s.env && !s.env(var).empty()) return {"model-anthropic", std::string(var) + " is set"};
    if (!s.profile_choice.empty()) return {s.profile_choice, "the profile's providers.model"};
    if (loaded("model-builtin")) return {"model-builtin", "the default"};
    return {};
}

platform_status_t complete_with_model(Runtime& rt, std::string_view request_json,
                                      std::string& out) {
    if (std::string problem = model_request_problem(request_json); !problem.empty()) {
        out = std::move(problem);
        return PLATFORM_INVALID_ARGUMENT;
    }
    ModelSources sources;
    sources.configured = configured_provider(rt);
    sources.env = [](const char* var) {
        const char* v = std::getenv(var);
        return std::string(v ? v : "");
    };
    if (const auto it = rt.profile().providers.find("model"); it != rt.profile().providers.end())
        sources.profile_choice = it->second.plugin;
    const ModelPick pick =
        pick_model(sources, [&](const std::string& id) { return rt.model(id) != nullptr; });
    auto counted = [&](platform_status_t st) {
        rt.metrics().model_call(pick.plugin.empty() ? "none" : pick.plugin, status_info(st).name);
        return st;
    };
    if (pick.plugin.empty()) {
        out =
            "no model provider is loaded: add model-builtin to the profile's plugins or set "
            "model.provider";
        return counted(PLATFORM_UNAVAILABLE);
    }
    Plugin* p = rt.model(pick.plugin);
    if (!p) {
        out = "model provider " + pick.plugin + " is not loaded (chosen because " + pick.because +
              ")";
        return counted(PLATFORM_UNAVAILABLE);
    }
    const auto* table = static_cast<const platform_model_provider_t*>(p->desc->provider);
    if (!table || !PLATFORM_HAS_FIELD(platform_model_provider_t, table, complete) ||
        !table->complete) {
        out = "model provider " + pick.plugin + " has no `complete` function";
        return counted(PLATFORM_UNAVAILABLE);
    }
    out.clear();
    const platform_status_t st =
        table->complete(p->instance, {request_json.data(), request_json.size()}, append, &out);
    if (st != PLATFORM_OK && out.empty()) out = pick.plugin + " failed without a reason";
    return counted(st);
}

}  // namespace platform::host
