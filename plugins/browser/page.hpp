// page.hpp — one page in a Chromium: open a URL, wait for it (and a selector), read its DOM, take
// its picture. Errors are platform::Error naming the argument or the cause.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "chromium.hpp"

namespace browser {

class Page {
public:
    // Opens a tab, navigates to `url` and waits for its load event; then, when `wait` is not
    // empty, until document.querySelector(wait) finds an element. Throws: 403 (the outbound guard
    // refused the page, with its reason), 502 (it could not be reached), 400 (`wait` is not a CSS
    // selector), 408 (the load or `wait` did not finish before the deadline).
    Page(Chromium& browser, const std::string& url, const std::string& wait);

    // The page's HTTP status (0 when it was not loaded over HTTP).
    int status() const { return status_; }
    // {url, title, text, html} of the rendered document (document.body.innerText, the
    // documentElement's outerHTML).
    nlohmann::json dom();
    // The PNG bytes of the viewport, or of the whole page when `full` (at most `max_height` CSS
    // pixels high).
    std::string screenshot(bool full, int max_height);

private:
    nlohmann::json evaluate(const std::string& expression);

    Chromium& b_;
    std::string session_;
    int status_ = 0;
};

}  // namespace browser
