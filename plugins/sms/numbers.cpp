#include "numbers.hpp"

#include <cctype>

namespace sms {

using platform::json;

OptOut opt_out_keyword(std::string_view text) {
    size_t b = 0, e = text.size();
    while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
    std::string word;
    for (size_t i = b; i < e; ++i)
        word += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    for (const char* w : {"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"})
        if (word == w) return OptOut::stop;
    for (const char* w : {"START", "UNSTOP", "YES"})
        if (word == w) return OptOut::start;
    return OptOut::none;
}

NumberState Numbers::state_of(const json& r) {
    NumberState s;
    s.stopped = r.value("stopped", false);
    s.last_whatsapp = r.value("last_whatsapp", int64_t{0});
    s.claimed_by = r.value("claimed_by", "");
    return s;
}

NumberState Numbers::state(const std::string& number) const {
    const auto r = records().get(number);
    return r ? state_of(*r) : NumberState{};
}

NumberState Numbers::wrote_in(const std::string& number, const std::string& channel,
                              OptOut opt_out) const {
    const int64_t now = host_.now_ms();
    const auto written =
        records().update(number, [&](const std::optional<json>& cur) -> std::optional<json> {
            json r = cur ? *cur : json::object();
            r["last_inbound"] = now;
            if (channel == "whatsapp") r["last_whatsapp"] = now;
            if (opt_out != OptOut::none) {
                r["stopped"] = opt_out == OptOut::stop;
                r["stopped_at"] = opt_out == OptOut::stop ? json(now) : json(nullptr);
            }
            return r;
        });
    return state_of(*written);
}

void Numbers::claim(const std::string& number, const std::string& account) const {
    const int64_t now = host_.now_ms();
    records().update(number, [&](const std::optional<json>& cur) -> std::optional<json> {
        json r = cur ? *cur : json::object();
        r["claimed_by"] = account;
        r["claimed_at"] = now;
        return r;
    });
}

}  // namespace sms
