// notify — Web Push notifications to the caller's own devices (the catalogue's `notify` service:
// devices, send; subscribe and unsubscribe register a browser).
//
//   notify.cpp        the service: methods and schemas, devices, subscribe, unsubscribe
//   send.cpp          send: the payload, one encrypted POST per device, the live-session event
//   subscription.cpp  checks on PushSubscription endpoints, keys and URLs
//   web_push.cpp      RFC 8291 / RFC 8188 aes128gcm message encryption
//   vapid.cpp         RFC 8292: the sealed VAPID key and the ES256 JWT
//   ec_keys.cpp       P-256 keys from and to their raw bytes
//
// Storage (the plugin's own table): vapid/key, the sealed VAPID private key; the owner-scoped
// collection `devices`, one record per subscribed browser: {id, name, service, created,
// last_success, last_failure, last_error, endpoint_hash, sealed}, `sealed` holding the
// subscription (endpoint, p256dh, auth) sealed by the host's secrets sub-table.
#pragma once

#include <mutex>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

#include "vapid.hpp"

class Notify {
public:
    static void describe(platform::ServiceSpec<Notify>& s);
    explicit Notify(const platform::Host& host) : host_(host) {}

    platform::json devices(platform::Request& r);
    platform::json subscribe(platform::Request& r);
    platform::json unsubscribe(platform::Request& r);
    platform::json send(platform::Request& r);

    static constexpr const char* kCollection = "devices";
    static constexpr size_t kMaxDevices = 20;
    static constexpr size_t kMaxTitle = 100, kMaxBody = 300, kMaxUrl = 1000, kMaxName = 100;

    // The events topic live web sessions of `account` follow ("notify:<account>"; the ':' keeps
    // it out of the events service's reach).
    static std::string live_topic(const std::string& account) { return "notify:" + account; }

private:
    // The VAPID key, loaded (or made) on first use.
    const notify::Vapid& vapid();
    // The host's secrets sub-table; unavailable (503) when the profile does not lend it.
    const platform_secrets_api_t& secrets() const;
    std::string seal(const std::string& plain) const;
    std::string open(const std::string& sealed) const;
    // The operator's trusted_endpoints (host:port of push services reached as operator URLs).
    std::vector<std::string> trusted_endpoints() const;
    // A device as `devices` shows it: never the endpoint or the keys.
    static platform::json shown(const platform::json& device);

    platform::Host host_;
    std::mutex vapid_m_;
    notify::Vapid vapid_;
};
