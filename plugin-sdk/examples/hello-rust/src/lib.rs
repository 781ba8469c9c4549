//! hello-rust — the hello service in Rust, a `cdylib` on the C ABI (`platform/abi.h`), no crates.
//!
//!   GET  /api/v1/hello-rust/greet?name=Ada   -> {"data":{"message":"Hello, Ada!"}}
//!   POST /api/v1/hello-rust/count            -> {"data":{"count":1}}, 2, 3... per account
//!
//! `greet` with the name "panic" panics on purpose: the panic is caught at the FFI boundary
//! (`on_call`) and answered 500, and the host goes on serving.
mod json;
mod platform;

use platform::*;
use std::os::raw::{c_char, c_void};
use std::panic::{self, AssertUnwindSafe};

// ---- the description: static data, alive as long as the library is loaded ---------------------

const GREET_SCHEMA: &str = concat!(
    r#"{"type":"object","#,
    r#""properties":{"name":{"type":"string","maxLength":100,"description":"Who to greet"}},"#,
    r#""required":["name"],"additionalProperties":false}"#
);
const NO_ARGUMENTS: &str = r#"{"type":"object","properties":{},"additionalProperties":false}"#;

const fn endpoint(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    verb: i32,
    access: i32,
    flags: u64,
    input_schema: &'static str,
) -> Endpoint {
    Endpoint {
        struct_size: std::mem::size_of::<Endpoint>() as u32,
        name: Str::lit(name),
        title: Str::lit(title),
        description: Str::lit(description),
        verb,
        access,
        flags,
        input_schema: Str::lit(input_schema),
        output_schema: Str::EMPTY,
        max_body_bytes: 0,
        price: 0,
        since: Str::lit("1.0.0"),
        http_path: Str::EMPTY,
        mcp_role: MCP_TOOL,
        mcp_uri_prefix: Str::EMPTY,
        live_input: Str::EMPTY,
        resume_arg: Str::EMPTY,
    }
}

const GREET: u32 = 0;
const COUNT: u32 = 1;
static ENDPOINTS: [Endpoint; 2] = [
    endpoint(
        "greet",
        "Greet someone",
        "Answers with a greeting for `name`.",
        VERB_GET,
        ACCESS_PUBLIC,
        FLAG_READ_ONLY,
        GREET_SCHEMA,
    ),
    endpoint(
        "count",
        "Count my calls",
        "Adds one to the caller's own counter and answers with its new value.",
        VERB_POST,
        ACCESS_OWNER,
        0,
        NO_ARGUMENTS,
    ),
];

static DESCRIPTOR: PluginDesc = PluginDesc {
    struct_size: std::mem::size_of::<PluginDesc>() as u32,
    abi_version: ABI_VERSION,
    id: Str::lit("hello-rust"),
    version: Str::lit("1.0.0"),
    kind: KIND_SERVICE,
    summary: Str::lit("Greets people and counts calls (Rust)"),
    config_schema: Str::EMPTY,
    service: Str::lit("v1.hello-rust"),
    endpoints: &ENDPOINTS as *const [Endpoint; 2] as *const Endpoint,
    endpoint_count: 2,
    endpoint_stride: std::mem::size_of::<Endpoint>() as u32,
    on_create: Some(hello_create),
    on_start: None,
    on_stop: None,
    on_destroy: Some(hello_destroy),
    on_call: Some(hello_call),
    on_cancel: None,
    provider: std::ptr::null(),
};

// ---- the entry and the lifecycle: every function the host calls catches panics -----------------

/// The one exported symbol. Must not call the host table; checks the host speaks our major.
///
/// # Safety
/// Called by the host with valid entry arguments.
#[no_mangle]
pub unsafe extern "C" fn platform_plugin_entry(args: *const EntryArgs) -> *const PluginDesc {
    let args = &*args;
    if args.host_abi_version >> 16 != ABI_MAJOR {
        let message = format!(
            "hello-rust needs ABI {}.x, the host speaks {}.{}",
            ABI_MAJOR,
            args.host_abi_version >> 16,
            args.host_abi_version & 0xffff
        );
        write_error(args.error, args.error_size, &message);
        return std::ptr::null();
    }
    &DESCRIPTOR
}

