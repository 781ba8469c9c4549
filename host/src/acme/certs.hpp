// host/src/acme/certs.hpp — internal to the ACME client: the CSR sent to finalize, and what the
// client checks in a certificate chain (leaf expiry, DNS names, key match).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jws.hpp"

namespace platform::host::acme {

// A DER PKCS#10 request signed by `key` (SHA-256): subjectAltName = DNS:<each name>, and CN = the
// first name when it fits (64 characters). Throws std::runtime_error.
std::string make_csr_der(const EcKey& key, const std::vector<std::string>& names);

struct LeafInfo {
    int64_t not_after_unix = 0;
    std::vector<std::string> dns_names;  // subjectAltName DNS entries, sorted
    std::string serial_hex;              // upper-case hex
    int chain_length = 0;                // certificates in the PEM
};

// Reads the first certificate of a PEM chain; throws std::runtime_error when there is none or
// any certificate of the chain does not parse.
LeafInfo inspect_chain(const std::string& chain_pem);

// True when the leaf of `chain_pem` certifies `key`'s public key.
bool key_matches_leaf(const std::string& chain_pem, const EcKey& key);

// The names sorted and without duplicates, for comparing sets.
std::vector<std::string> sorted_names(std::vector<std::string> names);

}  // namespace platform::host::acme
