#!/usr/bin/env python3
"""Exec to the first answered request, for tests/bench/run's cold-start scenario.

    first_answer.py PORT LOG -- COMMAND...

Starts COMMAND (a `platform server` told to listen on 127.0.0.1:PORT; its output goes to LOG), then
sends `GET /` on a new connection every 2 ms until one is answered 200. The host loads every plugin
of its profile before it opens the port, so the first answer comes after all of them loaded. Then
reads the process's VmRSS from /proc, stops it (SIGTERM, SIGKILL after 10 s) and prints one line:
    first_answer_ms=140.2 rss_kb=27000
Exits 1 (saying why on stderr) when the command ends first or nothing answers within 30 s.
"""
import os
import signal
import socket
import subprocess
import sys
import time

POLL = 0.002
LIMIT = 30.0


def answered(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            return data.startswith(b"HTTP/1.1 200") or data.startswith(b"HTTP/1.0 200")
    except OSError:
        return False


def rss_kb(pid):
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    port, log, command = int(sys.argv[1]), sys.argv[2], sys.argv[4:]
    with open(log, "wb") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            while True:
                if answered(port):
                    elapsed = (time.monotonic() - t0) * 1000
                    break
                if proc.poll() is not None:
                    print(f"first_answer.py: the server exited ({proc.returncode}) before answering; log: {log}",
                          file=sys.stderr)
                    return 1
                if time.monotonic() - t0 > LIMIT:
                    print(f"first_answer.py: no answer on port {port} in {LIMIT:.0f} s; log: {log}", file=sys.stderr)
                    return 1
                time.sleep(POLL)  # the polling interval, not a synchronisation
            rss = rss_kb(proc.pid)
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    print(f"first_answer_ms={elapsed:.1f} rss_kb={rss}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
