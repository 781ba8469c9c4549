// host/src/acme/acme_http.cpp — libcurl for the ACME client (see acme_http.hpp).
#include "acme_http.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <platform/sdk/text.hpp>
#include <stdexcept>

namespace platform::host::acme {
namespace {

struct Transfer {
    HttpReply reply;
    bool too_large = false;
    const std::atomic<bool>* cancelled = nullptr;
};

size_t on_body(char* data, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    size_t bytes = size * n;
    if (t->reply.body.size() + bytes > AcmeHttp::kMaxBody) {
        t->too_large = true;
        return 0;  // curl stops with CURLE_WRITE_ERROR
    }
    t->reply.body.append(data, bytes);
    return bytes;
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    std::string line(data, size * n);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
    if (line.rfind("HTTP/", 0) == 0) {
        t->reply.headers.clear();  // a new response (after 100 Continue): only the last one counts
        return size * n;
    }
    auto colon = line.find(':');
    if (colon == std::string::npos) return size * n;
    const std::string name = platform::lower(line.substr(0, colon));
    size_t v = line.find_first_not_of(" \t", colon + 1);
    t->reply.headers[name] = v == std::string::npos ? "" : line.substr(v);
    return size * n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<Transfer*>(user)->cancelled->load() ? 1 : 0;
}

struct SlistDeleter {
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

std::string HttpReply::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
}

AcmeHttp::AcmeHttp(std::string ca_file, int timeout_ms, const std::atomic<bool>& cancelled,
                   Counters& counters)
    : ca_file_(std::move(ca_file)),
      timeout_ms_(timeout_ms),
      cancelled_(cancelled),
      counters_(counters) {
    curl_ = curl_easy_init();
    if (!curl_) throw std::runtime_error("ACME: curl_easy_init failed");
}

AcmeHttp::~AcmeHttp() {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
}

HttpReply AcmeHttp::request(const std::string& what, const std::string& method,
                            const std::string& url, const std::string& body,
                            const std::vector<std::string>& headers) {
    std::string where = "ACME " + what + ": " + method + " " + url;
    if (cancelled_.load()) throw std::runtime_error("ACME " + what + ": cancelled");
    auto* c = static_cast<CURL*>(curl_);
    curl_easy_reset(c);  // keeps the connection cache
    Transfer t;
    t.cancelled = &cancelled_;
    char errbuf[CURL_ERROR_SIZE] = {};
    std::unique_ptr<curl_slist, SlistDeleter> list;
    for (const auto& h : headers) list.reset(curl_slist_append(list.release(), h.c_str()));

    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_PROXY, "");  // never a proxy from the environment
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, long(timeout_ms_));
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, long(timeout_ms_));
    curl_easy_setopt(c, CURLOPT_USERAGENT, "platform-acme/0.1 libcurl");
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    if (!ca_file_.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, ca_file_.c_str());
    if (list) curl_easy_setopt(c, CURLOPT_HTTPHEADER, list.get());
    if (method == "HEAD") {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else if (method == "POST") {
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.c_str());
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
    } else if (method != "GET") {
        throw std::logic_error(where + ": unsupported method");
    }

    counters_.requests++;
    CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_ABORTED_BY_CALLBACK) throw std::runtime_error("ACME " + what + ": cancelled");
    if (t.too_large) throw std::runtime_error(where + ": response larger than 2 MiB");
    if (rc != CURLE_OK) {
        std::string reason = curl_easy_strerror(rc);
        if (errbuf[0]) reason += std::string(" (") + errbuf + ")";
        if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE)
            reason +=
                "; PLATFORM_ACME_CA_FILE names the CA that signs the ACME server's certificate";
        throw std::runtime_error(where + ": " + reason);
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &t.reply.status);
    return std::move(t.reply);
}

}  // namespace platform::host::acme
