// text — classify, extract, summarise and translate a text through the host's model provider
// (the catalogue's `text` service; README.md):
//
//   classify   GET {text*, labels*}                 -> one of the labels with a confidence 0..1
//   extract    GET {text*, schema*}                 -> JSON only, checked against the schema
//   summarise  GET {text*, style = prose|bullets, lines 1-20 = 3}
//   translate  GET {text*, to*}                     -> the translation, formatting kept
//
// `text` is at most 30,000 characters (Unicode code points; the host's validator answers 400
// naming it beyond). Each method asks Host::complete (tasks.hpp says what and how answers are
// read); which model answers is the host's choice (model.provider, OPENAI_*/ANTHROPIC_*, the
// profile, else model-builtin). When the answer comes from model-builtin (its `model` is
// "builtin"), summarise is done here instead, extractively (extractive.hpp), and the other three
// answer 503 naming the settings that choose a real model.
#pragma once

#include <platform/sdk.hpp>
#include <string>

class Text {
public:
    static void describe(platform::ServiceSpec<Text>& s);
    explicit Text(const platform::Host& host) : host_(host) {}

    platform::json classify(platform::Request& r);
    platform::json extract(platform::Request& r);
    platform::json summarise(platform::Request& r);
    platform::json translate(platform::Request& r);

private:
    platform::Host host_;
};
