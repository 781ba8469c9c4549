// platform/host/acme/openssl_handles.hpp — OpenSSL objects owned by std::unique_ptr, for the host's
// TLS listener (tls_listener.cpp) and ACME client (acme/).
//
// Only the host's own sources include this (host_acme's and host_http's): it needs the OpenSSL
// headers, a private dependency of those libraries. Each handle frees its object with the
// matching *_free function when it goes out of scope; a null handle frees nothing. No shared
// state: any thread.
#pragma once

#include <openssl/bio.h>
#include <openssl/x509.h>

#include <memory>
#include <string>

namespace platform::host::openssl {

template <typename T, void (*Free)(T*)>
struct Deleter {
    void operator()(T* p) const { Free(p); }
};

// An OpenSSL object of type T, released with Free.
template <typename T, void (*Free)(T*)>
using Owned = std::unique_ptr<T, Deleter<T, Free>>;

using Bio = Owned<BIO, BIO_free_all>;
using X509Ptr = Owned<X509, X509_free>;

// A read-only memory BIO over `text`, which must outlive it; null when OpenSSL cannot allocate.
inline Bio memory_bio(const std::string& text) {
    return Bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

}  // namespace platform::host::openssl
