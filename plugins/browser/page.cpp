// Page: one tab of a Chromium over the DevTools protocol (rules in page.hpp).
#include "page.hpp"

#include <algorithm>
#include <cctype>
#include <platform/sdk.hpp>

namespace browser {

using nlohmann::json;

namespace {

constexpr int kPollMs = 100;                 // how often `wait` looks for its selector
constexpr int kWidth = 1280, kHeight = 800;  // the viewport, CSS pixels

// A header of a DevTools response by case-insensitive name; "" when absent.
std::string header(const json& headers, const std::string& lower_name) {
    if (!headers.is_object()) return "";
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        std::string k = it.key();
        std::transform(k.begin(), k.end(), k.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        if (k == lower_name && it->is_string()) return it->get<std::string>();
    }
    return "";
}

}  // namespace

Page::Page(Chromium& browser, const std::string& url, const std::string& wait) : b_(browser) {
    const json target = b_.call("Target.createTarget", {{"url", "about:blank"}});
    const json attached = b_.call("Target.attachToTarget",
                                  {{"targetId", target.value("targetId", "")}, {"flatten", true}});
    session_ = attached.value("sessionId", "");
    b_.call("Page.enable", json::object(), session_);
    b_.call("Network.enable", json::object(), session_);
    // The window's size less the headless frame is not 1280×800; the page's viewport is set.
    b_.call("Emulation.setDeviceMetricsOverride",
            {{"width", kWidth}, {"height", kHeight}, {"deviceScaleFactor", 1}, {"mobile", false}},
            session_);
    b_.forget_events();
    const json nav = b_.call("Page.navigate", {{"url", url}}, session_);
    const std::string error = nav.value("errorText", "");
    if (!error.empty()) {
        if (error == "net::ERR_TUNNEL_CONNECTION_FAILED" ||
            error == "net::ERR_PROXY_CONNECTION_FAILED")
            throw platform::Error(platform::Code::bad_gateway,
                                  "url: " + url +
                                      " could not be reached: the outbound guard refused its "
                                      "address or it did not answer (" +
                                      error + ")");
        throw platform::Error(platform::Code::bad_gateway,
                              "url: " + url + " could not be loaded (" + error + ")");
    }
    const std::string loader = nav.value("loaderId", "");
    if (!b_.wait_event("Page.loadEventFired", session_, [](const json&) { return true; }))
        throw platform::Error(platform::Code::timeout,
                              "url: the page did not finish loading in time");
    // The document's own answer: the proxy marks its refusals with X-Platform-Proxy.
    for (const auto& e : b_.events()) {
        if (e.value("method", "") != "Network.responseReceived" ||
            e.value("sessionId", "") != session_)
            continue;
        const json& p = e["params"];
        if (p.value("type", "") != "Document" || p.value("loaderId", "") != loader) continue;
        const json& response = p["response"];
        status_ = response.value("status", 0);
        const std::string refused =
            header(response.value("headers", json::object()), "x-platform-proxy");
        if (!refused.empty()) {
            if (status_ == 403) throw platform::permission_denied("url: " + refused);
            if (status_ == 400) throw platform::invalid_argument("url: " + refused);
            throw platform::Error(platform::Code::bad_gateway, "url: " + refused);
        }
    }
    if (wait.empty()) return;
    const std::string probe = "(() => { try { return document.querySelector(" + json(wait).dump() +
                              ") !== null; } catch (e) { return 'invalid'; } })()";
    const auto never = [&] {
        return platform::Error(platform::Code::timeout,
                               "wait: no element matched '" + wait +
                                   "' before the time limit (plugin_config.browser.timeout_ms)");
    };
    for (;;) {
        json found;
        try {
            found = evaluate(probe);
        } catch (const platform::Error& e) {
            if (e.code() == platform::Code::timeout) throw never();
            throw;
        }
        if (found == "invalid")
            throw platform::invalid_argument("wait: not a valid CSS selector: " + wait);
        if (found == true) return;
        if (Clock::now() >= b_.deadline()) throw never();
        b_.pump(kPollMs);
    }
}

json Page::evaluate(const std::string& expression) {
    const json r = b_.call("Runtime.evaluate",
                           {{"expression", expression}, {"returnByValue", true}}, session_);
    if (r.contains("exceptionDetails"))
        throw platform::Error(platform::Code::bad_gateway,
                              "browser: the page's script failed: " +
                                  r["exceptionDetails"].value("text", "exception"));
    return r.contains("result") ? r["result"].value("value", json()) : json();
}

json Page::dom() {
    const json text = evaluate(
        "JSON.stringify({url: location.href, title: document.title || '',"
        " text: document.body ? document.body.innerText :"
        " (document.documentElement ? document.documentElement.textContent : ''),"
        " html: document.documentElement ? document.documentElement.outerHTML : ''})");
    json out = text.is_string() ? json::parse(text.get<std::string>(), nullptr, false) : json();
    if (!out.is_object())
        throw platform::Error(platform::Code::bad_gateway,
                              "browser: the page's DOM could not be read");
    return out;
}

std::string Page::screenshot(bool full, int max_height) {
    json params = {{"format", "png"}};
    if (full) {
        const json m = b_.call("Page.getLayoutMetrics", json::object(), session_);
        const json size = m.value("cssContentSize", m.value("contentSize", json::object()));
        const double w = std::clamp(size.value("width", 1280.0), 1.0, 4096.0);
        const double h = std::clamp(size.value("height", 800.0), 1.0, double(max_height));
        params["captureBeyondViewport"] = true;
        params["clip"] = {{"x", 0}, {"y", 0}, {"width", w}, {"height", h}, {"scale", 1}};
    }
    const json shot = b_.call("Page.captureScreenshot", params, session_);
    auto png = platform::base64_decode(shot.value("data", ""));
    if (!png || png->empty())
        throw platform::Error(platform::Code::bad_gateway, "browser: no screenshot came back");
    return *png;
}

}  // namespace browser
