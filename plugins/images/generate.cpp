// images/generate: one image from an OpenAI-compatible images API (OpenAI's, or a local server
// speaking the same protocol), stored as the caller's private image like an upload.
//
//   POST <providers.openai-images.base_url>/v1/images/generations
//   {"model", "prompt", "n": 1, "size", "response_format": "b64_json"}
//   -> {"created": ..., "data": [{"b64_json": "<base64 PNG>", "revised_prompt": ...}]}
//
// The key is the operator's (`api_key_header: "Authorization: Bearer"`); the model and size are
// plugin_config.images.image_model and image_size. The answer's bytes are checked as an upload's
// (raster.hpp: PNG, JPEG or GIF, their structure, at most 8 megapixels) with the browser's size
// limit, 8 MB: what the model drew is refused (502) rather than stored when it is not such an
// image. Nothing is cached: every call draws anew.
#include "common/upstream/upstream.hpp"
#include "images.hpp"
#include "raster.hpp"

using common::upstream::Malformed;
using common::upstream::Provider;
using platform::json;

namespace {

// Drawing takes a while (tens of seconds for a large image): two minutes unless the provider's
// timeout_ms says otherwise.
const Provider kImageModel{
    "openai-images", "The image model", "https://api.openai.com", common::upstream::kNoCache, true,
    120 * 1000};

constexpr const char* kDefaultModel = "dall-e-3";
constexpr const char* kDefaultSize = "1024x1024";

std::string setting(const platform::Host& host, const char* name, const char* fallback) {
    const json v = host.config(name);
    return v.is_string() && !v.get<std::string>().empty() ? v.get<std::string>() : fallback;
}

// The error message of an OpenAI-style error body ({"error": {"message", "code", "param"}}).
std::string said(const json& body, const char* field) {
    if (!body.is_object() || !body.contains("error") || !body["error"].is_object()) return "";
    const json& v = body["error"].value(field, json());
    return v.is_string() ? v.get<std::string>() : "";
}

}  // namespace

json Images::generate(platform::Request& r) {
    const std::string prompt = r.str("prompt");
    if (prompt.find_first_not_of(" \t\r\n") == std::string::npos)
        throw platform::invalid_argument("prompt: empty; say what to draw");
    const std::string model = setting(host_, "image_model", kDefaultModel),
                      size = setting(host_, "image_size", kDefaultSize);

    common::upstream::Upstream up(host_, kImageModel);
    common::upstream::Options o;
    o.method = "POST";
    o.content_type = "application/json";
    o.body = json{{"model", model},
                  {"prompt", prompt},
                  {"n", 1},
                  {"size", size},
                  {"response_format", "b64_json"}}
                 .dump();
    o.pass = {400};
    // 8 MB of image is about 11 MB of base64, plus the JSON around it.
    o.max_bytes = 12 * 1024 * 1024;
    const auto answer = up.fetch("/v1/images/generations", o);
    const json body = json::parse(answer.body, nullptr, false);
    if (answer.status == 400) {
        // The prompt refused (OpenAI: code content_policy_violation, or param "prompt") is the
        // caller's 400; anything else it refused is the operator's settings, a 502.
        const std::string message = said(body, "message"), code = said(body, "code");
        if (code == "content_policy_violation" || said(body, "param") == "prompt")
            throw platform::invalid_argument("prompt: the image model refused it: " + message);
        throw platform::Error(platform::Code::bad_gateway,
                              "the image model refused the request (400)" +
                                  (message.empty() ? std::string() : ": " + message) +
                                  "; check plugin_config.images.image_model (" + model +
                                  ") and image_size (" + size + ")");
    }
    if (body.is_discarded()) throw up.malformed("the body is not JSON");

    const std::string bytes = up.parse(body, [](const json& j) {
        const json& data = j.at("data");
        if (!data.is_array() || data.empty()) throw Malformed("no image in `data`");
        const json& first = data.at(0);
        if (!first.contains("b64_json"))
            throw Malformed(
                "no `b64_json` in data[0] (the server ignored response_format: b64_json)");
        auto decoded = images::base64_decode(first.at("b64_json").get<std::string>());
        if (!decoded) throw Malformed("data[0].b64_json is not base64");
        return *decoded;
    });
    if (bytes.size() > kMaxBrowserBytes)
        throw up.malformed("an image of " + std::to_string(bytes.size()) +
                           " bytes, more than 8 MB");
    const auto checked = images::inspect(bytes);
    if (!checked.raster) throw up.malformed("the image: " + checked.error);
    const auto& img = *checked.raster;
    if (uint64_t(img.width) * img.height > kMaxPixels)
        throw up.malformed("an image of " + std::to_string(img.width) + "x" +
                           std::to_string(img.height) + ", more than 8 megapixels");
    return store_image(r, bytes, img.type, img.width, img.height, "", prompt);
}