/// The instance: the host table and our handle. Read-only after creation, so shared by every
/// worker thread without locks.
struct Hello {
    api: *const HostApi,
    ctx: *mut HostCtx,
}

unsafe extern "C" fn hello_create(
    api: *const HostApi,
    ctx: *mut HostCtx,
    _config_json: Str,
    err: *mut c_char,
    err_size: usize,
) -> *mut c_void {
    let made = panic::catch_unwind(|| {
        // count needs store_cas (ABI 1.3): present iff the host's table is long enough.
        let table = &*api;
        let cas_present = has_field(
            table.struct_size,
            offset_of!(HostApi, store_cas),
            std::mem::size_of::<Option<unsafe extern "C" fn()>>(),
        );
        if !cas_present || table.store_cas.is_none() {
            return Err("hello-rust needs a host with store_cas (ABI 1.3 or later)".to_string());
        }
        Ok(Box::into_raw(Box::new(Hello { api, ctx })) as *mut c_void)
    });
    match made {
        Ok(Ok(inst)) => inst,
        Ok(Err(message)) => {
            write_error(err, err_size, &message);
            std::ptr::null_mut()
        }
        Err(_) => {
            write_error(err, err_size, "hello-rust: panic while starting");
            std::ptr::null_mut()
        }
    }
}

unsafe extern "C" fn hello_destroy(inst: *mut c_void) {
    drop(Box::from_raw(inst as *mut Hello));
}

/// Runs on host worker threads, possibly several at once. Answers every call exactly once.
/// A panic must never unwind into the host (undefined behaviour across `extern "C"`): it is
/// caught here and answered as a 500, as the C++ SDK answers an exception.
unsafe extern "C" fn hello_call(inst: *mut c_void, call: *mut Call, endpoint: u32, request: Str) {
    let hello = &*(inst as *const Hello);
    let answer = panic::catch_unwind(AssertUnwindSafe(|| match endpoint {
        GREET => greet(request.bytes()),
        COUNT => count(hello, call),
        _ => Err((NOT_FOUND, "unknown endpoint".to_string())),
    }));
    let (code, body) = match answer {
        Ok(Ok(result)) => (OK, result),
        Ok(Err(failure)) => failure,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            (INTERNAL, format!("internal error: {}", what))
        }
    };
    let respond = (*hello.api).respond.expect("the host table has respond");
    respond(call, code, Str::of(body.as_bytes()));
}

// ---- the handlers: JSON in, JSON out, or (status, message naming the argument and the rule) ----

type Answer = Result<String, (Status, String)>;

