// Browser: read and shot, each one fresh headless Chromium through the host's filtering proxy,
// and the screenshots' bytes at /ui/browser/shots/<id> (README.md).
#include "browser.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "chromium.hpp"
#include "page.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

const char* kUrlDoc = "The page: an http or https URL (at most 2048 characters)";
const char* kWaitDoc =
    "A CSS selector to wait for after the page loaded (its scripts may add the element later); "
    "408 when nothing matches before the time limit";

schema::Object read_schema() {
    return schema::object()
        .str("url")
        .max_len(2048)
        .required()
        .doc(kUrlDoc)
        .str("wait")
        .max_len(500)
        .doc(kWaitDoc);
}

schema::Object shot_schema() {
    return read_schema().boolean("full").doc(
        "The whole page instead of the 1280×800 viewport (at most 16384 pixels high)");
}

// `url` as the browser may open it: http(s), absolute, no spaces or control characters.
void check_url(const std::string& url) {
    auto starts = [&](const char* p) {
        size_t n = std::char_traits<char>::length(p);
        if (url.size() <= n) return false;
        for (size_t i = 0; i < n; ++i)
            if (std::tolower(static_cast<unsigned char>(url[i])) != p[i]) return false;
        return true;
    };
    if (!starts("http://") && !starts("https://"))
        throw platform::invalid_argument("url: must be an http:// or https:// URL");
    for (unsigned char c : url)
        if (c <= 0x20 || c == 0x7f)
            throw platform::invalid_argument("url: must not contain spaces or control characters");
}

}  // namespace

// Holds one of the plugin's browser places for a call; 503 when every place is taken.
class BrowserSlot {
public:
    explicit BrowserSlot(Browser& b, int max) : b_(b) {
        if (++b_.running_ > max) {
            --b_.running_;
            throw platform::unavailable("browser: busy, " + std::to_string(max) +
                                        " pages are being read; try again shortly "
                                        "(plugin_config.browser.max_browsers)");
        }
    }
    ~BrowserSlot() { --b_.running_; }

private:
    Browser& b_;
};

void Browser::describe(platform::ServiceSpec<Browser>& s) {
    s.id("browser")
        .version("1.0.0")
        .service("v1.browser")
        .summary("Pages read and photographed after their scripts ran (headless Chromium)");
    s.config_schema(schema::object()
                        .str("chromium")
                        .doc("The Chromium executable (default /usr/bin/chromium)")
                        .integer("timeout_ms")
                        .doc("The time limit of one call, start to answer (default 20000)")
                        .integer("max_browsers")
                        .doc("Browsers at once; more calls answer 503 (default 2)"));
    s.get("read")
        .title("Read a page after its scripts ran")
        .description(
            "Opens the page in headless Chromium, lets its scripts run (until its load event and, "
            "with `wait`, until an element matches that CSS selector) and answers its `title`, "
            "its visible `text` (at most 100000 characters) and its rendered `html` (at most "
            "200000 bytes), with the HTTP `status`. Every request of the page goes through the "
            "outbound guard: private, loopback and metadata addresses are refused. Costs " +
            std::to_string(kPrice) + " credits.")
        .schema(read_schema())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .metered(kPrice)
        .handler(&Browser::read);
    s.get("shot")
        .title("Take a screenshot of a page")
        .description(
            "Opens the page as browser/read does and answers the `url` of a PNG screenshot of its "
            "1280×800 viewport, or with `full` of the whole page; the picture can be fetched by "
            "anyone holding that unguessable URL for 24 hours. Costs " +
            std::to_string(kPrice) + " credits.")
        .schema(shot_schema())
        .access(platform::Access::public_)
        .open_world()
        .metered(kPrice)
        .handler(&Browser::shot);
    s.get("png")
        .title("A screenshot's bytes")
        .description("GET /ui/browser/shots/<id>: the PNG of a browser/shot, for 24 hours.")
        .schema(schema::object().str("id").max_len(64).required().doc("The screenshot's id"))
        .access(platform::Access::public_)
        .read_only()
        .http_path("/ui/browser/shots/{id}")
        .mcp_hidden()
        .async(&Browser::serve);
}

