// abi.go — the cgo glue between the host (the C ABI of platform/abi.h) and the service in
// hello.go: the exported entry, the lifecycle, and on_call, which answers every call once and
// turns a Go panic into a 500 instead of a crash of the whole host.
package main

/*
#cgo CFLAGS: -std=c99 -Wall
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// The plugin's id and service name. A build may change them:
//
//	go build -buildmode=c-shared -ldflags "-X main.pluginID=hello-go2 -X main.serviceName=v1.hello-go2"
var (
	pluginID    = "hello-go"
	serviceName = "v1.hello-go"
)

// main is required by -buildmode=c-shared and never runs.
func main() {}

// platform_plugin_entry is the one exported symbol (the version script hides the rest). It must
// not call the host table; it only checks that the host speaks our major.
//
//export platform_plugin_entry
func platform_plugin_entry(args *C.platform_entry_args_t) *C.platform_plugin_desc_t {
	if major := uint32(args.host_abi_version) >> 16; major != C.PLATFORM_ABI_MAJOR {
		message := C.CString(fmt.Sprintf("%s needs ABI %d.x, the host speaks %d.%d", pluginID,
			C.PLATFORM_ABI_MAJOR, major, uint32(args.host_abi_version)&0xffff))
		defer C.free(unsafe.Pointer(message))
		C.hello_write_error(args.error, args.error_size, message)
		return nil
	}
	id, service := C.CString(pluginID), C.CString(serviceName)
	defer C.free(unsafe.Pointer(id))
	defer C.free(unsafe.Pointer(service))
	return (*C.platform_plugin_desc_t)(unsafe.Pointer(C.hello_descriptor(id, service)))
}

// helloCreate is on_create. The instance is C memory (a hello_host_t): cgo forbids C from
// keeping a Go pointer.
//
//export helloCreate
func helloCreate(api *C.platform_host_api_t, ctx *C.platform_host_ctx_t, config C.platform_str_t,
	err *C.char, errSize C.size_t) unsafe.Pointer {
	if C.hello_has_store_cas(api) == 0 { // count needs store_cas (ABI 1.3)
		message := C.CString(pluginID + " needs a host with store_cas (ABI 1.3 or later)")
		defer C.free(unsafe.Pointer(message))
		C.hello_write_error(err, errSize, message)
		return nil
	}
	host := (*C.hello_host_t)(C.calloc(1, C.sizeof_hello_host_t))
	host.api, host.ctx = api, ctx
	return unsafe.Pointer(host)
}

//export helloDestroy
func helloDestroy(inst unsafe.Pointer) {
	C.free(inst)
}

// helloCall is on_call: on host worker threads, possibly several at once.
//
//export helloCall
func helloCall(inst unsafe.Pointer, call *C.platform_call_t, endpoint C.uint32_t,
	request C.platform_str_t) {
	host := (*C.hello_host_t)(inst)
	account := func() string {
		a := C.hello_call_account(host, call)
		return C.GoStringN(a.ptr, C.int(a.len))
	}
	a := serve(hostStore{host}, uint32(endpoint), goBytes(request), account)
	body := C.CString(a.body)
	defer C.free(unsafe.Pointer(body))
	C.hello_respond(host, call, C.platform_status_t(a.code), body, C.size_t(len(a.body)))
}

func goBytes(s C.platform_str_t) []byte {
	if s.len == 0 {
		return []byte{}
	}
	return C.GoBytes(unsafe.Pointer(s.ptr), C.int(s.len))
}

// hostStore is the plugin's store table in the host, through the C wrappers of shim.c.
type hostStore struct{ host *C.hello_host_t }

func (s hostStore) get(key []byte) ([]byte, status) {
	k := C.CBytes(key)
	defer C.free(k)
	var out *C.char
	var n C.size_t
	code := status(C.hello_store_get(s.host, (*C.char)(k), C.size_t(len(key)), &out, &n))
	if out == nil {
		return nil, code
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), code
}

func (s hostStore) cas(key []byte, expected []byte, hasExpected bool, value []byte) status {
	k, e, v := C.CBytes(key), C.CBytes(expected), C.CBytes(value)
	defer C.free(k)
	defer C.free(e)
	defer C.free(v)
	has := C.int(0)
	if hasExpected {
		has = 1
	}
	return status(C.hello_store_cas(s.host, (*C.char)(k), C.size_t(len(key)), has, (*C.char)(e),
		C.size_t(len(expected)), (*C.char)(v), C.size_t(len(value))))
}
