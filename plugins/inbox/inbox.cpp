#include "inbox.hpp"

#include "common/conversations/conversations.hpp"

using platform::Access;
using platform::json;
namespace conversations = common::conversations;

namespace {

namespace schema = platform::schema;

schema::Value limit_arg() {
    return schema::limit(100, 20, "At most this many, 1-100 (default 20)");
}
// The one required argument of read, mark_read and mark_unread.
schema::Object conversation() {
    return schema::id_object("A conversation id of yours (an item's id, or agent/ask's thread)",
                             100)
        .min_len(1);
}

}  // namespace

void Inbox::describe(platform::ServiceSpec<Inbox>& s) {
    s.id("inbox")
        .version("1.0.0")
        .service("v1.inbox")
        .summary("The assistant's inbox: your conversations, read and unread");
    s.get("list")
        .title("List the inbox")
        .description(
            "Your recent conversations with the assistant across channels (web, mail, cli), most "
            "recently "
            "active first: each with its id, title, the channel it began on, its unread count, "
            "when it "
            "was last updated and its last message. Listing does not mark anything read.")
        .schema(schema::object().prop("limit", limit_arg()))
        .access(Access::account)
        .read_only()
        .handler(&Inbox::list);
    s.get("read")
        .title("Read a conversation")
        .description(
            "One of your conversations and its latest messages (at most `limit`, oldest first). "
            "Reading "
            "does not change its unread count: use inbox/mark_read.")
        .schema(conversation().prop("limit", limit_arg()))
        .access(Access::account)
        .read_only()
        .http_path("/inbox/{id}")
        .handler(&Inbox::read);
    s.post("mark_read")
        .title("Mark a conversation read")
        .description("Sets the conversation's unread count to 0; answers the inbox item.")
        .schema(conversation())
        .access(Access::account)
        .idempotent()
        .handler(&Inbox::mark_read);
    s.post("mark_unread")
        .title("Mark a conversation unread")
        .description("Sets the conversation's unread count to 1; answers the inbox item.")
        .schema(conversation())
        .access(Access::account)
        .idempotent()
        .handler(&Inbox::mark_unread);
}

json Inbox::item(const json& header) {
    return conversations::pick(header, {"id", "title", "channel", "unread", "updated", "last"});
}

json Inbox::list(platform::Request& r) {
    const int64_t limit = r.integer("limit");
    const json answer = conversations::agent(r, "threads", {{"limit", limit}});
    json items = json::array();
    for (const auto& header : answer.value("threads", json::array())) items.push_back(item(header));
    return {{"items", items}};
}

json Inbox::read(platform::Request& r) {
    const std::string id = conversations::required(r, "id");
    const int64_t limit = r.integer("limit");
    const json answer = conversations::agent(r, "messages", {{"id", id}, {"limit", limit}});
    json out = item(answer.value("thread", json::object()));
    out["messages"] = json::array();
    for (const auto& m : answer.value("messages", json::array()))
        out["messages"].push_back(conversations::message(m));
    return out;
}

json Inbox::mark(platform::Request& r, bool unread) {
    const std::string id = conversations::required(r, "id");
    return item(conversations::agent(r, "mark", {{"id", id}, {"unread", unread}}));
}

json Inbox::mark_read(platform::Request& r) {
    return mark(r, false);
}
json Inbox::mark_unread(platform::Request& r) {
    return mark(r, true);
}

PLATFORM_SERVICE(Inbox)
