#include "text.hpp"

#include <functional>
#include <optional>

#include "extractive.hpp"
#include "tasks.hpp"

namespace schema = platform::schema;

using platform::Code;
using platform::Error;
using platform::json;

namespace {

constexpr int kMaxLines = 20;
constexpr int kDefaultLines = 3;

schema::Object with_text() {
    return schema::object()
        .str("text")
        .max_len(text_tasks::kTextMaxChars)
        .required()
        .doc("The text, at most 30,000 characters");
}

std::string text_of(const json& reply) {
    return reply.is_object() && reply.contains("text") && reply["text"].is_string()
               ? reply["text"].get<std::string>()
               : std::string();
}

std::string model_of(const json& reply) {
    return reply.is_object() && reply.contains("model") && reply["model"].is_string()
               ? reply["model"].get<std::string>()
               : std::string();
}

bool from_builtin(const json& reply) {
    return model_of(reply) == "builtin";
}

// The 503 of a method model-builtin cannot do, in the words model-builtin uses for its own
// refusals.
Error needs_a_model(const std::string& method, const std::string& what) {
    return Error(
        Code::unavailable,
        "text/" + method +
            " needs a language model, and the offline model (model-builtin) "
            "cannot " +
            what + ". To " + what +
            ", configure a model: set model.provider to "
            "openai (with model.openai.api_key or OPENAI_API_KEY; a local Ollama, llama.cpp "
            "or vLLM through model.openai.base_url) or anthropic (with "
            "model.anthropic.api_key or ANTHROPIC_API_KEY). text/summarise works offline: "
            "it picks the text's own sentences.");
}

// Asks the model, reads the answer with `read` (nullopt and a problem when unusable), asks once
// more with the problem when it is, then 502. *reply is the last answer.
template <class T>
T ask(const platform::Host& host, const json& request,
      const std::function<std::optional<T>(const std::string&, std::string*)>& read,
      const std::function<void(const json&)>& first_reply, json* reply) {
    *reply = host.complete(request);
    first_reply(*reply);
    std::string problem;
    if (auto v = read(text_of(*reply), &problem)) return *v;
    const std::string first = problem;
    *reply = host.complete(text_tasks::retry_request(request, text_of(*reply), problem));
    if (auto v = read(text_of(*reply), &problem)) return *v;
    throw Error(Code::bad_gateway,
                "the model's answer could not be used, twice: " + problem +
                    (problem == first ? "" : " (the first time: " + first + ")") +
                    "; nothing is passed on");
}

}  // namespace

void Text::describe(platform::ServiceSpec<Text>& s) {
    s.id("text").version("1.0.0").service("v1.text").summary(
        "Classify, extract from, summarise and translate a text with the model");
    s.get("classify")
        .title("Classify a text")
        .description(
            "Puts the text in one of the labels you give (comma-separated), with the model's "
            "confidence from 0 to 1. The label is always one of yours. Needs a language model "
            "(503 with the offline model-builtin, naming the settings that choose one).")
        .schema(with_text().str("labels").max_len(5000).required().doc(
            "The labels to choose from, comma-separated (at most 50)"))
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Text::classify);
    s.get("extract")
        .title("Extract data from a text as JSON")
        .description(
            "Answers JSON only: the data the text gives, shaped by `schema` — a JSON Schema "
            "(a JSON object; the answer is checked against it by the host's validator) or a plain "
            "description. An answer that is not valid JSON or does not match is asked for once "
            "more, then 502: never passed on. Needs a language model (503 with model-builtin).")
        .schema(with_text().str("schema").max_len(20000).required().doc(
            "A JSON Schema (a JSON object) or a plain description of the JSON wanted"))
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Text::extract);
    s.get("summarise")
        .title("Summarise a text")
        .description(
            "A summary in `lines` bullet points or sentences of prose. With a language model it "
            "is the model's; with the offline model-builtin it is extractive: the text's own most "
            "central sentences, word for word, in their order (method says which).")
        .schema(
            with_text()
                .str("style")
                .one_of({"prose", "bullets"})
                .def("prose")
                .doc("bullets (one \"- \" line each) or prose; default prose")
                .prop("lines", schema::integer()
                                   .min(1)
                                   .max(kMaxLines)
                                   .def(kDefaultLines)
                                   .doc("How many bullet points or sentences, 1-20; default 3")))
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Text::summarise);
    s.get("translate")
        .title("Translate a text")
        .description(
            "The text in another language, with its formatting kept: line breaks, lists, "
            "markdown and code as they were. Needs a language model (503 with model-builtin).")
        .schema(with_text().str("to").max_len(64).required().doc(
            "The language: a name (French) or a code (fr)"))
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Text::translate);
}

