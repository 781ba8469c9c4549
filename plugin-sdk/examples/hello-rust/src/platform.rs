//! The parts of `platform/abi.h` this plugin uses, declared by hand.
//!
//! Every struct is `#[repr(C)]` with its fields in the header's order, so Rust lays it out as C
//! does. Host-table functions this plugin does not call are declared as untyped nullable function
//! pointers (`Unused`): they keep their place, and nothing calls them. The layout tests at the end
//! check each size, alignment and offset against `abi_layout.txt`, which `abi_layout.c` prints
//! from the installed `abi.h`; the SDK's test compares the two.
#![allow(dead_code)]

use std::os::raw::{c_char, c_void};

/// `PLATFORM_ABI_VERSION` of the `abi.h` these declarations mirror: 1.9.
pub const ABI_MAJOR: u32 = 1;
pub const ABI_MINOR: u32 = 9;
pub const ABI_VERSION: u32 = (ABI_MAJOR << 16) | ABI_MINOR;

/// `platform_str_t`: a borrowed byte range, not NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Str {
    pub ptr: *const u8,
    pub len: usize,
}

impl Str {
    pub const EMPTY: Str = Str { ptr: std::ptr::null(), len: 0 };

    /// A view of a string that lives for the whole program (descriptor data).
    pub const fn lit(s: &'static str) -> Str {
        Str { ptr: s.as_ptr(), len: s.len() }
    }

    /// A view of bytes that outlive the host call it is passed to.
    pub fn of(bytes: &[u8]) -> Str {
        Str { ptr: bytes.as_ptr(), len: bytes.len() }
    }

    /// The bytes; valid only as long as the host lends them (the call that passed the view).
    ///
    /// # Safety
    /// `ptr` must point to `len` readable bytes, or be null with `len` 0.
    pub unsafe fn bytes<'a>(self) -> &'a [u8] {
        if self.ptr.is_null() || self.len == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(self.ptr, self.len)
        }
    }
}

/// `platform_status_t`.
pub type Status = i32;
pub const OK: Status = 0;
pub const INVALID_ARGUMENT: Status = 1;
pub const UNAUTHENTICATED: Status = 2;
pub const NOT_FOUND: Status = 5;
pub const CONFLICT: Status = 8;
pub const INTERNAL: Status = 11;

pub const KIND_SERVICE: i32 = 1;
pub const VERB_GET: i32 = 1;
pub const VERB_POST: i32 = 2;
pub const ACCESS_PUBLIC: i32 = 0;
pub const ACCESS_OWNER: i32 = 2;
pub const FLAG_READ_ONLY: u64 = 1 << 0;
pub const MCP_TOOL: i32 = 0;

/// Opaque handles (`platform_host_ctx_t`, `platform_call_t`): only ever behind pointers.
#[repr(C)]
pub struct HostCtx {
    _private: [u8; 0],
}
#[repr(C)]
pub struct Call {
    _private: [u8; 0],
}

/// `platform_endpoint_t`.
#[repr(C)]
pub struct Endpoint {
    pub struct_size: u32,
    pub name: Str,
    pub title: Str,
    pub description: Str,
    pub verb: i32,
    pub access: i32,
    pub flags: u64,
    pub input_schema: Str,
    pub output_schema: Str,
    pub max_body_bytes: u64,
    pub price: u64,
    pub since: Str,
    pub http_path: Str,
    pub mcp_role: i32,
    pub mcp_uri_prefix: Str,
    pub live_input: Str,
    pub resume_arg: Str,
}

/// `platform_call_info_t`, filled by `call_info` up to `struct_size`.
#[repr(C)]
pub struct CallInfo {
    pub struct_size: u32,
    pub service: Str,
    pub endpoint: Str,
    pub account: Str,
    pub scopes: Str,
    pub request_id: Str,
    pub deadline_ms: i64,
}

pub type BytesSink = unsafe extern "C" fn(user: *mut c_void, bytes: Str);
/// A host function this plugin never calls: the slot only keeps the layout.
pub type Unused = Option<unsafe extern "C" fn()>;

