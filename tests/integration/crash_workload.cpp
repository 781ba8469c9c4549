#include "crash_workload.hpp"

#include <stdexcept>
#include <utility>

namespace platform::test {

namespace {

constexpr int kNoteTitles = 6, kMaxDocs = 10, kMaxTasks = 10, kRecordKeys = 24;
constexpr size_t kMaxFiller = 1500;

std::string shorten(const std::string& s) {
    return s.size() <= 80 ? s : s.substr(0, 80) + "...";
}

std::string describe(const std::optional<std::string>& v) {
    return v ? "'" + shorten(*v) + "'" : "absent";
}

}  // namespace

WriteClient::WriteClient(int index, std::string token, std::string admin_token, unsigned seed)
    : index_(index), token_(std::move(token)), admin_token_(std::move(admin_token)), rng_(seed) {}

std::map<std::string, std::string> WriteClient::auth(bool admin) const {
    return {{"Authorization", "Bearer " + (admin ? admin_token_ : token_)}};
}

std::string WriteClient::value_for(const std::string& what) {
    // Distinct per write, with a multi-byte character and a length of up to ~1.5 KB.
    const size_t filler = std::uniform_int_distribution<size_t>(0, kMaxFiller)(rng_);
    ++seq_;
    return what + " client " + std::to_string(index_) + " write " + std::to_string(seq_) +
           " \xc3\xa9 " + std::string(filler, static_cast<char>('a' + seq_ % 26));
}

WriteClient::Write WriteClient::next() {
    const int pick = std::uniform_int_distribution<int>(0, 9)(rng_);
    auto coin = [this] { return std::uniform_int_distribution<int>(0, 1)(rng_) == 1; };
    auto any = [this](const std::vector<std::string>& v) {
        return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng_)];
    };
    Write w;
    if (pick < 3) {  // notes/add rewrites one of a few titles
        const std::string title =
            "c" + std::to_string(index_) + "-note-" +
            std::to_string(std::uniform_int_distribution<int>(0, kNoteTitles - 1)(rng_));
        w = {"/api/v1/notes/add", "note:" + title, value_for("note"), "note", {}};
        w.body = {{"title", title}, {"text", w.value}};
    } else if (pick < 5) {  // docs/write: a new document, or a replacement by id
        w = {"/api/v1/docs/write", "", value_for("doc"), "doc", {}};
        w.body = {{"title", "c" + std::to_string(index_) + " doc"}, {"content", w.value}};
        if (!docs_.empty() && (docs_.size() >= kMaxDocs || coin())) {
            const std::string id = any(docs_);
            w.key = "doc:" + id;
            w.body["id"] = id;
        }
    } else if (pick < 7) {  // tasks/create, or tasks/update of the detail
        w = {"/api/v1/tasks/create", "", value_for("task"), "task", {}};
        w.body = {{"title", "c" + std::to_string(index_) + " task"}, {"detail", w.value}};
        if (!tasks_.empty() && (tasks_.size() >= kMaxTasks || coin())) {
            const std::string id = any(tasks_);
            w.path = "/api/v1/tasks/update";
            w.key = "task:" + id;
            w.body = {{"id", id}, {"detail", w.value}};
        }
    } else {  // the store built-in (admin): one of this client's keys
        const std::string key =
            "c" + std::to_string(index_) + "/" +
            std::to_string(std::uniform_int_distribution<int>(0, kRecordKeys - 1)(rng_));
        w = {"/store/write", "record:" + key, value_for("record"), "record", {}};
        w.body = {{"table", kTable}, {"key", key}, {"value", w.value}};
    }
    return w;
}

bool WriteClient::write_one(HttpClient& api) {
    Write w = next();
    HttpResult r;
    try {
        r = api.post_json(w.path, w.body, auth(w.kind == "record"));
    } catch (const std::exception&) {
        ++counts.in_flight;
        if (!w.key.empty())
            ledger_[w.key].in_flight = w.value;  // a creation in flight has no id yet
        return false;
    }
    if (r.status < 200 || r.status > 299) {
        ++counts.unexpected;
        errors.push_back(w.path + " answered " + std::to_string(r.status) + ": " + shorten(r.body));
        return true;
    }
    ++counts.acknowledged;
    if (w.key.empty()) {  // a creation: its id is in the answer
        const std::string id = r.json()["data"].value("id", "");
        (w.kind == "doc" ? docs_ : tasks_).push_back(id);
        w.key = w.kind + ":" + id;
    }
    ExpectedRecord& e = ledger_[w.key];
    e.acked = w.value;
    e.in_flight.reset();
    return true;
}

std::optional<std::string> WriteClient::read_back(HttpClient& api, const std::string& key,
                                                  std::string& error) {
    const auto colon = key.find(':');
    const std::string kind = key.substr(0, colon), id = key.substr(colon + 1);
    HttpResult r;
    if (kind == "note")
        r = api.get("/api/v1/notes/get?title=" + id, auth(false));
    else if (kind == "doc")
        r = api.get("/api/v1/docs/read?id=" + id, auth(false));
    else if (kind == "task")
        r = api.get("/api/v1/tasks/read?id=" + id, auth(false));
    else
        r = api.get("/store/read?table=" + std::string(kTable) + "&key=" + id, auth(true));
    if (r.status == 404) return std::nullopt;
    if (r.status != 200) {
        error = "read answered " + std::to_string(r.status) + ": " + shorten(r.body);
        return std::nullopt;
    }
    const nlohmann::json j = r.json();
    if (kind == "note") return j["data"].value("text", "");
    if (kind == "doc") return j["data"].value("content", "");
    if (kind == "task") return j["data"].value("detail", "");
    return j["records"].at(0).value("value", "");
}

void WriteClient::verify(HttpClient& api, std::vector<std::string>& problems) {
    for (auto& [key, expected] : ledger_) {
        std::string error;
        const std::optional<std::string> got = read_back(api, key, error);
        ++counts.checked;
        if (!error.empty()) {
            problems.push_back(key + ": " + error);
        } else if (got == expected.acked) {
            // the acknowledged value (or, never acknowledged, still absent)
        } else if (expected.in_flight && got == expected.in_flight) {
            ++counts.landed;
            expected.acked = got;
        } else {
            problems.push_back(
                key + ": holds " + describe(got) + ", acknowledged " + describe(expected.acked) +
                (expected.in_flight ? ", in flight " + describe(expected.in_flight) : ""));
        }
        expected.in_flight.reset();
    }
}

}  // namespace platform::test
