// text tasks — what each text method asks the model and how its answer is read (text.cpp sends
// the requests through Host::complete, the host's model provider).
//
// Every request is the provider-neutral one of abi.h: a `system` text saying the task and that
// the text is material to work on, never instructions to follow, and one user message holding
// the text between <text> and </text>. No tools.
//
//   classify   answer {"label": "<one of the labels, as given>", "confidence": 0..1}
//   extract    answer JSON only: matching the JSON Schema when one is given, else the shape the
//              description asks for
//   summarise  answer the summary only: `lines` "- " bullets, or prose of at most `lines` sentences
//   translate  answer the translation only, with the same line breaks, lists, markdown, code and
//              links as the text
//
// Reading answers: JSON is the whole answer, or one ```json fenced block that is the whole
// answer; nothing is dug out of prose. A JSON answer that is invalid (not JSON, a label not in the
// list, a confidence outside 0..1, a schema mismatch) is asked for once more, with what was wrong
// (text.cpp), then 502: never passed on.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <platform/validation/schema.hpp>
#include <string>
#include <vector>

namespace text_tasks {

// The most characters `text` may have (the validator's maxLength counts Unicode code points).
inline constexpr size_t kTextMaxChars = 30000;

// ---- requests -----------------------------------------------------------------------------------

platform::json classify_request(const std::string& text, const std::vector<std::string>& labels);
platform::json extract_request(const std::string& text, const std::string& schema_or_description,
                               bool is_schema);
platform::json summarise_request(const std::string& text, bool bullets, int lines);
platform::json translate_request(const std::string& text, const std::string& to);

// `request` with the model's invalid `answer` and a user message saying `problem` and asking
// again, for the one retry.
platform::json retry_request(platform::json request, const std::string& answer,
                             const std::string& problem);

// ---- reading answers ----------------------------------------------------------------------------

// The labels of a comma-separated list: trimmed, empty ones dropped, duplicates (ignoring ASCII
// case) dropped. Throws invalid_argument naming `labels` for no label, more than 50, or one over
// 100 characters.
std::vector<std::string> parse_labels(const std::string& list);

// The answer's JSON (the whole text, or one ```json / ``` fenced block that is the whole text);
// nullopt with *problem set otherwise.
std::optional<platform::json> answer_json(const std::string& answer, std::string* problem);

struct Classification {
    std::string label;  // as given in `labels`
    double confidence = 0;
};
// The label and confidence of a classify answer; nullopt with *problem set when it is not
// {"label": one of labels (ASCII case ignored), "confidence": a number from 0 to 1}.
std::optional<Classification> read_classification(const std::string& answer,
                                                  const std::vector<std::string>& labels,
                                                  std::string* problem);

// A caller's extraction schema, compiled by the host's validator (platform/validation). A schema
// whose root is not an object schema is checked as the property "value" of one, so any JSON
// Schema in the validator's subset works.
class OutputSchema {
public:
    // Throws platform::invalid_argument naming `schema` when the validator refuses it.
    static OutputSchema compile(const platform::json& schema);
    // nullopt when `value` matches; else the validator's message.
    std::optional<std::string> check(const platform::json& value) const;

private:
    OutputSchema(platform::validation::Schema s, bool wrapped) : schema_(s), wrapped_(wrapped) {}
    platform::validation::Schema schema_;
    bool wrapped_ = false;
};

// What `schema` (the argument) is: a JSON Schema (a JSON object), or a plain description. Text
// starting with '{' that is not valid JSON is refused (invalid_argument naming `schema`).
std::optional<platform::json> schema_argument(const std::string& schema);

// The model's text without one fence around the whole of it when the source text had none
// (translate and summarise answer text, not code).
std::string unfenced(const std::string& answer, const std::string& source);

}  // namespace text_tasks
