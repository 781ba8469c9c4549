#include "common/paging/paged_call.hpp"

#include <platform/sdk/error.hpp>

namespace common::paging {

using platform::json;

std::vector<json> all_pages(const platform::Host& host, platform_call_t* parent,
                            const PagedMethod& m) {
    std::vector<json> out;
    for (size_t offset = 0;;) {
        json args = m.args.is_object() ? m.args : json::object();
        args["offset"] = offset;
        args["limit"] = m.page_size;
        platform::Host::CallResult page;
        try {
            page = host.call(m.service, m.method, args, parent);
        } catch (const platform::Error& e) {
            if (e.code() == platform::Code::not_found) return out;  // no such service
            throw;
        }
        if (!page.ok()) throw platform::Error(page.code, m.name + ": " + page.body);
        const json body = json::parse(page.body, nullptr, false);
        const json items = body.is_object() ? body.value(m.items, json::array()) : json::array();
        for (const auto& item : items) out.push_back(item);
        offset += items.size();
        if (items.empty() || offset >= body.value("total", size_t{0})) return out;
    }
}

}  // namespace common::paging
