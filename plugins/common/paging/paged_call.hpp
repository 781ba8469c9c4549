// common/paging/paged_call — reads every item of a listing method that answers page by page, such
// as blog/feed. A library linked by the plugins that read such lists (social, stream); not a
// plugin. Stateless; any thread.
//
// The method is called with {offset, limit} (plus any fixed arguments) and answers
// {"<items>": [...], "total": n}: the pages are read in order, offset advancing by each page's
// length, until a page is empty or `total` items were read. A non-object answer counts as an empty
// page.
#pragma once

#include <cstddef>
#include <platform/sdk/host.hpp>
#include <string>
#include <vector>

namespace common::paging {

struct PagedMethod {
    std::string service;  // "v1.blog"
    std::string method;   // "feed"
    std::string items;    // "posts": the answer's array of items
    std::string name;     // "blog/feed": how failures name it
    size_t page_size = 100;
    platform::json args = platform::json::object();  // sent with every page, beside offset/limit
};

// Every item of `m`, in the method's order, called through `host` for the call being handled
// (`parent`, Request::call(); nullptr: as this plugin's service account). A host without the
// service or method (Error not_found) gives no items. A page that fails is platform::Error with
// the page's code and "<name>: <its message>"; another error of Host::call is passed on.
std::vector<platform::json> all_pages(const platform::Host& host, platform_call_t* parent,
                                      const PagedMethod& m);

}  // namespace common::paging
