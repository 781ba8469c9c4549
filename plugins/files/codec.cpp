#include <ctime>
#include <map>
#include <platform/sdk/text.hpp>
#include <set>

#include "files.hpp"

namespace files {

std::string guess_type(const std::string& name) {
    static const std::map<std::string, std::string> types = {
        {"txt", "text/plain"},
        {"md", "text/markdown"},
        {"markdown", "text/markdown"},
        {"csv", "text/csv"},
        {"tsv", "text/tab-separated-values"},
        {"html", "text/html"},
        {"htm", "text/html"},
        {"css", "text/css"},
        {"js", "text/javascript"},
        {"mjs", "text/javascript"},
        {"json", "application/json"},
        {"xml", "application/xml"},
        {"yaml", "application/yaml"},
        {"yml", "application/yaml"},
        {"ics", "text/calendar"},
        {"vcf", "text/vcard"},
        {"log", "text/plain"},
        {"svg", "image/svg+xml"},
        {"png", "image/png"},
        {"jpg", "image/jpeg"},
        {"jpeg", "image/jpeg"},
        {"gif", "image/gif"},
        {"webp", "image/webp"},
        {"ico", "image/x-icon"},
        {"bmp", "image/bmp"},
        {"pdf", "application/pdf"},
        {"zip", "application/zip"},
        {"gz", "application/gzip"},
        {"tar", "application/x-tar"},
        {"mp3", "audio/mpeg"},
        {"wav", "audio/wav"},
        {"ogg", "audio/ogg"},
        {"mp4", "video/mp4"},
        {"webm", "video/webm"},
        {"wasm", "application/wasm"},
        {"woff2", "font/woff2"},
        {"doc", "application/msword"},
        {"xls", "application/vnd.ms-excel"},
        {"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
        {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
        {"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"}};
    auto dot = name.rfind('.');
    if (dot == std::string::npos) return "application/octet-stream";
    const std::string ext = platform::lower(name.substr(dot + 1));
    auto it = types.find(ext);
    return it == types.end() ? "application/octet-stream" : it->second;
}

bool active_type(const std::string& type) {
    std::string base = type.substr(0, type.find(';'));
    base.erase(base.find_last_not_of(" \t") + 1);
    base = platform::lower(base);
    static const std::set<std::string> active = {
        "text/html",       "application/xhtml+xml", "image/svg+xml",          "text/xml",
        "application/xml", "text/javascript",       "application/javascript", "text/xsl",
        "application/pdf"};
    return active.count(base) > 0;
}

std::string content_type(const std::string& type, bool utf8) {
    if (active_type(type)) return "text/plain; charset=utf-8";
    if (!utf8 || type.find("charset=") != std::string::npos) return type;
    const std::string base = type.substr(0, type.find(';'));
    const bool text = base.rfind("text/", 0) == 0 || base == "application/json" ||
                      base == "application/xml" || base == "application/yaml" ||
                      base == "image/svg+xml";
    return text ? type + "; charset=utf-8" : type;
}

}  // namespace files