/// `platform_host_api_t`. Fields past the `struct_size` the host gave are absent (`has`).
#[repr(C)]
pub struct HostApi {
    pub struct_size: u32,
    pub abi_version: u32,
    // 1.0
    pub log: Option<unsafe extern "C" fn(ctx: *mut HostCtx, level: i32, message: Str)>,
    pub config_get: Unused,
    pub store_get: Option<
        unsafe extern "C" fn(ctx: *mut HostCtx, key: Str, sink: BytesSink, user: *mut c_void) -> Status,
    >,
    pub store_put: Unused,
    pub store_delete: Unused,
    pub store_scan: Unused,
    pub broker_publish: Unused,
    pub broker_subscribe: Unused,
    pub broker_unsubscribe: Unused,
    pub clock_now_ms: Unused,
    pub call_info: Option<unsafe extern "C" fn(call: *mut Call, out: *mut CallInfo)>,
    pub call_header: Unused,
    pub respond: Option<unsafe extern "C" fn(call: *mut Call, code: Status, body: Str) -> Status>,
    pub respond_raw: Unused,
    pub respond_chunk: Unused,
    pub respond_end: Unused,
    // 1.1
    pub get_service: Unused,
    // 1.2
    pub call_service: Unused,
    pub http_fetch: Unused,
    pub events_publish: Unused,
    pub events_read: Unused,
    pub events_wait: Unused,
    // 1.3
    pub store_cas: Option<
        unsafe extern "C" fn(
            ctx: *mut HostCtx,
            key: Str,
            expected: *const Str,
            value: *const Str,
            expires_at_ms: i64,
        ) -> Status,
    >,
    pub store_batch: Unused,
    // 1.4
    pub call_progress: Unused,
    pub call_log: Unused,
    pub call_client_request: Unused,
    pub resource_updated: Unused,
    // 1.5
    pub model_complete: Unused,
    pub call_tools: Unused,
    // 1.6
    pub grant_create: Unused,
    pub grant_call_service: Unused,
    pub grant_revoke: Unused,
    // 1.9
    pub respond_raw_headers: Unused,
}

/// `PLATFORM_HAS_FIELD`: whether the field at `offset` of `size` bytes lies within `struct_size`.
pub fn has_field(struct_size: u32, offset: usize, size: usize) -> bool {
    offset + size <= struct_size as usize
}

pub type OnCreate = unsafe extern "C" fn(
    api: *const HostApi,
    ctx: *mut HostCtx,
    config_json: Str,
    err: *mut c_char,
    err_size: usize,
) -> *mut c_void;
pub type OnCall =
    unsafe extern "C" fn(inst: *mut c_void, call: *mut Call, endpoint_index: u32, request_json: Str);

/// `platform_plugin_desc_t`.
#[repr(C)]
pub struct PluginDesc {
    pub struct_size: u32,
    pub abi_version: u32,
    pub id: Str,
    pub version: Str,
    pub kind: i32,
    pub summary: Str,
    pub config_schema: Str,
    pub service: Str,
    pub endpoints: *const Endpoint,
    pub endpoint_count: u32,
    pub endpoint_stride: u32,
    pub on_create: Option<OnCreate>,
    pub on_start: Option<unsafe extern "C" fn(inst: *mut c_void) -> Status>,
    pub on_stop: Option<unsafe extern "C" fn(inst: *mut c_void)>,
    pub on_destroy: Option<unsafe extern "C" fn(inst: *mut c_void)>,
    pub on_call: Option<OnCall>,
    pub on_cancel: Option<unsafe extern "C" fn(inst: *mut c_void, call: *mut Call)>,
    pub provider: *const c_void,
}

/// `platform_entry_args_t`.
#[repr(C)]
pub struct EntryArgs {
    pub struct_size: u32,
    pub host_abi_version: u32,
    pub api: *const HostApi,
    pub error: *mut c_char,
    pub error_size: usize,
}

// Descriptors are immutable statics that hold raw pointers to other statics: safe to share.
unsafe impl Sync for Str {}
unsafe impl Sync for Endpoint {}
unsafe impl Sync for PluginDesc {}

