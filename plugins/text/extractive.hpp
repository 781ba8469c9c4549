// text extractive — the summary model-builtin can honestly give: the text's own most central
// sentences, kept word for word and in their original order. No model, no network.
//
//   1. Sentences. The text is cut at blank lines and at lines that are list items or headings
//      (each such line is a unit of its own), then each unit at a sentence end: '.', '!', '?' or
//      '…' (with closing quotes or brackets) followed by white space — except after a common
//      abbreviation (Mr., Dr., e.g., i.e., etc., vs., No., St., ...) or a single capital letter
//      (the "J." of "J. Smith"). Headings ("# ...") and lines without a letter or digit are never
//      picked. White space inside a sentence is folded to one space; list markers are dropped.
//   2. Words. Runs of letters and digits (any non-ASCII UTF-8 counts as a letter), ASCII lower-
//      cased; English stop words and one-character words are left out.
//   3. Scores. A word's weight is its count in the whole text divided by the top count; a
//      sentence's score is the sum of its words' weights divided by max(8, its word count), so
//      long sentences do not win by length and short ones do not win by having two words.
//   4. The `lines` best sentences (ties: the earlier), given in the order they appear in the text.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace text_extractive {

struct Sentence {
    std::string text;
    bool pickable = true;  // false for headings and lines without words
};

// The sentences of `text`, in order (step 1).
std::vector<Sentence> split_sentences(const std::string& text);

// The content words of `sentence`, lower-cased (step 2).
std::vector<std::string> words(const std::string& sentence);

// The `lines` best sentences in text order (steps 3 and 4); fewer when the text has fewer.
std::vector<std::string> summarise(const std::string& text, size_t lines);

// The summary as text: "- " before each sentence, one per line (bullets), or the sentences
// joined by one space (prose).
std::string render(const std::vector<std::string>& sentences, bool bullets);

}  // namespace text_extractive
