#include <openssl/evp.h>

#include <platform/host/http/websocket_frames.hpp>

namespace platform::host::websocket {

namespace {

constexpr std::string_view kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
constexpr size_t kMaxControl = 125;

bool is_control(Opcode op) {
    return static_cast<uint8_t>(op) & 0x8;
}

bool known(uint8_t op) {
    return op == 0x0 || op == 0x1 || op == 0x2 || op == 0x8 || op == 0x9 || op == 0xA;
}

// A close code a client may send (RFC 6455 §7.4).
bool valid_close_code(uint16_t c) {
    return (c >= 1000 && c <= 1003) || (c >= 1007 && c <= 1014) || (c >= 3000 && c <= 4999);
}

}  // namespace

std::string accept_key(std::string_view client_key) {
    std::string in(client_key);
    in.append(kGuid);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(in.data(), in.size(), digest, &len, EVP_sha1(), nullptr);
    unsigned char out[64];
    const int n = EVP_EncodeBlock(out, digest, static_cast<int>(len));
    return std::string(reinterpret_cast<const char*>(out), static_cast<size_t>(n));
}

bool valid_client_key(std::string_view key) {
    if (key.size() != 24 || key.substr(22) != "==") return false;
    unsigned char out[32];
    return EVP_DecodeBlock(out, reinterpret_cast<const unsigned char*>(key.data()), 24) == 18;
}

bool valid_utf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t n;
        uint32_t cp;
        if ((c & 0xE0) == 0xC0) {
            n = 1, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3, cp = c & 0x07;
        } else {
            return false;
        }
        if (i + n >= s.size()) return false;  // the character is cut off
        for (size_t k = 1; k <= n; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
        if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n + 1;
    }
    return true;
}

std::string server_frame(Opcode op, std::string_view payload) {
    std::string f;
    f.push_back(static_cast<char>(0x80 | static_cast<uint8_t>(op)));
    const uint64_t n = payload.size();
    if (n < 126) {
        f.push_back(static_cast<char>(n));
    } else if (n <= 0xFFFF) {
        f.push_back(126);
        f.push_back(static_cast<char>(n >> 8));
        f.push_back(static_cast<char>(n & 0xFF));
    } else {
        f.push_back(127);
        for (int shift = 56; shift >= 0; shift -= 8) f.push_back(static_cast<char>(n >> shift));
    }
    f.append(payload);
    return f;
}

std::string close_frame(uint16_t code, std::string_view reason) {
    size_t keep = std::min(reason.size(), kMaxControl - 2);
    while (keep > 0 && keep < reason.size() && (static_cast<uint8_t>(reason[keep]) & 0xC0) == 0x80)
        --keep;  // do not cut a character in two
    std::string payload;
    payload.push_back(static_cast<char>(code >> 8));
    payload.push_back(static_cast<char>(code & 0xFF));
    payload.append(reason.substr(0, keep));
    return server_frame(Opcode::close, payload);
}

std::vector<Event> FrameReader::feed(std::string_view bytes) {
    std::vector<Event> out;
    if (ended_) return out;
    buffer_.append(bytes);
    while (next(out)) {
    }
    return out;
}

void FrameReader::fail(std::vector<Event>& out, uint16_t code, std::string why) {
    Event e;
    e.kind = Event::Kind::error;
    e.code = code;
    e.payload = std::move(why);
    out.push_back(std::move(e));
    ended_ = true;
    buffer_.clear();
    message_.clear();
}

bool FrameReader::next(std::vector<Event>& out) {
    if (ended_ || buffer_.size() < 2) return false;
    const auto b0 = static_cast<uint8_t>(buffer_[0]), b1 = static_cast<uint8_t>(buffer_[1]);
    const bool fin = b0 & 0x80;
    const uint8_t raw_op = b0 & 0x0F;
    if (b0 & 0x70) return fail(out, kProtocolError, "reserved bits set"), false;
    if (!known(raw_op)) return fail(out, kProtocolError, "unknown opcode"), false;
    if (!(b1 & 0x80)) return fail(out, kProtocolError, "client frames must be masked"), false;
    const auto op = static_cast<Opcode>(raw_op);
    uint64_t len = b1 & 0x7F;
    size_t pos = 2;
    if (len == 126 || len == 127) {
        const size_t width = len == 126 ? 2 : 8;
        if (buffer_.size() < pos + width) return false;
        len = 0;
        for (size_t k = 0; k < width; ++k)
            len = (len << 8) | static_cast<uint8_t>(buffer_[pos + k]);
        pos += width;
        if (width == 8 && (len >> 63)) return fail(out, kProtocolError, "invalid length"), false;
    }
    if (is_control(op)) {
        if (!fin) return fail(out, kProtocolError, "fragmented control frame"), false;
        if (len > kMaxControl)
            return fail(out, kProtocolError, "control frame over 125 bytes"), false;
    } else if (op == Opcode::continuation) {
        if (!in_message_) return fail(out, kProtocolError, "continuation without a message"), false;
    } else if (in_message_) {
        return fail(out, kProtocolError, "new message inside a fragmented one"), false;
    }
    if (!is_control(op)) {  // refused on the header, before its payload is read
        const uint64_t total = (op == Opcode::continuation ? message_.size() : 0) + len;
        if (total > max_message_)
            return fail(out, kMessageTooBig,
                        "message over " + std::to_string(max_message_) + " bytes"),
                   false;
    }
    if (buffer_.size() < pos + 4 + len) return false;
    const char* mask = buffer_.data() + pos;
    pos += 4;
    std::string payload = buffer_.substr(pos, static_cast<size_t>(len));
    for (size_t k = 0; k < payload.size(); ++k) payload[k] ^= mask[k % 4];
    buffer_.erase(0, pos + static_cast<size_t>(len));

    Event e;
    switch (op) {
        case Opcode::ping:
            e.kind = Event::Kind::ping;
            e.payload = std::move(payload);
            break;
        case Opcode::pong:
            e.kind = Event::Kind::pong;
            break;
        case Opcode::close: {
            e.kind = Event::Kind::close;
            e.code = kNoStatus;
            if (payload.size() == 1)
                return fail(out, kProtocolError, "close payload of 1 byte"), false;
            if (payload.size() >= 2) {
                e.code = static_cast<uint16_t>((static_cast<uint8_t>(payload[0]) << 8) |
                                               static_cast<uint8_t>(payload[1]));
                if (!valid_close_code(e.code))
                    return fail(out, kProtocolError, "invalid close code"), false;
                e.payload = payload.substr(2);
                if (!valid_utf8(e.payload))
                    return fail(out, kInvalidData, "close reason is not UTF-8"), false;
            }
            out.push_back(std::move(e));
            ended_ = true;
            buffer_.clear();
            return false;
        }
        default: {
            if (op != Opcode::continuation) {
                message_type_ = op;
                in_message_ = true;
            }
            message_ += payload;
            if (!fin) return true;
            in_message_ = false;
            if (message_type_ == Opcode::text && !valid_utf8(message_))
                return fail(out, kInvalidData, "text message is not UTF-8"), false;
            e.kind = Event::Kind::message;
            e.type = message_type_;
            e.payload = std::move(message_);
            message_.clear();
        }
    }
    out.push_back(std::move(e));
    return true;
}

}  // namespace platform::host::websocket
