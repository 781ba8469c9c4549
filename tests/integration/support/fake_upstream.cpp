#include "fake_upstream.hpp"

#include <algorithm>
#include <sstream>

#include "../../unit/outbound/loopback_server.hpp"
#include "fixtures.hpp"

namespace platform::test {

namespace {

std::string decode(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size()) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

}  // namespace

std::string FakeUpstream::Request::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? "" : it->second;
}

std::string FakeUpstream::Request::param(const std::string& name) const {
    std::istringstream in(query);
    for (std::string pair; std::getline(in, pair, '&');) {
        auto eq = pair.find('=');
        if (decode(pair.substr(0, eq)) == name)
            return eq == std::string::npos ? "" : decode(pair.substr(eq + 1));
    }
    return "";
}

FakeUpstream::FakeUpstream()
    : server_(std::make_unique<LoopbackServer>([this](const LoopbackServer::Request& r) {
          return answer(r.method, r.target, r.headers, r.body);
      })) {}

FakeUpstream::~FakeUpstream() {
    server_.reset();
}

std::string FakeUpstream::url(const std::string& suffix) const {
    return server_->url("") + suffix;
}

std::string FakeUpstream::allow_entry() const {
    return "127.0.0.1:" + std::to_string(server_->port());
}

std::string FakeUpstream::outbound_yaml(const std::vector<Entry>& providers, int timeout_ms) const {
    std::string y = "\noutbound:\n  allow: [\"" + allow_entry() +
                    "\"]\n  timeout_ms: " + std::to_string(timeout_ms) + "\n  providers:\n";
    for (const auto& p : providers) {
        y += "    " + p.name + ":\n      base_url: \"" + url("/" + p.name) + "\"\n";
        if (!p.api_key.empty()) y += "      api_key: \"" + p.api_key + "\"\n";
        if (!p.api_key_header.empty()) y += "      api_key_header: \"" + p.api_key_header + "\"\n";
        if (p.key_required) y += "      key_required: true\n";
        y += "      timeout_ms: " + std::to_string(timeout_ms) + "\n";  // whatever the plugin asks
    }
    return y;
}

void FakeUpstream::serve(const std::string& path, Route route) {
    std::lock_guard<std::mutex> g(m_);
    routes_[path] = std::move(route);
}

std::vector<FakeUpstream::Request> FakeUpstream::requests(const std::string& path) const {
    std::lock_guard<std::mutex> g(m_);
    std::vector<Request> out;
    for (const auto& r : requests_)
        if (path.empty() || r.path == path) out.push_back(r);
    return out;
}

void FakeUpstream::forget() {
    std::lock_guard<std::mutex> g(m_);
    requests_.clear();
}

std::string FakeUpstream::fixture_text(const std::string& provider, const std::string& file) {
    return platform::test::fixture_text(provider, file);
}

FakeUpstream::Route FakeUpstream::fixture(const std::string& provider, const std::string& file,
                                          const std::string& content_type, int status) {
    return Route{status, fixture_text(provider, file), content_type, {}, false};
}

FakeUpstream::Route FakeUpstream::status(int code, std::string body, std::string content_type) {
    return Route{code, std::move(body), std::move(content_type), {}, false};
}

FakeUpstream::Route FakeUpstream::hang() {
    Route r;
    r.hang = true;
    return r;
}

std::string FakeUpstream::answer(const std::string& method, const std::string& target,
                                 const std::map<std::string, std::string>& headers,
                                 const std::string& body) {
    const auto q = target.find('?');
    Request req{method, target.substr(0, q), q == std::string::npos ? "" : target.substr(q + 1),
                body, headers};
    Route route;
    {
        std::lock_guard<std::mutex> g(m_);
        requests_.push_back(req);
        auto it = routes_.find(req.path);
        // A route "path?k=v&..." is preferred when the request has every one of its parameters.
        for (auto r = routes_.lower_bound(req.path + "?");
             r != routes_.end() && r->first.rfind(req.path + "?", 0) == 0; ++r) {
            const std::string want = r->first.substr(req.path.size() + 1);
            bool all = true;
            for (size_t at = 0; at <= want.size() && all;) {
                const size_t amp = std::min(want.find('&', at), want.size());
                const std::string pair = want.substr(at, amp - at),
                                  name = pair.substr(0, pair.find('='));
                const std::string value =
                    pair.find('=') == std::string::npos ? "" : pair.substr(pair.find('=') + 1);
                all = req.param(name) == value;
                at = amp + 1;
            }
            if (all) {
                it = r;
                break;
            }
        }
        if (it == routes_.end())
            return LoopbackServer::reply(404,
                                         "fake upstream: no route for " + method + " " + req.path,
                                         {{"Content-Type", "text/plain"}});
        route = it->second;
    }
    if (route.hang) return "";
    auto hdrs = route.headers;
    hdrs.emplace_back("Content-Type", route.content_type);
    return LoopbackServer::reply(route.status, route.body, hdrs);
}

}  // namespace platform::test
