// browser — pages read and photographed after their scripts ran, in headless Chromium (the
// catalogue's `browser` service, README.md). Both methods cost per call (metered). read and shot
// in browser.cpp; the page session they share in page.cpp; the browser process and the DevTools
// protocol in chromium.cpp.
#pragma once

#include <atomic>
#include <platform/sdk.hpp>
#include <string>

class Browser {
public:
    static void describe(platform::ServiceSpec<Browser>& s);
    explicit Browser(const platform::Host& host) : host_(host) {}

    platform::json read(platform::Request& r);
    platform::json shot(platform::Request& r);
    // GET /ui/browser/shots/<id>: a screenshot's PNG while it lasts (24 h); 404 after.
    void serve(platform::Request& r, platform::Responder out);

    static constexpr uint64_t kPrice = 2;                    // credits per call
    static constexpr int64_t kShotTtlMs = 24 * 3600 * 1000;  // a screenshot lasts a day
    static constexpr size_t kMaxTextChars = 100000;          // read: text, characters
    static constexpr size_t kMaxHtmlBytes = 200000;          // read: html, bytes
    static constexpr int kMaxShotHeight = 16384;             // shot full: CSS pixels
    static constexpr const char* kShots = "shot/";           // store: shot/<id> -> PNG bytes

    // The plugin's settings (plugin_config.browser), with their defaults.
    struct Settings {
        std::string chromium = "/usr/bin/chromium";
        int timeout_ms = 20000;  // the whole call: start, load, wait, read or shot
        int max_browsers = 2;    // at once; more answer 503
    };

private:
    Settings settings() const;

    platform::Host host_;
    std::atomic<int> running_{0};
    friend class BrowserSlot;
};
