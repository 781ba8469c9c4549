#include "mime.hpp"

#include <gmime/gmime.h>

#include <memory>
#include <mutex>

#include "html_text.hpp"

namespace mail {

namespace {

struct Unref {
    void operator()(gpointer p) const {
        if (p) g_object_unref(p);
    }
};
template <class T>
using Ref = std::unique_ptr<T, Unref>;

std::string take(char* s) {  // a g_malloc'ed string, freed
    std::string out = s ? s : "";
    g_free(s);
    return out;
}

std::string valid_utf8(const std::string& s) {
    if (g_utf8_validate(s.data(), static_cast<gssize>(s.size()), nullptr)) return s;
    return take(g_utf8_make_valid(s.data(), static_cast<gssize>(s.size())));
}

// Text with CRLF (and lone CR) line ends as LF, as letters between accounts are kept.
std::string lf_lines(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\r') {
            out += s[i];
        } else {
            out += '\n';
            if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
        }
    }
    return out;
}

std::string header(GMimeObject* o, const char* name) {
    const char* v = g_mime_object_get_header(o, name);
    return v ? v : "";
}

std::string without_brackets(std::string id) {
    while (!id.empty() && (id.front() == ' ' || id.front() == '<')) id.erase(0, 1);
    while (!id.empty() && (id.back() == ' ' || id.back() == '>')) id.pop_back();
    return id;
}

// A part's content with its transfer encoding undone; converted to UTF-8 when `charset` is set.
std::string content(GMimePart* part, const char* charset) {
    GMimeDataWrapper* wrapper = g_mime_part_get_content(part);
    if (!wrapper) return "";
    Ref<GMimeStream> mem(g_mime_stream_mem_new());
    Ref<GMimeStream> filtered(g_mime_stream_filter_new(mem.get()));
    if (charset && g_ascii_strcasecmp(charset, "utf-8") != 0 &&
        g_ascii_strcasecmp(charset, "us-ascii") != 0)
        if (GMimeFilter* f = g_mime_filter_charset_new(charset, "UTF-8")) {
            g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered.get()), f);
            g_object_unref(f);
        }
    g_mime_data_wrapper_write_to_stream(wrapper, filtered.get());
    g_mime_stream_flush(filtered.get());
    GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem.get()));
    return bytes ? std::string(reinterpret_cast<const char*>(bytes->data), bytes->len) : "";
}

struct Walk {
    ParsedMessage* out;
    std::string html;
    bool have_text = false;
};

void visit(GMimeObject*, GMimeObject* part, gpointer data) {
    auto& w = *static_cast<Walk*>(data);
    if (GMIME_IS_MESSAGE_PART(part)) {  // a forwarded message: kept whole, as a .eml file
        GMimeMessage* inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(part));
        Ref<GMimeStream> mem(g_mime_stream_mem_new());
        if (inner) g_mime_object_write_to_stream(GMIME_OBJECT(inner), nullptr, mem.get());
        GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem.get()));
        w.out->attachments.push_back(
            {"message-" + std::to_string(w.out->attachments.size() + 1) + ".eml", "message/rfc822",
             bytes ? std::string(reinterpret_cast<const char*>(bytes->data), bytes->len) : ""});
        return;
    }
    if (!GMIME_IS_PART(part)) return;  // multiparts: their parts are visited one by one
    GMimePart* leaf = GMIME_PART(part);
    GMimeContentType* type = g_mime_object_get_content_type(part);
    const char* filename = g_mime_part_get_filename(leaf);
    const bool attachment = g_mime_part_is_attachment(leaf) || filename;
    const bool text = g_mime_content_type_is_type(type, "text", "plain");
    const bool html = g_mime_content_type_is_type(type, "text", "html");
    if (!attachment && text && !w.have_text) {
        w.out->body =
            lf_lines(valid_utf8(content(leaf, g_mime_content_type_get_parameter(type, "charset"))));
        w.have_text = true;
    } else if (!attachment && html && w.html.empty()) {
        w.html = valid_utf8(content(leaf, g_mime_content_type_get_parameter(type, "charset")));
    } else if (attachment || (!text && !html)) {
        Attachment a;
        a.name = filename ? valid_utf8(filename)
                          : "attachment-" + std::to_string(w.out->attachments.size() + 1);
        a.type = take(g_mime_content_type_get_mime_type(type));
        a.data = content(leaf, nullptr);
        w.out->attachments.push_back(std::move(a));
    }
}

}  // namespace

std::optional<ParsedMessage> parse_message(std::string_view raw) {
    static std::once_flag once;
    std::call_once(once, [] { g_mime_init(); });
    Ref<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(raw.data(), raw.size()));
    Ref<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
    Ref<GMimeMessage> msg(g_mime_parser_construct_message(parser.get(), nullptr));
    if (!msg) return std::nullopt;
    GMimeObject* top = GMIME_OBJECT(msg.get());
    ParsedMessage out;
    InternetAddressList* from = g_mime_message_get_from(msg.get());
    if (from && internet_address_list_length(from) > 0) {
        out.from_written = valid_utf8(take(internet_address_list_to_string(from, nullptr, FALSE)));
        InternetAddress* a = internet_address_list_get_address(from, 0);
        if (INTERNET_ADDRESS_IS_MAILBOX(a))
            out.from = valid_utf8(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a)));
    }
    if (InternetAddressList* to = g_mime_message_get_to(msg.get()))
        out.to = valid_utf8(take(internet_address_list_to_string(to, nullptr, FALSE)));
    if (const char* s = g_mime_message_get_subject(msg.get())) out.subject = valid_utf8(s);
    out.date = valid_utf8(header(top, "Date"));
    if (const char* id = g_mime_message_get_message_id(msg.get())) out.message_id = valid_utf8(id);
    out.in_reply_to = valid_utf8(without_brackets(header(top, "In-Reply-To")));
    Walk w{&out, "", false};
    if (GMimeObject* body = g_mime_message_get_mime_part(msg.get())) {
        if (GMIME_IS_MULTIPART(body))
            g_mime_multipart_foreach(GMIME_MULTIPART(body), visit, &w);
        else
            visit(top, body, &w);
    }
    if (!w.have_text && !w.html.empty()) out.body = html_to_text(w.html);
    return out;
}

}  // namespace mail
