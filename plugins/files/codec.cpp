#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>
#include <set>

#include "files.hpp"

namespace files {

std::optional<std::string> base64_decode(const std::string& text) {
    std::string out;
    out.reserve(text.size() * 3 / 4);
    uint32_t acc = 0;
    int bits = 0, pads = 0;
    size_t chars = 0;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') {
            ++pads;
            continue;
        }
        if (pads) return std::nullopt;  // data after padding
        int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
                : c == '+' || c == '-' ? 62 : c == '/' || c == '_' ? 63 : -1;
        if (v < 0) return std::nullopt;
        ++chars;
        acc = (acc << 6) | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += char((acc >> bits) & 0xFF);
        }
    }
    if (chars % 4 == 1 || pads > 2 || (pads && (chars + pads) % 4 != 0)) return std::nullopt;
    return out;
}

std::string base64_encode(const std::string& b) {
    static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((b.size() + 2) / 3 * 4);
    for (size_t i = 0; i < b.size(); i += 3) {
        uint32_t n = uint32_t(uint8_t(b[i])) << 16;
        if (i + 1 < b.size()) n |= uint32_t(uint8_t(b[i + 1])) << 8;
        if (i + 2 < b.size()) n |= uint8_t(b[i + 2]);
        out += abc[(n >> 18) & 63];
        out += abc[(n >> 12) & 63];
        out += i + 1 < b.size() ? abc[(n >> 6) & 63] : '=';
        out += i + 2 < b.size() ? abc[n & 63] : '=';
    }
    return out;
}

std::string guess_type(const std::string& name) {
    static const std::map<std::string, std::string> types = {
        {"txt", "text/plain"},        {"md", "text/markdown"},          {"markdown", "text/markdown"},
        {"csv", "text/csv"},          {"tsv", "text/tab-separated-values"}, {"html", "text/html"},
        {"htm", "text/html"},         {"css", "text/css"},              {"js", "text/javascript"},
        {"mjs", "text/javascript"},   {"json", "application/json"},    {"xml", "application/xml"},
        {"yaml", "application/yaml"}, {"yml", "application/yaml"},     {"ics", "text/calendar"},
        {"vcf", "text/vcard"},        {"log", "text/plain"},            {"svg", "image/svg+xml"},
        {"png", "image/png"},         {"jpg", "image/jpeg"},            {"jpeg", "image/jpeg"},
        {"gif", "image/gif"},         {"webp", "image/webp"},           {"ico", "image/x-icon"},
        {"bmp", "image/bmp"},         {"pdf", "application/pdf"},       {"zip", "application/zip"},
        {"gz", "application/gzip"},   {"tar", "application/x-tar"},     {"mp3", "audio/mpeg"},
        {"wav", "audio/wav"},         {"ogg", "audio/ogg"},             {"mp4", "video/mp4"},
        {"webm", "video/webm"},       {"wasm", "application/wasm"},     {"woff2", "font/woff2"},
        {"doc", "application/msword"}, {"xls", "application/vnd.ms-excel"},
        {"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
        {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
        {"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"}};
    auto dot = name.rfind('.');
    if (dot == std::string::npos) return "application/octet-stream";
    std::string ext = name.substr(dot + 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto it = types.find(ext);
    return it == types.end() ? "application/octet-stream" : it->second;
}

bool active_type(const std::string& type) {
    std::string base = type.substr(0, type.find(';'));
    base.erase(base.find_last_not_of(" \t") + 1);
    std::transform(base.begin(), base.end(), base.begin(), [](unsigned char c) { return std::tolower(c); });
    static const std::set<std::string> active = {"text/html", "application/xhtml+xml", "image/svg+xml",
                                                 "text/xml", "application/xml", "text/javascript",
                                                 "application/javascript", "text/xsl", "application/pdf"};
    return active.count(base) > 0;
}

std::string content_type(const std::string& type, bool utf8) {
    if (active_type(type)) return "text/plain; charset=utf-8";
    if (!utf8 || type.find("charset=") != std::string::npos) return type;
    const std::string base = type.substr(0, type.find(';'));
    const bool text = base.rfind("text/", 0) == 0 || base == "application/json" || base == "application/xml" ||
                      base == "application/yaml" || base == "image/svg+xml";
    return text ? type + "; charset=utf-8" : type;
}

std::string rfc3339(int64_t ms) {
    std::time_t t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace files
