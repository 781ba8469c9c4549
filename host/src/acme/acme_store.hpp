// host/src/acme/acme_store.hpp — internal to the ACME client: the state directory
// (<PLATFORM_HOME>/acme): the account key and, per set of names, the certificate and its key.
#pragma once

#include <optional>
#include <platform/host/acme/acme_client.hpp>
#include <string>
#include <vector>

#include "jws.hpp"

namespace platform::host::acme {

class AcmeStore {
public:
    explicit AcmeStore(std::string dir) : dir_(std::move(dir)) {}

    // account.key: loaded, or generated and written (0600) when absent. When two processes race
    // to create it, both end up with the one written first.
    EcKey account_key();

    // The certificate stored for `names` (any order) when it was issued by `directory_url`, its
    // DNS names are exactly `names`, and its key matches; expiry is not checked here. Otherwise
    // nullopt, with *why_not saying why when a stored certificate was there but unusable.
    std::optional<Certificate> load(const std::vector<std::string>& names,
                                    const std::string& directory_url,
                                    std::string* why_not = nullptr) const;

    // Writes cert-<hash>.pem, .key (0600) and .json atomically (each: temporary file + rename).
    void save(const std::vector<std::string>& names, const std::string& directory_url,
              const Certificate& cert);

    // <dir>/cert-<16 hex digits of SHA-256 over the sorted names joined by ','>; add
    // .pem/.key/.json.
    std::string slot(const std::vector<std::string>& names) const;

    const std::string& dir() const { return dir_; }

private:
    void ensure_dir() const;
    std::string dir_;
};

// File helpers (exposed for tests): whole-file read (nullopt when absent); atomic write with `mode`
// applied regardless of the umask.
std::optional<std::string> read_file(const std::string& path);
void write_file_atomic(const std::string& path, const std::string& data, unsigned mode);

}  // namespace platform::host::acme