fn greet(request: &[u8]) -> Answer {
    // The host has validated the request: an object with a string `name` of at most 100
    // characters. A missing one can only come from a caller that skips the host.
    let name = match json::get_string(request, "name") {
        Ok(Some(name)) => name,
        _ => return Err((INVALID_ARGUMENT, "name: is required".to_string())),
    };
    if name == "panic" {
        panic!("greet was asked to panic");
    }
    let mut out = String::from(r#"{"message":"Hello, "#);
    json::escape_into(&mut out, &name);
    out.push_str(r#"!"}"#);
    Ok(out)
}

unsafe extern "C" fn sink_copy(user: *mut c_void, bytes: Str) {
    (*(user as *mut Vec<u8>)).extend_from_slice(bytes.bytes());
}

/// "counters/<account>/calls", '%' and '/' escaped in the account so that one owner's prefix never
/// covers another's: the key the C++ SDK's `r.owned("counters")` uses.
fn owner_key(account: &[u8]) -> Vec<u8> {
    let mut key = b"counters/".to_vec();
    for &b in account {
        match b {
            b'%' => key.extend_from_slice(b"%25"),
            b'/' => key.extend_from_slice(b"%2F"),
            b => key.push(b),
        }
    }
    key.extend_from_slice(b"/calls");
    key
}

unsafe fn count(hello: &Hello, call: *mut Call) -> Answer {
    let api = &*hello.api;
    let mut info: CallInfo = std::mem::zeroed();
    info.struct_size = std::mem::size_of::<CallInfo>() as u32;
    (api.call_info.expect("call_info"))(call, &mut info);
    // The host answers 401 itself for an anonymous caller of an owner endpoint; this check keeps
    // the handler right when called some other way (the unit tests' fake host does not check).
    let account = info.account.bytes();
    if account.is_empty() {
        return Err((UNAUTHENTICATED, "this method needs an account".to_string()));
    }
    let key = owner_key(account);
    let (store_get, store_cas) = (api.store_get.expect("store_get"), api.store_cas.expect("checked"));
    // Read, add one, write back only if nobody wrote in between (compare-and-set); otherwise read
    // again. Handlers run on several threads and the service may run as several replicas, so a
    // mutex would not do.
    for _ in 0..16 {
        let mut old: Vec<u8> = Vec::new();
        let got = store_get(hello.ctx, Str::of(&key), sink_copy, &mut old as *mut Vec<u8> as *mut c_void);
        if got != OK && got != NOT_FOUND {
            return Err((got, format!("count: the store answered {}", got)));
        }
        let n = if got == OK { json::record_count(&old) } else { 0 } + 1;
        let next = format!(r#"{{"count":{}}}"#, n);
        let expected = Str::of(&old);
        let swapped = store_cas(
            hello.ctx,
            Str::of(&key),
            if got == OK { &expected } else { std::ptr::null() },
            &Str::of(next.as_bytes()),
            0,
        );
        match swapped {
            OK => return Ok(next), // {"count":N}: the record is the answer
            CONFLICT => continue,
            code => return Err((code, format!("count: the store answered {}", code))),
        }
    }
    Err((CONFLICT, "count: the counter kept changing; gave up after 16 attempts".to_string()))
}

// ---- unit tests: the plugin driven through a fake host table, no server -----------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    /// The fake store (Mutex::new is const; BTreeMap::new is not yet on Rust 1.63).
    static STORE: Mutex<Option<BTreeMap<Vec<u8>, Vec<u8>>>> = Mutex::new(None);

    fn with_store<R>(f: impl FnOnce(&mut BTreeMap<Vec<u8>, Vec<u8>>) -> R) -> R {
        f(STORE.lock().unwrap().get_or_insert_with(BTreeMap::new))
    }

    /// What the fake host keeps about one call (`platform_call_t` is opaque to the plugin).
    struct FakeCall {
        account: String,
        answers: u32,
        code: Status,
        body: String,
    }

    unsafe extern "C" fn fake_call_info(call: *mut Call, out: *mut CallInfo) {
        (*out).account = Str::of((*(call as *const FakeCall)).account.as_bytes());
    }

    unsafe extern "C" fn fake_respond(call: *mut Call, code: Status, body: Str) -> Status {
        let c = &mut *(call as *mut FakeCall);
        c.answers += 1;
        c.code = code;
        c.body = String::from_utf8_lossy(body.bytes()).into_owned();
        OK
    }

    unsafe extern "C" fn fake_store_get(
        _ctx: *mut HostCtx,
        key: Str,
        sink: BytesSink,
        user: *mut c_void,
    ) -> Status {
        match with_store(|s| s.get(key.bytes()).cloned()) {
            Some(v) => {
                sink(user, Str::of(&v));
                OK
            }
            None => NOT_FOUND,
        }
    }

    unsafe extern "C" fn fake_store_cas(
        _ctx: *mut HostCtx,
        key: Str,
        expected: *const Str,
        value: *const Str,
        _expires_at_ms: i64,
    ) -> Status {
        let wanted = if expected.is_null() { None } else { Some((*expected).bytes().to_vec()) };
        with_store(|store| {
            if store.get(key.bytes()).cloned() != wanted {
                return CONFLICT;
            }
            if value.is_null() {
                store.remove(key.bytes());
            } else {
                store.insert(key.bytes().to_vec(), (*value).bytes().to_vec());
            }
            OK
        })
    }

    fn host_api() -> &'static HostApi {
        // Unset functions are None (a zeroed Option<fn> is None).
        let mut api: HostApi = unsafe { std::mem::zeroed() };
        api.struct_size = std::mem::size_of::<HostApi>() as u32;
        api.abi_version = ABI_VERSION;
        api.call_info = Some(fake_call_info);
        api.respond = Some(fake_respond);
        api.store_get = Some(fake_store_get);
        api.store_cas = Some(fake_store_cas);
        Box::leak(Box::new(api))
    }

    struct Plugin {
        desc: &'static PluginDesc,
        inst: *mut c_void,
    }

    fn load() -> Plugin {
        let api = host_api();
        let mut error = [0 as c_char; 256];
        let args = EntryArgs {
            struct_size: std::mem::size_of::<EntryArgs>() as u32,
            host_abi_version: ABI_VERSION,
            api,
            error: error.as_mut_ptr(),
            error_size: error.len(),
        };
        unsafe {
            let desc = &*platform_plugin_entry(&args);
            let inst = (desc.on_create.unwrap())(api, std::ptr::null_mut(), Str::lit("{}"), error.as_mut_ptr(), error.len());
            assert!(!inst.is_null());
            Plugin { desc, inst }
        }
    }

    impl Plugin {
        fn call(&self, endpoint: u32, account: &str, request: &str) -> FakeCall {
            let mut c = FakeCall { account: account.to_string(), answers: 0, code: -1, body: String::new() };
            unsafe {
                (self.desc.on_call.unwrap())(
                    self.inst,
                    &mut c as *mut FakeCall as *mut Call,
                    endpoint,
                    Str::of(request.as_bytes()),
                )
            };
            assert_eq!(c.answers, 1, "every call is answered exactly once");
            c
        }
    }

    #[test]
    fn describes_two_endpoints() {
        let p = load();
        assert_eq!(p.desc.endpoint_count, 2);
        assert_eq!(unsafe { p.desc.id.bytes() }, b"hello-rust");
        assert_eq!(ENDPOINTS[1].access, ACCESS_OWNER);
    }

    #[test]
    fn refuses_another_major() {
        let mut error = [0 as c_char; 128];
        let args = EntryArgs {
            struct_size: std::mem::size_of::<EntryArgs>() as u32,
            host_abi_version: 2 << 16,
            api: host_api(),
            error: error.as_mut_ptr(),
            error_size: error.len(),
        };
        assert!(unsafe { platform_plugin_entry(&args) }.is_null());
        let text: Vec<u8> = error.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
        assert!(String::from_utf8(text).unwrap().contains("needs ABI 1.x"));
    }

    #[test]
    fn greets() {
        let p = load();
        let r = p.call(GREET, "", r#"{"name":"Ada"}"#);
        assert_eq!((r.code, r.body.as_str()), (OK, r#"{"message":"Hello, Ada!"}"#));
        let r = p.call(GREET, "", r#"{"name":"\"Q\" \u00e9\n"}"#);
        assert_eq!(r.body, "{\"message\":\"Hello, \\\"Q\\\" \u{e9}\\n!\"}");
    }

    #[test]
    fn a_panic_is_a_500_and_the_next_call_works() {
        let p = load();
        let r = p.call(GREET, "", r#"{"name":"panic"}"#);
        assert_eq!((r.code, r.body.as_str()), (INTERNAL, "internal error: greet was asked to panic"));
        assert_eq!(p.call(GREET, "", r#"{"name":"Ada"}"#).code, OK);
    }

    #[test]
    fn counts_per_account() {
        let p = load();
        assert_eq!(p.call(COUNT, "carol", "{}").body, r#"{"count":1}"#);
        assert_eq!(p.call(COUNT, "carol", "{}").body, r#"{"count":2}"#);
        assert_eq!(p.call(COUNT, "dave", "{}").body, r#"{"count":1}"#);
        assert_eq!(p.call(COUNT, "", "{}").code, UNAUTHENTICATED);
        assert_eq!(p.call(COUNT, "erin/x", "{}").body, r#"{"count":1}"#);
        assert!(with_store(|s| s.contains_key(&b"counters/erin%2Fx/calls".to_vec())));
    }

    #[test]
    fn unknown_endpoint_is_not_found() {
        assert_eq!(load().call(9, "", "{}").code, NOT_FOUND);
    }
}
