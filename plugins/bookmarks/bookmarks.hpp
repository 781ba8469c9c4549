// bookmarks — items the caller saved, with a private note (the catalogue's `bookmarks` service).
//
// A bookmark is {id, ref, url, title, note, kind, created, saved}: `ref` is the id of a public
// archive item ("" for a plain link), kind is article, video, post or link. `add` takes a `ref`
// (resolved through the `archive` service; a ref it cannot resolve — or no archive service at
// all — is 404 naming `ref`) or, when the item has no archive id, a `url` (http or https). The
// bookmark's id is derived from its ref or URL, so saving the same item again updates that
// bookmark: its note and title are kept unless new non-empty ones are given, `saved` moves to now. An
// archive item's text is kept with the bookmark and `get` answers it as `archived` (null for plain
// links). `list` is newest saved first and its `query` searches titles, URLs, notes and archived
// text. Another account's ids answer 404.
//
// add, annotate, get, delete are in bookmarks.cpp; list in bookmarks_list.cpp; the archive
// lookup in archive_item.cpp.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

class Bookmarks {
public:
    static void describe(platform::ServiceSpec<Bookmarks>& s);
    explicit Bookmarks(const platform::Host& host) : host_(host) {}

    platform::json add(platform::Request& r);
    platform::json annotate(platform::Request& r);
    platform::json get(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json remove(platform::Request& r);

    // What the archive holds about one item.
    struct ArchiveItem {
        std::string title, url, kind, text;  // kind: the bookmark kind (article, video, post, link)
    };
    // Looks `ref` up through the archive service as the caller: its `get` method ({id}), else its
    // `search` ({query: ref}) keeping the entry whose id is ref. 404 naming `ref` when neither
    // answers with it (also when there is no archive service).
    ArchiveItem resolve(platform::Request& r, const std::string& ref) const;

    // The bookmark kind of an archive kind: news → article, post and social → post, video → video,
    // anything else → link.
    static std::string kind_of_archive(const std::string& archive_kind);
    // The kind of a plain URL: video for well-known video hosts, else link.
    static std::string kind_of_url(const std::string& url);
    // A bookmark as list shows it: without the archived text and the internal `seq`.
    static platform::json summary(platform::json bookmark);

    // Owner-scoped collection of bookmarks by id. Records also hold `text` (archived text) and
    // `seq` (grows with every save, for the newest-first order).
    static constexpr const char* kCollection = "bookmarks";

private:
    platform::Host host_;
};
