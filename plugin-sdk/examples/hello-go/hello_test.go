// Unit tests for hello-go: the handlers through serve(), with an in-memory store, no host.
// (A _test.go file cannot use cgo, which is why hello.go keeps the service free of it.)
package main

import (
	"sync"
	"testing"
)

type memStore struct {
	mu      sync.Mutex
	records map[string][]byte
	steal   bool // another writer changes the record just before the next cas
}

func (m *memStore) get(key []byte) ([]byte, status) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.records[string(key)]
	if !ok {
		return nil, statusNotFound
	}
	return v, statusOK
}

func (m *memStore) cas(key, expected []byte, hasExpected bool, value []byte) status {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.steal {
		m.steal = false
		m.records[string(key)] = []byte(`{"count":10}`)
	}
	cur, ok := m.records[string(key)]
	if ok != hasExpected || (ok && string(cur) != string(expected)) {
		return statusConflict
	}
	m.records[string(key)] = value
	return statusOK
}

func call(s store, endpoint uint32, account, request string) answer {
	return serve(s, endpoint, []byte(request), func() string { return account })
}

func TestGreet(t *testing.T) {
	s := &memStore{records: map[string][]byte{}}
	if a := call(s, endpointGreet, "", `{"name":"Ada"}`); a != (answer{statusOK, `{"message":"Hello, Ada!"}`}) {
		t.Errorf("greet Ada: %+v", a)
	}
	if a := call(s, endpointGreet, "", `{"name":"\"Q\"\n"}`); a.body != `{"message":"Hello, \"Q\"\n!"}` {
		t.Errorf("greet escapes: %+v", a)
	}
	if a := call(s, endpointGreet, "", `{}`); a.code != statusInvalidArgument {
		t.Errorf("greet without name: %+v", a)
	}
}

func TestCountPerAccount(t *testing.T) {
	s := &memStore{records: map[string][]byte{}}
	for i, c := range []struct {
		account string
		want    answer
	}{
		{"alice", answer{statusOK, `{"count":1}`}},
		{"alice", answer{statusOK, `{"count":2}`}},
		{"bob", answer{statusOK, `{"count":1}`}},
		{"", answer{statusUnauthenticated, "this method needs an account"}},
		{"a/b", answer{statusOK, `{"count":1}`}},
	} {
		if a := call(s, endpointCount, c.account, `{}`); a != c.want {
			t.Errorf("call %d as %q: got %+v, want %+v", i, c.account, a, c.want)
		}
	}
	if _, ok := s.records["counters/a%2Fb/calls"]; !ok {
		t.Errorf("the account is escaped in the key: %v", s.records)
	}
	s.steal = true // the compare-and-set fails once; the retry counts from the newer value
	if a := call(s, endpointCount, "alice", `{}`); a.body != `{"count":11}` {
		t.Errorf("after a concurrent write: %+v", a)
	}
}

type panickyStore struct{ memStore }

func (p *panickyStore) get([]byte) ([]byte, status) { panic("the store exploded") }

func TestPanicIsInternal(t *testing.T) {
	a := call(&panickyStore{}, endpointCount, "alice", `{}`)
	if a != (answer{statusInternal, "internal error: the store exploded"}) {
		t.Errorf("a panic: %+v", a)
	}
	if a := call(&panickyStore{}, 9, "alice", `{}`); a.code != statusNotFound {
		t.Errorf("unknown endpoint: %+v", a)
	}
}
