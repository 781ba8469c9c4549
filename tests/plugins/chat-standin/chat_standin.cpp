// chat-standin — test-only: the `chat` service's contract in memory, for the XMPP bridge's tests
// while no chat plugin is built. `send` {room, message} checks a group room through groups/read as
// the caller (members only; an encrypted group answers 409), stores the message and publishes it
// on `chat.room.<room>` and `chat.all`; `messages` {room} answers the last 50, oldest first.
#include <deque>
#include <map>
#include <mutex>
#include <platform/sdk.hpp>
#include <platform/sdk/random.hpp>
#include <regex>

namespace schema = platform::schema;
using platform::json;

class ChatStandin {
public:
    explicit ChatStandin(const platform::Host& host) : host_(host) {}

    static void describe(platform::ServiceSpec<ChatStandin>& s) {
        s.id("chat-standin").version("1.0.0").service("v1.chat").summary("Test-only chat rooms");
        s.post("send")
            .title("Send")
            .schema(schema::object()
                        .str("room")
                        .pattern("^[a-z0-9][a-z0-9._-]{0,63}$")
                        .required()
                        .str("message")
                        .min_len(1)
                        .max_len(4000)
                        .required())
            .access(platform::Access::owner)
            .handler(&ChatStandin::send);
        s.get("messages")
            .title("Messages")
            .schema(schema::object().str("room").def("general"))
            .access(platform::Access::owner)
            .read_only()
            .handler(&ChatStandin::messages);
    }

    json send(platform::Request& r) {
        const std::string room = r.str("room");
        check_room(r, room);
        const json msg = {{"id", platform::random_hex(16)},
                          {"room", room},
                          {"from", r.account()},
                          {"text", r.str("message")},
                          {"at", platform::rfc3339(host_.now_ms())},
                          {"agent", false}};
        {
            std::lock_guard<std::mutex> lock(m_);
            auto& list = rooms_[room];
            list.push_back(msg);
            if (list.size() > 50) list.pop_front();
        }
        host_.publish_event("chat.room." + room, msg.dump());
        host_.publish_event("chat.all", msg.dump());
        return msg;
    }

    json messages(platform::Request& r) {
        const std::string room = r.str("room");
        check_room(r, room);
        std::lock_guard<std::mutex> lock(m_);
        json out = json::array();
        for (const auto& m : rooms_[room]) out.push_back(m);
        return {{"room", room}, {"messages", out}};
    }

private:
    void check_room(platform::Request& r, const std::string& room) {
        if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
        static const std::regex group("^[0-9a-f]{32}$");
        if (!std::regex_match(room, group)) return;  // a public room
        auto g = host_.call("groups", "read", {{"id", room}}, r.call());
        if (!g.ok()) throw platform::Error(g.code, g.body);
        if (g.result().value("encrypted", false))
            throw platform::conflict("room: an encrypted group; XMPP clients only");
    }

    platform::Host host_;
    std::mutex m_;
    std::map<std::string, std::deque<json>> rooms_;
};

PLATFORM_SERVICE(ChatStandin)
