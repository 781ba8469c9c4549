// The host<->worker framing and channel (worker_protocol.hpp, worker_channel.hpp): partial reads,
// big frames, many requests in flight, and garbage, which drops the connection without a crash.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <platform/host/isolation/worker_channel.hpp>
#include <platform/host/isolation/worker_protocol.hpp>
#include <random>
#include <stdexcept>
#include <thread>

using namespace platform::host::worker;
using nlohmann::json;

namespace {

std::string all_bytes() {
    std::string s;
    for (int i = 0; i < 256; ++i) s.push_back(static_cast<char>(i));
    return s;
}

TEST(WorkerFrames, RoundTripByteByByteKeepsBytesExact) {
    const json message = {
        {"op", "store_put"}, {"id", 7}, {"key", bytes(all_bytes())}, {"text", "héllo"}};
    const std::string frame = encode_frame(message);
    FrameDecoder d;
    for (size_t i = 0; i < frame.size(); ++i) {
        ASSERT_FALSE(d.next().has_value()) << "complete too early at byte " << i;
        ASSERT_TRUE(d.feed(&frame[i], 1));
    }
    auto got = d.next();
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, message);
    EXPECT_EQ(bytes_of((*got)["key"]), all_bytes());
    EXPECT_FALSE(d.next().has_value());
    EXPECT_EQ(d.buffered(), 0u);
}

TEST(WorkerFrames, SeveralFramesSplitAnywhere) {
    std::string stream;
    for (int i = 0; i < 50; ++i) stream += encode_frame({{"op", "log"}, {"n", i}});
    FrameDecoder d;
    std::vector<json> got;
    for (size_t off = 0; off < stream.size(); off += 37) {  // chunks that cut frames and prefixes
        ASSERT_TRUE(d.feed(stream.data() + off, std::min<size_t>(37, stream.size() - off)));
        while (auto m = d.next()) got.push_back(*m);
    }
    ASSERT_EQ(got.size(), 50u);
    for (int i = 0; i < 50; ++i) EXPECT_EQ(got[i]["n"], i);
}

TEST(WorkerFrames, BigFrames) {
    const std::string big(8u * 1024u * 1024u, 'x');
    const std::string frame = encode_frame({{"op", "respond"}, {"body", bytes(big)}});
    FrameDecoder d;
    ASSERT_TRUE(d.feed(frame.data(), frame.size() / 2));
    EXPECT_FALSE(d.next().has_value());
    ASSERT_TRUE(d.feed(frame.data() + frame.size() / 2, frame.size() - frame.size() / 2));
    auto got = d.next();
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(bytes_of((*got)["body"]).size(), big.size());
}

TEST(WorkerFrames, GarbageIsAnErrorNeverACrash) {
    const char zero_length[] = {0, 0, 0, 0};
    FrameDecoder a;
    EXPECT_FALSE(a.feed(zero_length, 4));
    EXPECT_NE(a.error(), "");
    EXPECT_FALSE(a.feed("more", 4));  // broken for good

    const char huge[] = {'\x7f', '\xff', '\xff', '\xff'};
    FrameDecoder b;
    EXPECT_FALSE(b.feed(huge, 4));

    std::string not_cbor = std::string("\0\0\0\x08", 4) + "\xff\xfe\xfd\xfc\x1f\x1f\x1f\x1f";
    FrameDecoder c;
    EXPECT_FALSE(c.feed(not_cbor.data(), not_cbor.size()));

    std::vector<uint8_t> array = json::to_cbor(json::array({1, 2}));
    std::string not_a_map = std::string("\0\0\0", 3) + static_cast<char>(array.size()) +
                            std::string(array.begin(), array.end());
    FrameDecoder e;
    EXPECT_FALSE(e.feed(not_a_map.data(), not_a_map.size()));

    // Random bytes behind plausible lengths: every outcome is "error" or "a map", never a crash.
    std::mt19937 rng(42);
    for (int round = 0; round < 2000; ++round) {
        std::string junk(4 + rng() % 64, '\0');
        for (auto& ch : junk) ch = static_cast<char>(rng());
        junk[0] = junk[1] = 0;
        FrameDecoder f;
        f.feed(junk.data(), junk.size());
        while (auto m = f.next()) EXPECT_TRUE(m->is_object());
    }
}

TEST(WorkerChannel, ManyRequestsInFlightAreMatchedById) {
    int sv[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    std::shared_ptr<Channel> b;
    auto a = std::make_shared<Channel>(sv[0], nullptr, nullptr);
    b = std::make_shared<Channel>(
        sv[1],
        [&b](json m) {
            auto self = b;
            std::thread([self, m = std::move(m)] {
                self->reply(m, {{"n", m["n"].get<int>() * 2}});
            }).detach();
        },
        nullptr);
    a->start();
    b->start();
    std::vector<std::thread> threads;
    std::atomic<int> good{0};
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 50; ++i) {
                const int n = t * 1000 + i;
                auto r = a->request({{"op", "double"}, {"n", n}}, 10000);
                if (r && (*r)["n"] == 2 * n && (*r)["code"] == 0) good.fetch_add(1);
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(good.load(), 400);
    a->close();
    b->close();
}

// A started channel on one end of a socket pair whose other end, `peer`, the test drives; `why`
// gets the reason the channel gives when it closes. The test closes `peer`.
struct ChannelWithPeer {
    ChannelWithPeer() {
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) throw std::runtime_error("socketpair");
        peer = sv[1];
        channel = std::make_shared<Channel>(
            sv[0], nullptr, [this](const std::string& reason) { closed.set_value(reason); });
        channel->start();
        why = closed.get_future();
    }
    int peer = -1;
    std::promise<std::string> closed;
    std::future<std::string> why;
    std::shared_ptr<Channel> channel;
};

TEST(WorkerChannel, GarbageDropsTheConnectionAndFailsPendingRequests) {
    ChannelWithPeer c;
    auto& a = c.channel;
    // A request nobody answers is pending while the peer sends garbage.
    auto pending = std::async(std::launch::async, [&] { return a->request({{"op", "ping"}}); });
    std::string junk = std::string("\0\0\0\x05", 4) + "\xff\xff\xff\xff\xff";
    ASSERT_EQ(::write(c.peer, junk.data(), junk.size()), static_cast<ssize_t>(junk.size()));
    ASSERT_EQ(c.why.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_NE(c.why.get().find("protocol error"), std::string::npos);
    EXPECT_FALSE(pending.get().has_value());
    EXPECT_TRUE(a->closed());
    EXPECT_FALSE(a->send({{"op", "log"}}));
    EXPECT_FALSE(a->request({{"op", "ping"}}, 100).has_value());
    ::close(c.peer);
}

TEST(WorkerChannel, PeerCloseIsNoticed) {
    ChannelWithPeer c;
    ::close(c.peer);
    ASSERT_EQ(c.why.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_TRUE(c.channel->closed());
}

}  // namespace