json Text::classify(platform::Request& r) {
    const std::string text = r.str("text");
    const std::vector<std::string> labels = text_tasks::parse_labels(r.str("labels"));
    json reply;
    const auto c = ask<text_tasks::Classification>(
        host_, text_tasks::classify_request(text, labels),
        [&](const std::string& answer, std::string* problem) {
            return text_tasks::read_classification(answer, labels, problem);
        },
        [](const json& first) {
            if (from_builtin(first)) throw needs_a_model("classify", "classify text");
        },
        &reply);
    return {{"label", c.label},
            {"confidence", c.confidence},
            {"labels", labels},
            {"model", model_of(reply)}};
}

json Text::extract(platform::Request& r) {
    const std::string text = r.str("text");
    const std::string wanted = r.str("schema");
    const std::optional<json> given = text_tasks::schema_argument(wanted);
    std::optional<text_tasks::OutputSchema> checker;
    if (given) {
        if (!given->is_object())
            throw platform::invalid_argument("schema: a JSON Schema must be a JSON object");
        checker = text_tasks::OutputSchema::compile(*given);
    }
    json reply;
    const json value = ask<json>(
        host_, text_tasks::extract_request(text, given ? given->dump() : wanted, given.has_value()),
        [&](const std::string& answer, std::string* problem) -> std::optional<json> {
            auto j = text_tasks::answer_json(answer, problem);
            if (!j) return std::nullopt;
            if (checker)
                if (auto mismatch = checker->check(*j)) {
                    *problem = "the JSON does not match the schema: " + *mismatch;
                    return std::nullopt;
                }
            return j;
        },
        [](const json& first) {
            if (from_builtin(first)) throw needs_a_model("extract", "extract data from text");
        },
        &reply);
    return {{"json", value}, {"checked", checker ? "schema" : "json"}, {"model", model_of(reply)}};
}

json Text::summarise(platform::Request& r) {
    const std::string text = r.str("text");
    const bool bullets = r.str("style", "prose") == "bullets";
    const int lines = r.args().value("lines", kDefaultLines);
    const json reply = host_.complete(text_tasks::summarise_request(text, bullets, lines));
    json out = {{"style", bullets ? "bullets" : "prose"}, {"model", model_of(reply)}};
    if (from_builtin(reply)) {
        const auto picked = text_extractive::summarise(text, static_cast<size_t>(lines));
        out["summary"] = text_extractive::render(picked, bullets);
        out["lines"] = lines;
        out["sentences"] = picked.size();  // fewer than lines when the text has fewer
        out["method"] = "extractive";
        out["note"] =
            "Extractive: the offline model (model-builtin) picked the text's own most central "
            "sentences, word for word, in their order. A language model (model.provider) writes "
            "an abstractive summary.";
        return out;
    }
    const std::string summary = text_tasks::unfenced(text_of(reply), text);
    if (summary.find_first_not_of(" \t\r\n") == std::string::npos)
        throw Error(Code::bad_gateway, "the model answered no summary");
    out["summary"] = summary;
    out["lines"] = lines;
    out["method"] = "model";
    return out;
}

json Text::translate(platform::Request& r) {
    const std::string text = r.str("text");
    const std::string to = r.str("to");
    for (unsigned char c : to)
        if (c < 0x20 || c == 0x7f)
            throw platform::invalid_argument("to: must be a language name or code on one line");
    if (to.find_first_not_of(' ') == std::string::npos)
        throw platform::invalid_argument("to: must not be empty");
    const json reply = host_.complete(text_tasks::translate_request(text, to));
    if (from_builtin(reply)) throw needs_a_model("translate", "translate text");
    if (reply.value("stop", "") == "max_tokens")
        throw Error(Code::bad_gateway,
                    "the model stopped at its token limit before the end of the translation; "
                    "nothing is passed on (translate a shorter text)");
    const std::string translation = text_tasks::unfenced(text_of(reply), text);
    if (translation.find_first_not_of(" \t\r\n") == std::string::npos)
        throw Error(Code::bad_gateway, "the model answered no translation");
    return {{"translation", translation}, {"to", to}, {"model", model_of(reply)}};
}

PLATFORM_SERVICE(Text)
