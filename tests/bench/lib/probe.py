#!/usr/bin/env python3
"""One correctness probe for tests/bench/gateway.sh, run before wrk times a server in a mode.

    probe.py [-H 'Name: value']... HOST PORT PATH MODE [DEPTH]

MODE is one of
  default    - the request wrk sends by default: HTTP/1.1, `Host` only, no `Connection` header;
  keepalive  - the same plus `Connection: keep-alive` (wrk -H 'Connection: keep-alive');
  pipeline   - DEPTH (8) default requests in a single write, as tests/bench/pipeline.lua does.
Each -H header goes on every request, as wrk's -H does (gateway.sh passes the host's bearer token).

For default and keepalive it sends the request twice on one connection; for pipeline it reads until
DEPTH answers arrived, the server closed, or nothing came for a second. Every answer must be a
complete 200. Prints one line and exits:
  0  `ok keep-alive` | `ok close` (the server closes after each answer, so wrk reconnects every
     time) | `ok 8/8` (all pipelined answers, in one connection)
  3  `dropped N/8` (pipeline: the first N answers were 200, the rest never came)
  1  `error WHY` (refused, not 200, malformed, nothing answered)
"""
import argparse
import socket
import sys
import time

READ_IDLE = 1.0     # seconds without a byte before giving up on more answers
DEADLINE = 10.0     # whole probe


class Closed(Exception):
    pass


class Reader:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.eof = False
        self.deadline = time.monotonic() + DEADLINE

    def fill(self):
        if self.eof:
            raise Closed()
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout()
        self.sock.settimeout(min(READ_IDLE, left))
        data = self.sock.recv(65536)
        if not data:
            self.eof = True
            raise Closed()
        self.buf += data

    def until(self, sep):
        while sep not in self.buf:
            self.fill()
        i = self.buf.index(sep) + len(sep)
        out, self.buf = self.buf[:i], self.buf[i:]
        return out

    def take(self, n):
        while len(self.buf) < n:
            self.fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out


def response(r):
    """Reads one response; returns (status, headers dict with lower-case names, body)."""
    head = r.until(b"\r\n\r\n").decode("latin-1")
    lines = head.split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1."):
        raise ValueError("malformed status line %r" % lines[0])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = b""
        while True:
            size = int(r.until(b"\r\n").split(b";")[0].strip(), 16)
            if size == 0:
                r.until(b"\r\n")  # no trailers expected
                break
            body += r.take(size)
            r.take(2)
    elif "content-length" in headers:
        body = r.take(int(headers["content-length"]))
    else:
        raise ValueError("answer without Content-Length or chunked body")
    return int(parts[1]), headers, body


HEADERS = []  # -H values


def request(host, port, path, keepalive):
    extra = "".join(h + "\r\n" for h in HEADERS)
    extra += "Connection: keep-alive\r\n" if keepalive else ""
    return ("GET %s HTTP/1.1\r\nHost: %s:%d\r\n%s\r\n" % (path, host, port, extra)).encode()


def probe_sequential(host, port, path, keepalive):
    req = request(host, port, path, keepalive)
    with socket.create_connection((host, port), timeout=DEADLINE) as s:
        r = Reader(s)
        s.sendall(req)
        status, headers, _ = response(r)
        if status != 200:
            return 1, "error status %d" % status
        if headers.get("connection", "").lower() == "close":
            return 0, "ok close"
        try:
            s.sendall(req)
            status, headers, _ = response(r)
        except (Closed, ConnectionError, socket.timeout):
            return 0, "ok close"
        if status != 200:
            return 1, "error status %d on the second request of the connection" % status
        return 0, "ok keep-alive"


def probe_pipeline(host, port, path, depth):
    with socket.create_connection((host, port), timeout=DEADLINE) as s:
        r = Reader(s)
        s.sendall(request(host, port, path, False) * depth)
        got = 0
        try:
            while got < depth:
                status, _, _ = response(r)
                if status != 200:
                    return 1, "error status %d for pipelined request %d" % (status, got + 1)
                got += 1
        except (Closed, ConnectionError, socket.timeout):
            pass
        if got == depth:
            return 0, "ok %d/%d" % (got, depth)
        if got == 0:
            return 1, "error no answer to %d pipelined requests" % depth
        return 3, "dropped %d/%d" % (got, depth)


def main():
    ap = argparse.ArgumentParser(description="One correctness probe for tests/bench/gateway.sh.")
    ap.add_argument("-H", dest="headers", action="append", default=[], metavar="'Name: value'")
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("path")
    ap.add_argument("mode", choices=("default", "keepalive", "pipeline"))
    ap.add_argument("depth", type=int, nargs="?", default=8)
    a = ap.parse_args()
    HEADERS.extend(a.headers)
    host, port, path, mode, depth = a.host, a.port, a.path, a.mode, a.depth
    try:
        if mode == "pipeline":
            code, line = probe_pipeline(host, port, path, depth)
        else:
            code, line = probe_sequential(host, port, path, mode == "keepalive")
    except (Closed, ConnectionError, socket.timeout, OSError, ValueError) as e:
        code, line = 1, "error %s" % (e.__class__.__name__ if not str(e) else e)
    print(line)
    return code


if __name__ == "__main__":
    sys.exit(main())
