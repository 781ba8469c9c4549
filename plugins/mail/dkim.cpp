#include "dkim.hpp"

// dkim.h is C: it uses the BSD u_char and C's _Bool.
#include <sys/types.h>
#define _Bool bool
extern "C" {
#include <opendkim/dkim.h>
}
#undef _Bool

#include <memory>

namespace mail {

DkimResult verify_dkim(std::string_view message, const std::string& keys_file) {
    DkimResult out;
    std::unique_ptr<DKIM_LIB, void (*)(DKIM_LIB*)> lib(dkim_init(nullptr, nullptr), dkim_close);
    if (!lib) return {"fail", ""};
    if (!keys_file.empty()) {
        dkim_query_t method = DKIM_QUERY_FILE;
        dkim_options(lib.get(), DKIM_OP_SETOPT, DKIM_OPTS_QUERYMETHOD, &method, sizeof method);
        dkim_options(lib.get(), DKIM_OP_SETOPT, DKIM_OPTS_QUERYINFO,
                     const_cast<char*>(keys_file.c_str()), keys_file.size());
    }
    DKIM_STAT status = DKIM_STAT_OK;
    std::unique_ptr<DKIM, DKIM_STAT (*)(DKIM*)> dkim(
        dkim_verify(lib.get(), reinterpret_cast<const unsigned char*>("mail"), nullptr, &status),
        dkim_free);
    if (!dkim) return {"fail", ""};
    auto* bytes = reinterpret_cast<unsigned char*>(const_cast<char*>(message.data()));
    status = dkim_chunk(dkim.get(), bytes, message.size());
    if (status == DKIM_STAT_OK) status = dkim_chunk(dkim.get(), nullptr, 0);
    if (status == DKIM_STAT_OK) status = dkim_eom(dkim.get(), nullptr);
    DKIM_SIGINFO* sig = dkim_getsignature(dkim.get());
    if (status == DKIM_STAT_NOSIG && !sig) return out;
    if (sig)
        if (const unsigned char* d = dkim_sig_getdomain(sig))
            out.domain = reinterpret_cast<const char*>(d);
    out.result = status == DKIM_STAT_OK && sig && DKIM_SIG_CHECK(sig) ? "pass" : "fail";
    return out;
}

}  // namespace mail
