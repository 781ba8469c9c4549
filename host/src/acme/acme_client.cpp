// host/src/acme/acme_client.cpp — the RFC 8555 flow: account, order, http-01 authorizations,
// finalize with a CSR, certificate download; stored certificates reused until renewal is due.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <ctime>
#include <platform/host/acme/acme_client.hpp>
#include <stdexcept>

#include "acme_session.hpp"
#include "acme_store.hpp"
#include "certs.hpp"

namespace platform::host {

using namespace acme;

struct AcmeClient::State {
    explicit State(std::string dir) : store(std::move(dir)) {}
    std::mutex obtain_mu;  // one obtain() at a time
    std::atomic<bool> cancelled{false};
    std::mutex cancel_mu;
    std::condition_variable cancel_cv;
    Counters counters;
    AcmeStore store;
};

namespace {

int64_t now_unix() {
    return int64_t(std::time(nullptr));
}

std::string utc(int64_t t) {
    time_t tt = time_t(t);
    struct tm tm {};
    gmtime_r(&tt, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
    return out;
}

std::string str(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Adds the key authorizations to HttpChallenges and removes them when the order is over.
class ChallengeAnswers {
public:
    explicit ChallengeAnswers(HttpChallenges& c) : c_(c) {}
    ~ChallengeAnswers() {
        for (const auto& t : tokens_) c_.erase(t);
    }
    void put(const std::string& token, const std::string& key_authorization) {
        c_.put(token, key_authorization);
        tokens_.push_back(token);
    }

private:
    HttpChallenges& c_;
    std::vector<std::string> tokens_;
};

// "ACME <what>: status \"invalid\": <the problem in the object or its http-01 challenge>"
[[noreturn]] void status_error(const std::string& what, const nlohmann::json& obj) {
    std::string msg = "ACME " + what + ": status \"" + str(obj, "status") + "\"";
    if (obj.contains("error")) msg += ": " + AcmeSession::describe_problem(obj["error"].dump());
    for (const auto& ch : obj.value("challenges", nlohmann::json::array()))
        if (ch.is_object() && ch.contains("error"))
            msg +=
                "; " + str(ch, "type") + ": " + AcmeSession::describe_problem(ch["error"].dump());
    throw std::runtime_error(msg);
}

}  // namespace

AcmeClient::AcmeClient(AcmeSettings settings, HttpChallenges& challenges)
    : settings_(std::move(settings)), challenges_(challenges) {
    if (auto why = settings_.problem()) throw std::invalid_argument(*why);
    state_ = std::make_unique<State>(settings_.state_dir);
}

AcmeClient::~AcmeClient() = default;

Certificate AcmeClient::obtain() {
    return obtain(settings_.hosts);
}

Certificate AcmeClient::obtain(const std::vector<std::string>& names) {
    if (names.empty()) throw std::invalid_argument("ACME: no host names to request");
    for (const auto& n : names)
        if (std::find(settings_.hosts.begin(), settings_.hosts.end(), n) == settings_.hosts.end())
            throw std::invalid_argument("ACME: '" + n + "' is not in PLATFORM_ACME_HOSTS");
    std::vector<std::string> order_names;  // the order given, without repeats (the first is the CN)
    for (const auto& n : names)
        if (std::find(order_names.begin(), order_names.end(), n) == order_names.end())
            order_names.push_back(n);

    std::lock_guard<std::mutex> lock(state_->obtain_mu);
    if (state_->cancelled) throw std::runtime_error("ACME: cancelled");
    std::string why_not;
    if (auto stored = state_->store.load(order_names, settings_.directory_url, &why_not)) {
        if (!needs_renewal(*stored, now_unix())) {
            state_->counters.reused++;
            spdlog::info("acme: using the stored certificate for {} (valid until {})",
                         join(order_names), utc(stored->not_after_unix));
            return *stored;
        }
        spdlog::info("acme: the certificate for {} expires {}: renewing", join(order_names),
                     utc(stored->not_after_unix));
    } else if (!why_not.empty()) {
        spdlog::warn("acme: not reusing the stored certificate: {}", why_not);
    }

    EcKey account = state_->store.account_key();
    AcmeSession s(settings_, account, state_->cancelled, state_->counters,
                  [this](std::chrono::milliseconds d) { return wait_for_cancel(d); });

    nlohmann::json new_account = {{"termsOfServiceAgreed", true}};
    if (!settings_.contact_email.empty())
        new_account["contact"] = {"mailto:" + settings_.contact_email};
    HttpReply r = s.post("newAccount", s.endpoint("newAccount"), new_account.dump());
    std::string kid = r.header("location");
    if (kid.empty())
        throw std::runtime_error("ACME newAccount: no Location header (the account URL)");
    s.set_kid(kid);

    nlohmann::json identifiers = nlohmann::json::array();
    for (const auto& n : order_names) identifiers.push_back({{"type", "dns"}, {"value", n}});
    state_->counters.orders++;
    r = s.post("newOrder", s.endpoint("newOrder"),
               nlohmann::json{{"identifiers", identifiers}}.dump());
    std::string order_url = r.header("location");
    nlohmann::json order = AcmeSession::json_of("newOrder", r);
    if (order_url.empty())
        throw std::runtime_error("ACME newOrder: no Location header (the order URL)");
    spdlog::info("acme: order {} for {}", order_url, join(order_names));

    // Answer every pending authorization's http-01 challenge first, so the CA validates them
    // together, then wait for each.
    ChallengeAnswers answers(challenges_);
    std::vector<std::pair<std::string, std::string>> waiting;  // (what, authorization URL)
    for (const auto& a : order.value("authorizations", nlohmann::json::array())) {
        std::string url = a.is_string() ? a.get<std::string>() : "";
        if (url.empty())
            throw std::runtime_error("ACME newOrder: an authorization URL is not a string");
        nlohmann::json authz =
            AcmeSession::json_of("authorization", s.post("authorization", url, ""));
        std::string name = str(authz.value("identifier", nlohmann::json::object()), "value");
        std::string what = "authorization " + name;
        std::string status = str(authz, "status");
        if (status == "valid") continue;
        if (status != "pending") status_error(what, authz);
        nlohmann::json http01;
        std::string offered;
        for (const auto& ch : authz.value("challenges", nlohmann::json::array())) {
            offered += (offered.empty() ? "" : ", ") + str(ch, "type");
            if (str(ch, "type") == "http-01") http01 = ch;
        }
        if (http01.is_null())
            throw std::runtime_error("ACME " + what + ": no http-01 challenge offered (" + offered +
                                     ")");
        std::string token = str(http01, "token");
        bool base64url = std::all_of(token.begin(), token.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
        });
        if (token.empty() || !base64url)  // it becomes a URL path segment: nothing else may pass
            throw std::runtime_error("ACME " + what + ": the http-01 token \"" + token +
                                     "\" is not base64url");
        answers.put(token, key_authorization(token, account));
        if (str(http01, "status") == "pending")
            s.post("challenge " + name, str(http01, "url"), "{}");
        waiting.emplace_back(what, url);
    }
    for (const auto& [what, url] : waiting) {
        nlohmann::json authz = s.poll(what, url, {"pending", "processing"});
        if (str(authz, "status") != "valid") status_error(what, authz);
    }

    order = s.poll("order", order_url, {"pending"});
    if (str(order, "status") != "ready") status_error("order", order);
    EcKey cert_key = EcKey::generate();
    std::string csr = make_csr_der(cert_key, order_names);
    r = s.post("finalize", str(order, "finalize"),
               nlohmann::json{{"csr", base64url_encode(csr)}}.dump());
    order = AcmeSession::json_of("finalize", r);
    if (str(order, "status") != "valid")
        order = s.poll("order", order_url, {"ready", "processing"});
    if (str(order, "status") != "valid") status_error("order", order);

    r = s.post("certificate", str(order, "certificate"), "",
               {"Accept: application/pem-certificate-chain"});
    Certificate cert{r.body, cert_key.private_pem(), 0};
    LeafInfo info;
    try {
        info = inspect_chain(cert.cert_pem);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("ACME certificate: ") + e.what());
    }
    if (info.dns_names != sorted_names(order_names))
        throw std::runtime_error("ACME certificate: its names (" + join(info.dns_names) +
                                 ") are not the requested " + join(sorted_names(order_names)));
    if (!key_matches_leaf(cert.cert_pem, cert_key))
        throw std::runtime_error("ACME certificate: it does not certify the key sent in the CSR");
    cert.not_after_unix = info.not_after_unix;
    state_->store.save(order_names, settings_.directory_url, cert);
    spdlog::info("acme: certificate for {} issued (serial {}, valid until {})", join(order_names),
                 info.serial_hex, utc(cert.not_after_unix));
    return cert;
}

std::optional<Certificate> AcmeClient::stored() const {
    auto c = state_->store.load(settings_.hosts, settings_.directory_url);
    if (c && c->not_after_unix > now_unix()) return c;
    return std::nullopt;
}

bool AcmeClient::needs_renewal(const Certificate& cert, int64_t now) const {
    return cert.not_after_unix - now <= int64_t(settings_.renew_before_days) * 86400;
}

void AcmeClient::cancel() {
    {
        std::lock_guard<std::mutex> lock(state_->cancel_mu);
        state_->cancelled = true;
    }
    state_->cancel_cv.notify_all();
}

bool AcmeClient::wait_for_cancel(std::chrono::milliseconds d) {
    std::unique_lock<std::mutex> lock(state_->cancel_mu);
    return !state_->cancel_cv.wait_for(lock, d, [this] { return state_->cancelled.load(); });
}

AcmeStats AcmeClient::stats() const {
    return state_->counters.snapshot();
}

}  // namespace platform::host
