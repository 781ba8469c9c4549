#include <platform/host/isolation/worker_protocol.hpp>

namespace platform::host::worker {

using nlohmann::json;

std::string encode_frame(const json& message) {
    std::vector<uint8_t> body = json::to_cbor(message);
    std::string out(4, '\0');
    const auto n = static_cast<uint32_t>(body.size());
    out[0] = static_cast<char>(n >> 24);
    out[1] = static_cast<char>(n >> 16);
    out[2] = static_cast<char>(n >> 8);
    out[3] = static_cast<char>(n);
    out.append(reinterpret_cast<const char*>(body.data()), body.size());
    return out;
}

bool FrameDecoder::feed(const char* data, size_t size) {
    if (!error_.empty()) return false;
    buffer_.append(data, size);
    while (buffer_.size() - pos_ >= 4) {
        const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data() + pos_);
        const size_t n =
            (size_t{p[0]} << 24) | (size_t{p[1]} << 16) | (size_t{p[2]} << 8) | size_t{p[3]};
        if (n == 0 || n > kMaxFrame) {
            error_ = "frame length " + std::to_string(n) + " out of range";
            return false;
        }
        if (buffer_.size() - pos_ - 4 < n) break;
        json message = json::from_cbor(p + 4, p + 4 + n, true, false);
        if (message.is_discarded() || !message.is_object()) {
            error_ = "frame is not a CBOR map";
            return false;
        }
        ready_.push_back(std::move(message));
        pos_ += 4 + n;
    }
    if (pos_ > 0 && pos_ * 2 >= buffer_.size()) {  // compact once half the buffer is consumed
        buffer_.erase(0, pos_);
        pos_ = 0;
    }
    return true;
}

std::optional<json> FrameDecoder::next() {
    if (ready_pos_ >= ready_.size()) return std::nullopt;
    json out = std::move(ready_[ready_pos_++]);
    if (ready_pos_ == ready_.size()) {
        ready_.clear();
        ready_pos_ = 0;
    }
    return out;
}

json bytes(std::string_view b) {
    return json::binary(std::vector<uint8_t>(b.begin(), b.end()));
}

std::string bytes_of(const json& v) {
    if (v.is_binary()) {
        const auto& b = v.get_binary();
        return std::string(b.begin(), b.end());
    }
    if (v.is_string()) return v.get<std::string>();
    return {};
}

}  // namespace platform::host::worker
