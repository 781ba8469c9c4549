#!/usr/bin/env python3
"""Turns the runs of tests/bench/gateway.sh into one markdown table.

    report.py RUNS.tsv HEADER.md

RUNS.tsv has one line per server and mode, tab-separated:
    round:mode  server  label  probe_rc  probe_line  wrk_output_file_or_-  pipeline_depth
(round numbers the modes in the order they ran, so a mode listed twice gives two groups).
(probe_rc and probe_line come from lib/probe.py; the wrk file is `-` when nothing was timed).
HEADER.md is copied above the table. Prints the markdown on stdout; exits 1 when a figure must not be
trusted (a probe failed, a server other than bare Pistache dropped pipelined requests, a timed run
got non-2xx answers or no answer at all), after listing why, in the markdown and on stderr.
"""
import re
import sys

MODES = {
    "default": "a. wrk default: HTTP/1.1, no `Connection` header",
    "keepalive": "b. wrk `-H 'Connection: keep-alive'`",
    "pipeline": "c. pipelined (`pipeline.lua`, {depth} per write)",
}
HOSTS = ("host-notes", "host-root")
PEERS = ("pistache", "nginx")  # the ratios' denominators; pistache-stock is shown, not divided by
# Servers known to drop pipelined requests (Pistache 0.0.5): "dropped" is a finding for
# them, not a failure of the run.
DROPS_KNOWN = ("pistache", "pistache-stock")


def ms(value):
    """wrk's '1.23ms' / '456.00us' / '1.02s' / '2.00m' -> milliseconds."""
    m = re.fullmatch(r"([0-9.]+)(us|ms|s|m)", value)
    if not m:
        return None
    n = float(m.group(1))
    return n * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[m.group(2)]


def parse_wrk(path):
    r = {"rps": None, "p50": None, "p99": None, "non2xx": 0, "socket": 0, "requests": 0}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            s = line.strip()
            if m := re.match(r"50%\s+(\S+)", s):
                r["p50"] = ms(m.group(1))
            elif m := re.match(r"99%\s+(\S+)", s):
                r["p99"] = ms(m.group(1))
            elif m := re.match(r"Requests/sec:\s+([0-9.]+)", s):
                r["rps"] = float(m.group(1))
            elif m := re.match(r"(\d+) requests in", s):
                r["requests"] = int(m.group(1))
            elif m := re.match(r"Non-2xx or 3xx responses:\s+(\d+)", s):
                r["non2xx"] = int(m.group(1))
            elif s.startswith("Socket errors:"):
                r["socket"] = sum(int(n) for n in re.findall(r"\d+", s))
            elif m := re.match(r"pipeline samples=\d+ p50_us=(\d+) p99_us=(\d+)", s):
                # pipeline.lua's own percentiles replace wrk's, which break when pipelining.
                r["p50"], r["p99"] = int(m.group(1)) / 1000, int(m.group(2)) / 1000
    return r


def fmt_rps(v):
    return "—" if v is None else f"{v:,.0f}".replace(",", " ")


def fmt_ms(v):
    return "—" if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "—"
    return f"{a / b:.2f}×"


def connection_note(mode, probe_rc, probe_line):
    words = probe_line.split(" ", 1)
    what = words[1] if len(words) > 1 else ""
    if probe_rc == 0 and mode != "pipeline":
        if what == "keep-alive":
            return "keep-alive"
        return "**closed after every answer**: wrk reconnects per request"
    if probe_rc == 0:
        return f"{what} answered"
    if probe_rc == 3:
        return f"**dropped**: {what} answered, not timed"
    return f"**probe failed**: {what}, not timed"


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    runs = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            group, server, label, rc, probe_line, wrk_file, depth = line.rstrip("\n").split("\t")
            mode = group.split(":", 1)[1]
            r = parse_wrk(wrk_file) if wrk_file != "-" else None
            runs.append(dict(group=group, mode=mode, server=server, label=label, rc=int(rc), probe=probe_line,
                             wrk=r, depth=depth))
    with open(sys.argv[2], encoding="utf-8") as f:
        header = f.read()

    problems = []
    out = [header.rstrip("\n"), ""]
    out.append("| mode | server | req/s | p50 ms | p99 ms | errors | connection (probe) "
               "| host ÷ bare Pistache: req/s · p50 · p99 | host ÷ nginx: req/s · p50 · p99 |")
    out.append("|---|---|---:|---:|---:|---:|---|---|---|")
    groups = []
    for r in runs:
        if r["group"] not in groups:
            groups.append(r["group"])
    for group in groups:
        rows = [r for r in runs if r["group"] == group]
        mode = rows[0]["mode"]
        peer = {r["server"]: r for r in rows if r["server"] in PEERS}
        title = MODES.get(mode, mode).format(depth=rows[0]["depth"])
        for i, r in enumerate(rows):
            w = r["wrk"]
            name = f"{r['server']} {r['label']}"
            if r["rc"] == 1 or (r["rc"] == 3 and r["server"] not in DROPS_KNOWN):
                problems.append(f"{mode} / {r['server']}: probe said `{r['probe']}`")
            if w is not None:
                if w["rps"] is None or w["requests"] == 0:
                    problems.append(f"{mode} / {r['server']}: wrk completed no request")
                if w["non2xx"]:
                    problems.append(f"{mode} / {r['server']}: {w['non2xx']} answers were 4xx/5xx (wrk: Non-2xx or 3xx)")
            errors = "—" if w is None else str(w["non2xx"] + w["socket"])
            if w is None:
                rps = "dropped" if r["rc"] == 3 else "error" if r["rc"] == 1 else "—"
                p50 = p99 = "—"
            else:
                rps, p50, p99 = fmt_rps(w["rps"]), fmt_ms(w["p50"]), fmt_ms(w["p99"])
            ratios = ["", ""]
            if r["server"] in HOSTS and w is not None:
                for j, p in enumerate(PEERS):
                    pw = peer[p]["wrk"] if p in peer else None
                    if pw is None:
                        why = peer[p]["probe"].split(" ")[0] if p in peer else "not run"
                        ratios[j] = f"— ({p}: {why})"
                    else:
                        ratios[j] = " · ".join([ratio(w["rps"], pw["rps"]), ratio(w["p50"], pw["p50"]),
                                                ratio(w["p99"], pw["p99"])])
            out.append(f"| {title if i == 0 else ''} | {name} | {rps} | {p50} | {p99} | {errors} "
                       f"| {connection_note(mode, r['rc'], r['probe'])} | {ratios[0]} | {ratios[1]} |")
    out.append("")
    out.append("req/s counts answers (pipelined: every answer of a batch counts). p50/p99 are wrk's, "
               "with its coordinated-omission correction; pipelined, they are per batch (write of the "
               "requests to the last answer) and come from `pipeline.lua`. errors: non-2xx answers "
               "plus socket errors (connect, read, write, timeout). Ratios above 1× mean the host is "
               "faster for req/s, slower for p50/p99.")
    if problems:
        out.append("")
        out.append("**Figures not to trust:**")
        out.extend(f"- {p}" for p in problems)
        for p in problems:
            print(f"gateway.sh: {p}", file=sys.stderr)
    print("\n".join(out))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
