#include "owner_sweep.hpp"

#include <gtest/gtest.h>

#include <set>

#include "owned_fixtures.hpp"
#include "sweep_verdicts.hpp"

namespace platform::test {

using nlohmann::json;

namespace {

// The fixture of owner operation `op`, or a test failure naming it.
const OwnedFixture* fixture_of(const SweptOperation& op) {
    auto it = owned_fixtures().find(op.path);
    EXPECT_NE(it, owned_fixtures().end())
        << op.path << " declares owner access but has no fixture in owned_fixtures.cpp";
    return it == owned_fixtures().end() ? nullptr : &it->second;
}

// A reads its resource back: unchanged by B's call.
void expect_kept(HttpClient& c, const SweptOperation& op, const OwnedFixture& f,
                 const std::string& id, const std::string& a) {
    auto mine = c.post_json(f.read, with_id(f.read_args, id), bearer(a));
    EXPECT_EQ(mine.status, 200) << op.path << " " << mine.body;
    EXPECT_NE(mine.body.find(f.read_shows), std::string::npos)
        << op.path << ": A's read-back lacks " << f.read_shows << ": " << mine.body;
}

// A tool result's text parts and structured content, unescaped.
std::string result_text(const json& result) {
    std::string out = result.value("structuredContent", json()).dump();
    for (const auto& part : result.value("content", json::array())) out += part.value("text", "");
    return out;
}

}  // namespace

int owner_sweep_http(HttpClient& c, const std::vector<SweptOperation>& ops,
                     const OwnerAccounts& accounts) {
    int swept = 0;
    for (const auto& op : ops) {
        if (op.access != "owner") continue;
        const OwnedFixture* f = fixture_of(op);
        if (!f) continue;
        const OwnerPair who = accounts(op, swept);
        const auto created = create_owned(c, *f, bearer(who.a), op.path);
        if (!created) continue;
        auto r = c.post_json(op.path, with_id(f->args, *created), bearer(who.b));
        const int expected = f->expect == Expect::NotFound      ? 404
                             : f->expect == Expect::Unavailable ? 503
                                                                : 200;
        EXPECT_EQ(r.status, expected) << op.path << " " << r.body;
        if (f->expect == Expect::Own && !f->own_shows.empty()) {
            EXPECT_NE(r.body.find(f->own_shows), std::string::npos)
                << op.path << ": B's own answer lacks " << f->own_shows << ": " << r.body;
        }
        if (f->expect != Expect::Own) {
            EXPECT_EQ(r.body.find(kMarker), std::string::npos)
                << op.path << " leaks A's resource: " << r.body;
        }
        expect_kept(c, op, *f, *created, who.a);
        ++swept;
    }
    return swept;
}

McpOwnerSweep owner_sweep_mcp(int port, HttpClient& c, const std::vector<SweptOperation>& ops,
                              const OwnerAccounts& accounts) {
    McpOwnerSweep out;
    std::set<std::string> tools;  // what B's tools/list offers, from the first B
    for (const auto& op : ops) {
        if (op.access != "owner") continue;
        const OwnedFixture* f = fixture_of(op);
        if (!f) continue;
        const OwnerPair who = accounts(op, out.swept);
        auto mb = sweep_mcp_client(port, who.b);
        if (tools.empty())
            for (const auto& [name, _] : mb->tools()) tools.insert(name);
        if (!tools.count(op.tool)) {
            ++out.not_tools;
            continue;
        }
        const auto created = create_owned(c, *f, bearer(who.a), op.path);
        if (!created) continue;
        const json answer = mcp_response(call_tool(*mb, 1, op.tool, with_id(f->args, *created)));
        EXPECT_TRUE(answer.contains("result")) << op.tool << " " << answer.dump();
        const json& r = answer.contains("result") ? answer["result"] : answer;
        const bool is_error = r.value("isError", false);
        if (f->expect == Expect::Own || f->expect == Expect::List) {
            EXPECT_FALSE(is_error) << op.tool << " " << r.dump();
        } else {
            EXPECT_TRUE(is_error) << op.tool << " " << r.dump();
        }
        const std::string code = error_code_of(r);
        if (f->expect == Expect::NotFound && !code.empty()) {
            EXPECT_EQ(code, "not_found") << op.tool << " " << r.dump();
        }
        if (f->expect == Expect::Own && !f->own_shows.empty()) {
            EXPECT_NE(result_text(r).find(f->own_shows), std::string::npos)
                << op.tool << ": B's own answer lacks " << f->own_shows << ": " << r.dump();
        }
        if (f->expect != Expect::Own) {
            EXPECT_EQ(r.dump().find(kMarker), std::string::npos)
                << op.tool << " leaks A's resource: " << r.dump();
        }
        expect_kept(c, op, *f, *created, who.a);
        ++out.swept;
    }
    return out;
}

}  // namespace platform::test
