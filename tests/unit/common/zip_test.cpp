// common/zip: the directory and members of archives made here (stored and deflated, damaged on
// purpose) and of the GTFS fixture, which a streaming writer made (sizes in data descriptors).
#include <gtest/gtest.h>

#include <string>

#include "common/zip/zip_archive.hpp"
#include "fixtures.hpp"
#include "zip_writer.hpp"

using common::zip::Archive;
using common::zip::Error;
using platform::test::ZipWriter;

namespace {

std::string expect_error(const std::string& bytes, const std::string& member) {
    try {
        Archive zip(bytes);
        const auto* e = zip.find(member);
        if (!e) return "no member";
        zip.read_all(*e, 1 << 20);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string big_text() {
    std::string s;
    for (int i = 0; i < 200000; ++i) s += "line " + std::to_string(i) + ",a,b,c\n";
    return s;  // several MB: many inflate chunks
}

}  // namespace

TEST(Zip, StoredAndDeflatedMembersReadBackExactly) {
    const std::string big = big_text();
    ZipWriter z;
    z.add("a.txt", "hello", ZipWriter::stored);
    z.add("feed/b.txt", big);
    z.add("empty.txt", "", ZipWriter::deflated);
    const std::string bytes = z.finish();
    Archive zip(bytes);
    ASSERT_EQ(zip.entries().size(), 3u);
    EXPECT_EQ(zip.entries()[1].name, "feed/b.txt");
    EXPECT_EQ(zip.entries()[1].size, big.size());
    EXPECT_LT(zip.entries()[1].compressed_size, big.size() / 3);
    EXPECT_EQ(zip.read_all(*zip.find("a.txt"), 100), "hello");
    EXPECT_EQ(zip.read_all(*zip.find("feed/b.txt"), big.size()), big);
    EXPECT_EQ(zip.read_all(*zip.find("empty.txt"), 0), "");
    size_t chunks = 0, total = 0;
    zip.read(*zip.find("b.txt"), [&](std::string_view c) {  // found by its last path part
        ++chunks, total += c.size();
        EXPECT_LE(c.size(), 256u * 1024);
    });
    EXPECT_EQ(total, big.size());
    EXPECT_GT(chunks, 4u);
}

TEST(Zip, FindByLastPartOnlyWhenItIsUnambiguous) {
    ZipWriter z;
    z.add("x/stops.txt", "1");
    z.add("y/stops.txt", "2");
    z.add("routes.txt", "3");
    const std::string bytes = z.finish();
    Archive zip(bytes);
    EXPECT_EQ(zip.find("stops.txt"), nullptr);
    ASSERT_NE(zip.find("y/stops.txt"), nullptr);
    EXPECT_EQ(zip.read_all(*zip.find("y/stops.txt"), 10), "2");
    EXPECT_NE(zip.find("routes.txt"), nullptr);
    EXPECT_EQ(zip.find("trips.txt"), nullptr);
}

TEST(Zip, TheStreamingWritersArchiveReads) {
    const std::string bytes = platform::test::fixture_text("gtfs", "sample-feed.zip");
    Archive zip(bytes);
    EXPECT_EQ(zip.entries().size(), 11u);
    const auto* stops = zip.find("stops.txt");
    ASSERT_NE(stops, nullptr);
    EXPECT_EQ(stops->method, 8);
    EXPECT_EQ(zip.read_all(*stops, 1 << 20),
              platform::test::fixture_text("gtfs", "sample-feed/stops.txt"));
}

TEST(Zip, DamageIsAnErrorNamingTheMemberAndTheFault) {
    EXPECT_TRUE(has(expect_error("not a zip at all, just text", "a"), "not a ZIP archive"));
    EXPECT_TRUE(has(expect_error("", "a"), "too short"));
    {
        ZipWriter z;
        z.add("a.txt", "hello world", ZipWriter::deflated, -1, 12345);
        EXPECT_TRUE(has(expect_error(z.finish(), "a.txt"), "a.txt: fails its CRC-32 check"));
    }
    {
        ZipWriter z;
        z.add("a.txt", "hello world", ZipWriter::deflated, 5);
        EXPECT_TRUE(has(expect_error(z.finish(), "a.txt"), "more than its recorded size"));
    }
    {
        ZipWriter z;
        z.add("a.txt", "hello world", ZipWriter::stored, 50);
        EXPECT_TRUE(has(expect_error(z.finish(), "a.txt"), "not the recorded 50"));
    }
    {
        ZipWriter z;
        z.add("a.txt", "hello", ZipWriter::stored, -1, -1, 14);  // LZMA
        EXPECT_TRUE(has(expect_error(z.finish(), "a.txt"), "compression method 14"));
    }
    {
        ZipWriter z;
        z.add("a.txt", big_text());
        std::string bytes = z.finish();
        bytes[60] = static_cast<char>(bytes[60] ^ 0x55);  // inside the deflate data
        bytes[61] = static_cast<char>(bytes[61] ^ 0x55);
        const std::string why = expect_error(bytes, "a.txt");
        EXPECT_TRUE(has(why, "a.txt")) << why;
    }
    {
        ZipWriter z;
        z.add("a.txt", "hello");
        std::string bytes = z.finish();
        EXPECT_TRUE(has(expect_error(bytes.substr(0, bytes.size() - 30), "a.txt"), "ZIP"));
        bytes[bytes.size() - 6] = '\x7f';  // the directory's offset points past the end
        EXPECT_TRUE(has(expect_error(bytes, "a.txt"), "outside"));
    }
}

TEST(Zip, ReadAllRefusesAMemberOverItsCap) {
    ZipWriter z;
    z.add("a.txt", std::string(1000, 'x'));
    const std::string bytes = z.finish();
    Archive zip(bytes);
    EXPECT_THROW(zip.read_all(*zip.find("a.txt"), 999), Error);
    EXPECT_EQ(zip.read_all(*zip.find("a.txt"), 1000).size(), 1000u);
}
