// model-builtin — the offline default model (PLATFORM_KIND_MODEL, README.md): a
// rule-based router over the provider-neutral request (conversation.hpp). No settings, no network;
// "now" is the request's context.now, else the host's business clock.
#include <platform/sdk.hpp>
#include <platform/sdk/model_provider.hpp>

#include "conversation.hpp"

class BuiltinModel {
public:
    BuiltinModel(const platform::Host& host, const platform::json&) : host_(host) {}

    platform::json complete(const platform::json& request) {
        return builtin::respond(request, host_.now_ms());
    }

private:
    platform::Host host_;
};

PLATFORM_PROVIDER(
    BuiltinModel, PLATFORM_KIND_MODEL, "model-builtin", "1.0.0",
    "Offline rule-based model: a few fixed phrasings for notes, tasks, events and contacts",
    &platform::ModelProviderTable<BuiltinModel>::table)
