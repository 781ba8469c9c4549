// platform/sdk/model_provider.hpp — a platform_model_provider_t from a C++ class (ABI 1.5).
//
//   class MyModel {
//   public:
//       MyModel(const platform::Host& host, const platform::json& config);
//       // One completion: request and answer are the provider-neutral JSON of abi.h
//       // (platform_model_provider_t). Throw platform::Error for a failure: unavailable naming
//       // the missing setting, bad_gateway with the upstream's status, invalid_argument...
//       platform::json complete(const platform::json& request);
//   };
//   PLATFORM_PROVIDER(MyModel, PLATFORM_KIND_MODEL, "model-mine", "1.0.0", "My model",
//                     &platform::ModelProviderTable<MyModel>::table)
//
// `complete` runs on several host worker threads at once: keep it thread-safe. No exception
// crosses the ABI: an Error keeps its code and message, anything else is PLATFORM_INTERNAL.
#pragma once

#include <platform/abi.h>

#include <nlohmann/json.hpp>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/str.hpp>
#include <string>

namespace platform {

template <class T>
struct ModelProviderTable {
    static platform_status_t complete(void* inst, platform_str_t request,
                                      platform_bytes_sink_fn sink, void* user) {
        std::string message;
        platform_status_t code = PLATFORM_OK;
        try {
            const json req = json::parse(view(request), nullptr, false);
            if (!req.is_object()) throw invalid_argument("request: must be a JSON object");
            const std::string out = static_cast<T*>(inst)->complete(req).dump(
                -1, ' ', false, json::error_handler_t::replace);
            if (sink) sink(user, view(out));
            return PLATFORM_OK;
        } catch (const Error& e) {
            code = static_cast<platform_status_t>(e.code());
            message = e.what();
        } catch (const std::exception& e) {
            code = PLATFORM_INTERNAL;
            message = e.what();
        } catch (...) {
            code = PLATFORM_INTERNAL;
            message = "unknown error";
        }
        if (sink) sink(user, view(message));
        return code;
    }

    static inline const platform_model_provider_t table = {sizeof(platform_model_provider_t),
                                                           complete};
};

}  // namespace platform
