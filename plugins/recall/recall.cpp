#include "recall.hpp"

#include "common/conversations/conversations.hpp"

namespace schema = platform::schema;

using platform::Access;
using platform::json;
namespace conversations = common::conversations;

void Recall::describe(platform::ServiceSpec<Recall>& s) {
    s.id("recall")
        .version("1.0.0")
        .service("v1.recall")
        .summary("Look back at your conversations with the assistant");
    s.get("conversation")
        .title("Recall a conversation")
        .description(
            "One of your conversations with the assistant: its summary and its messages, oldest "
            "first. "
            "A long one keeps the most recent `limit` messages (default 50, at most 1000).")
        .schema(schema::object()
                    .prop("id", schema::id("A conversation id of yours", 100))
                    .min_len(1)
                    .required()
                    .prop("limit",
                          schema::limit(1000, 50,
                                        "The most recent this many messages, 1-1000 (default 50)")))
        .access(Access::account)
        .read_only()
        .handler(&Recall::conversation);
    s.get("list")
        .title("List conversations")
        .description(
            "Your conversations with the assistant, most recently active first, optionally only "
            "those "
            "begun on one client (web, mail or cli); each with its id, title, channel, agent, "
            "times, "
            "number of messages and last message.")
        .schema(schema::object()
                    .str("client")
                    .one_of({"web", "mail", "cli"})
                    .doc("Only conversations begun on this client")
                    .prop("limit", schema::limit(100, 20, "At most this many, 1-100 (default 20)")))
        .access(Access::account)
        .read_only()
        .handler(&Recall::list);
}

json Recall::summary(const json& header) {
    return conversations::pick(
        header, {"id", "title", "channel", "agent", "created", "updated", "messages", "last"});
}

json Recall::conversation(platform::Request& r) {
    const std::string id = conversations::required(r, "id");
    const int64_t limit = r.integer("limit");
    const json answer = conversations::agent(r, "messages", {{"id", id}, {"limit", limit}});
    json messages = json::array();
    for (const auto& m : answer.value("messages", json::array()))
        messages.push_back(conversations::message(m));
    return {{"conversation", summary(answer.value("thread", json::object()))},
            {"messages", messages}};
}

json Recall::list(platform::Request& r) {
    const std::string client = conversations::channel(r, "client");
    const int64_t limit = r.integer("limit");
    json args = {{"limit", limit}};
    if (!client.empty()) args["channel"] = client;
    const json answer = conversations::agent(r, "threads", args);
    json out = json::array();
    for (const auto& header : answer.value("threads", json::array()))
        out.push_back(summary(header));
    return {{"conversations", out}};
}

PLATFORM_SERVICE(Recall)