Browser::Settings Browser::settings() const {
    Settings s;
    const json c = host_.config();
    if (!c.is_object()) return s;
    if (c.contains("chromium") && c["chromium"].is_string())
        s.chromium = c["chromium"].get<std::string>();
    if (c.contains("timeout_ms") && c["timeout_ms"].is_number_integer())
        s.timeout_ms = std::clamp(c["timeout_ms"].get<int>(), 1000, 120000);
    if (c.contains("max_browsers") && c["max_browsers"].is_number_integer())
        s.max_browsers = std::clamp(c["max_browsers"].get<int>(), 1, 16);
    return s;
}

namespace {

// Starts a browser for one call: 503 naming the setting when Chromium or the proxy is missing.
std::unique_ptr<browser::Chromium> launch(const platform::Host& host, const Browser::Settings& s) {
    if (::access(s.chromium.c_str(), X_OK) != 0)
        throw platform::unavailable("browser: Chromium is not installed at " + s.chromium +
                                    " (set plugin_config.browser.chromium; Debian's package "
                                    "`chromium` puts it at /usr/bin/chromium)");
    const json proxy = host.config("platform.browser_proxy");
    if (!proxy.is_string() || proxy.get<std::string>().empty())
        throw platform::unavailable(
            "browser: the host's filtering proxy is not running (config platform.browser_proxy; "
            "see the host's log), and pages are never opened without it");
    browser::LaunchOptions o;
    o.executable = s.chromium;
    o.proxy = proxy.get<std::string>();
    return std::make_unique<browser::Chromium>(
        o, browser::Clock::now() + std::chrono::milliseconds(s.timeout_ms));
}

}  // namespace

json Browser::read(platform::Request& r) {
    const std::string url = r.str("url");
    check_url(url);
    const Settings s = settings();
    BrowserSlot slot(*this, s.max_browsers);
    auto chromium = launch(host_, s);
    browser::Page page(*chromium, url, r.str("wait"));
    json dom = page.dom();
    std::string text = dom.value("text", ""), html = dom.value("html", "");
    const bool text_cut = platform::utf8_length(text) > kMaxTextChars;
    const bool html_cut = html.size() > kMaxHtmlBytes;
    if (text_cut) text = platform::utf8_prefix(text, kMaxTextChars);
    if (html_cut) {  // at a character's start
        size_t cut = kMaxHtmlBytes;
        while (cut > 0 && (static_cast<unsigned char>(html[cut]) & 0xC0) == 0x80) --cut;
        html.resize(cut);
    }
    return {{"url", dom.value("url", url)},    {"status", page.status()},
            {"title", dom.value("title", "")}, {"text", text},
            {"text_truncated", text_cut},      {"html", html},
            {"html_truncated", html_cut}};
}

json Browser::shot(platform::Request& r) {
    const std::string url = r.str("url");
    check_url(url);
    const bool full = r.args().value("full", false);
    const Settings s = settings();
    std::string png;
    int status = 0;
    {
        BrowserSlot slot(*this, s.max_browsers);
        auto chromium = launch(host_, s);
        browser::Page page(*chromium, url, r.str("wait"));
        status = page.status();
        png = page.screenshot(full, kMaxShotHeight);
    }
    const std::string id = platform::random_hex(16);  // 128 bits from getrandom(2)
    host_.store().put(std::string(kShots) + id, png, kShotTtlMs);
    return {{"url", "/ui/browser/shots/" + id},
            {"status", status},
            {"bytes", png.size()},
            {"expires_in_seconds", kShotTtlMs / 1000}};
}

void Browser::serve(platform::Request& r, platform::Responder out) {
    const std::string id = r.str("id");
    auto png = id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string::npos
                   ? host_.store().get(std::string(kShots) + id)
                   : std::nullopt;
    if (!png) throw platform::not_found("id: no screenshot " + id + " (they last 24 hours)");
    out.raw("image/png", *png);
}

PLATFORM_SERVICE(Browser)
