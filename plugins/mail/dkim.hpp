// dkim — the DKIM signature of a message from outside (RFC 6376) checked with libopendkim, the
// one file of this plugin that uses it.
//
//   "pass"  the first signature verifies (header and body hash) with the signer's public key
//   "fail"  the message is signed but the signature does not verify, its key cannot be found or
//           the message is too broken to check
//   "none"  no DKIM-Signature header
//
// with `domain` the signing domain (the signature's d=), "" for none. The public key is looked
// up in DNS (<selector>._domainkey.<domain> TXT), or, when `keys_file` is set (plugin config
// `dkim_keys_file`), in that file only: one key a line, "<selector>._domainkey.<domain>" then
// white space then the TXT record's text ("v=DKIM1; k=rsa; p=MIIB..."), opendkim's test query
// method, which needs no DNS. The message must have CRLF line ends, as SMTP delivers it.
// Thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace mail {

struct DkimResult {
    std::string result = "none";  // pass | fail | none
    std::string domain;
};

DkimResult verify_dkim(std::string_view message, const std::string& keys_file);

}  // namespace mail