/// Writes `message` into a host-provided error buffer, truncated and NUL-terminated.
///
/// # Safety
/// `buf` must point to `size` writable bytes, or be null.
pub unsafe fn write_error(buf: *mut c_char, size: usize, message: &str) {
    if buf.is_null() || size == 0 {
        return;
    }
    let n = message.len().min(size - 1);
    std::ptr::copy_nonoverlapping(message.as_ptr(), buf as *mut u8, n);
    *buf.add(n) = 0;
}

/// The offset of a field, without `offset_of!` (stable only since Rust 1.77).
#[macro_export]
macro_rules! offset_of {
    ($t:ty, $f:ident) => {{
        let u = std::mem::MaybeUninit::<$t>::uninit();
        let base = u.as_ptr();
        #[allow(unused_unsafe)]
        let field = unsafe { std::ptr::addr_of!((*base).$f) };
        field as usize - base as usize
    }};
}

#[cfg(test)]
mod layout_tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::mem::{align_of, size_of};

    /// abi_layout.txt: what abi_layout.c printed from abi.h, "<name> <number>" per line.
    fn expected() -> BTreeMap<String, usize> {
        include_str!("../abi_layout.txt")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let (k, v) = l.rsplit_once(' ').expect("a line is '<name> <number>'");
                (k.to_string(), v.parse().expect("a number"))
            })
            .collect()
    }

    macro_rules! layout {
        ($out:ident, $c:literal, $t:ty { $($f:ident),* $(,)? }) => {
            $out.insert(concat!($c, " size").to_string(), size_of::<$t>());
            $out.insert(concat!($c, " align").to_string(), align_of::<$t>());
            $( $out.insert(concat!($c, ".", stringify!($f)).to_string(), offset_of!($t, $f)); )*
        };
    }

    /// The same facts, measured on the Rust declarations.
    fn actual() -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        m.insert("PLATFORM_ABI_VERSION".to_string(), ABI_VERSION as usize);
        layout!(m, "platform_str_t", Str { ptr, len });
        layout!(m, "platform_endpoint_t", Endpoint {
            struct_size, name, title, description, verb, access, flags, input_schema,
            output_schema, max_body_bytes, price, since, http_path, mcp_role, mcp_uri_prefix,
            live_input, resume_arg,
        });
        layout!(m, "platform_call_info_t", CallInfo {
            struct_size, service, endpoint, account, scopes, request_id, deadline_ms,
        });
        layout!(m, "platform_host_api_t", HostApi {
            struct_size, abi_version, log, config_get, store_get, store_put, store_delete,
            store_scan, broker_publish, broker_subscribe, broker_unsubscribe, clock_now_ms,
            call_info, call_header, respond, respond_raw, respond_chunk, respond_end, get_service,
            call_service, http_fetch, events_publish, events_read, events_wait, store_cas,
            store_batch, call_progress, call_log, call_client_request, resource_updated,
            model_complete, call_tools, grant_create, grant_call_service, grant_revoke,
            respond_raw_headers,
        });
        layout!(m, "platform_plugin_desc_t", PluginDesc {
            struct_size, abi_version, id, version, kind, summary, config_schema, service,
            endpoints, endpoint_count, endpoint_stride, on_create, on_start, on_stop, on_destroy,
            on_call, on_cancel, provider,
        });
        layout!(m, "platform_entry_args_t", EntryArgs {
            struct_size, host_abi_version, api, error, error_size,
        });
        m
    }

    #[test]
    fn every_declared_layout_matches_abi_h() {
        let (want, got) = (expected(), actual());
        for (name, n) in &want {
            assert_eq!(got.get(name), Some(n), "{} (abi.h says {})", name, n);
        }
        for name in got.keys() {
            assert!(want.contains_key(name), "{} is not in abi_layout.txt", name);
        }
    }

    #[test]
    fn option_fn_is_a_nullable_pointer() {
        assert_eq!(size_of::<Option<OnCall>>(), size_of::<*const c_void>());
        assert_eq!(size_of::<Unused>(), size_of::<*const c_void>());
    }
}
