// hello-go — the hello service in Go, a c-shared library on the C ABI (platform/abi.h).
//
//	GET  /api/v1/hello-go/greet?name=Ada   -> {"data":{"message":"Hello, Ada!"}}
//	POST /api/v1/hello-go/count            -> {"data":{"count":1}}, 2, 3... per account
//
// This file is plain Go, with no cgo: the handlers see the store through an interface, so
// hello_test.go tests them with an in-memory one. abi.go connects them to the host.
package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// status is platform_status_t; the values are abi.h's.
type status int32

const (
	statusOK              status = 0
	statusInvalidArgument status = 1
	statusUnauthenticated status = 2
	statusNotFound        status = 5
	statusConflict        status = 8
	statusInternal        status = 11
)

// The endpoints' indexes: their order in shim.c's ENDPOINTS.
const (
	endpointGreet = 0
	endpointCount = 1
)

// store is the plugin's key-value table in the host.
type store interface {
	// get answers the value and OK, or NOT_FOUND, or the store's error.
	get(key []byte) ([]byte, status)
	// cas writes value only if the key holds expected (hasExpected) or is absent (!hasExpected):
	// OK, CONFLICT when it does not, or the store's error.
	cas(key []byte, expected []byte, hasExpected bool, value []byte) status
}

// answer is what a call answers: the JSON result when code is OK, else a message naming the
// argument and the rule.
type answer struct {
	code status
	body string
}

// serve runs one call. A panic must never reach the host: cgo would crash the whole process. It
// is recovered here and answered as a 500, as the C++ SDK answers an exception.
func serve(s store, endpoint uint32, request []byte, account func() string) (a answer) {
	defer func() {
		if p := recover(); p != nil {
			a = answer{statusInternal, fmt.Sprintf("internal error: %v", p)}
		}
	}()
	switch endpoint {
	case endpointGreet:
		return greet(request)
	case endpointCount:
		return count(s, account())
	}
	return answer{statusNotFound, "unknown endpoint"}
}

func greet(request []byte) answer {
	// The host has validated the request: an object with a string `name` of at most 100
	// characters. A missing one can only come from a caller that skips the host.
	var args struct {
		Name *string `json:"name"`
	}
	if err := json.Unmarshal(request, &args); err != nil || args.Name == nil {
		return answer{statusInvalidArgument, "name: is required"}
	}
	out, err := json.Marshal(struct {
		Message string `json:"message"`
	}{"Hello, " + *args.Name + "!"})
	if err != nil {
		return answer{statusInternal, err.Error()}
	}
	return answer{statusOK, string(out)}
}

// ownerKey is "counters/<account>/calls", '%' and '/' escaped in the account so that one owner's
// prefix never covers another's: the key the C++ SDK's r.owned("counters") uses.
func ownerKey(account string) []byte {
	escaped := strings.NewReplacer("%", "%25", "/", "%2F").Replace(account)
	return []byte("counters/" + escaped + "/calls")
}

type counter struct {
	Count int64 `json:"count"`
}

func count(s store, account string) answer {
	// The host answers 401 itself for an anonymous caller of an owner endpoint; this check
	// keeps the handler right when called some other way (the unit test calls it directly).
	if account == "" {
		return answer{statusUnauthenticated, "this method needs an account"}
	}
	key := ownerKey(account)
	// Read, add one, write back only if nobody wrote in between (compare-and-set); otherwise
	// read again. Handlers run on several threads and the service may run as several replicas,
	// so a mutex would not do.
	for attempt := 0; attempt < 16; attempt++ {
		old, got := s.get(key)
		if got != statusOK && got != statusNotFound {
			return answer{got, fmt.Sprintf("count: the store answered %d", got)}
		}
		var c counter
		if got == statusOK {
			if err := json.Unmarshal(old, &c); err != nil {
				return answer{statusInternal, "count: a stored counter is not JSON: " + err.Error()}
			}
		}
		c.Count++
		next, _ := json.Marshal(c) // {"count":N}: the record is the answer
		switch swapped := s.cas(key, old, got == statusOK, next); swapped {
		case statusOK:
			return answer{statusOK, string(next)}
		case statusConflict:
			continue
		default:
			return answer{swapped, fmt.Sprintf("count: the store answered %d", swapped)}
		}
	}
	return answer{statusConflict, "count: the counter kept changing; gave up after 16 attempts"}
}
