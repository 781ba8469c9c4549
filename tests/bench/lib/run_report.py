#!/usr/bin/env python3
"""The table and results.json of tests/bench/run.

    run_report.py RECORDS.jsonl META.json RESULTS.json

RECORDS.jsonl, one JSON object a line, written by `run` as it goes:
  {"type": "measure", "id", "server", "label", "kind": "wrk", "file": wrk's output}
  {"type": "measure", "id", "server", "label", "kind": "value", "value", "unit"}
      either may carry "status": "failed" | "skipped" | "dropped" and a "note" saying why (set by
      `run` when nothing could be timed); a wrk measurement is also failed when wrk printed no
      figure, counted non-2xx answers or socket errors, or post.lua counted mismatched answers.
  {"type": "row", "id", "scenario", "what", "host": measure id, "peer": measure id or "",
   "ratio": "rps" | "value" | "", "goal": text, "check": {...}, "note": text}
      check (optional) says when the goal is met: ratio_min, ratio_max (host ÷ peer), host_max
      (the host's value), host_p99_max (ms).
META.json: {"date", "command", "machine", "options", ...}, copied into RESULTS.json.

Prints the markdown table (scenario, host, peer, ratio, goal) with a few lines above and below;
writes RESULTS.json with the same figures; exits 1 when any measurement failed (a server that did
not start or died, a probe or check that failed, errors in a timed run), 0 otherwise — a skipped
measurement (a missing tool) or a known drop (bare Pistache and pipelining) is reported, not failed.
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree from the import below
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import parse_wrk  # noqa: E402  (gateway.sh's parser of wrk's output)


def parse_post(path):
    """post.lua's done() line: checked, mismatched, first mismatch."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("post checked="):
                    head, _, first = line.rstrip("\n").partition(" first_mismatch=")
                    fields = dict(kv.split("=", 1) for kv in head.split()[1:])
                    return int(fields["checked"]), int(fields["mismatched"]), first
    except OSError:
        pass
    return None


def measure(rec):
    m = {k: rec.get(k) for k in ("id", "server", "label", "kind", "unit", "note")}
    m["status"] = rec.get("status", "ok")
    if rec["kind"] == "value":
        m["value"] = rec.get("value")
        if m["status"] == "ok" and m["value"] is None:
            m["status"], m["note"] = "failed", m["note"] or "no figure"
        return m
    m["file"] = rec.get("file")
    if m["status"] != "ok":
        return m
    if not m["file"] or not os.path.exists(m["file"]):
        m["status"], m["note"] = "failed", "wrk printed nothing"
        return m
    w = parse_wrk(m["file"])
    m.update(rps=w["rps"], p50_ms=w["p50"], p99_ms=w["p99"], requests=w["requests"],
             non2xx=w["non2xx"], socket_errors=w["socket"])
    post = parse_post(m["file"])
    why = []
    if w["rps"] is None or not w["requests"]:
        why.append("no answers counted")
    if w["non2xx"]:
        why.append(f"{w['non2xx']} non-2xx answers")
    if w["socket"]:
        why.append(f"{w['socket']} socket errors")
    if post is not None:
        m["checked"], m["mismatched"] = post[0], post[1]
        if post[1]:
            why.append(f"{post[1]} of {post[0]} answers failed the check (first: {post[2][:120]})")
    if why:
        m["status"], m["note"] = "failed", "; ".join(why)
    return m


def num(v, digits=0):
    return f"{v:,.{digits}f}"


def fmt_ms(v):
    if v is None:
        return "—"
    return f"{v:.2f}" if v < 10 else f"{v:.1f}"


def figure(m, named=True):
    """One cell: the figure, or what happened instead; `named` puts the measurement's label first."""
    if m is None:
        return "—"
    label = f"{m['label']}: " if named and m.get("label") else ""
    if m["status"] == "skipped":
        return f"{label}skipped ({m.get('note') or 'not run'})"
    if m["status"] == "dropped":
        return f"{label}**dropped** ({m.get('note') or ''}), not timed"
    if m["kind"] == "value":
        if m.get("value") is None:
            return f"{label}**failed**: {m.get('note')}"
        text = f"{label}{num(m['value'], 1)} {m.get('unit') or ''}".rstrip()
    else:
        if m.get("rps") is None:
            return f"{label}**failed**: {m.get('note')}"
        text = f"{label}{num(m['rps'])}/s, p50 {fmt_ms(m['p50_ms'])} ms, p99 {fmt_ms(m['p99_ms'])} ms"
    if m["status"] == "failed":
        text += f" — **failed**: {m.get('note')}"
    elif m.get("note"):
        text += f" ({m['note']})"
    return text


def fmt_ratio(r):
    if r is None:
        return "—"
    return f"{r:.2f}×" if r >= 0.1 else f"{r:.3f}×"


def key(m):
    if m is None or m["status"] in ("skipped", "dropped"):
        return None
    return m.get("rps") if m["kind"] == "wrk" else m.get("value")


def main():
    records_path, meta_path, results_path = sys.argv[1:4]
    with open(meta_path, encoding="utf-8") as f:
        meta = json.load(f)
    measures, rows = {}, []
    with open(records_path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec["type"] == "measure":
                measures[rec["id"]] = measure(rec)
            else:
                rows.append(rec)

    rows.sort(key=lambda r: r["id"])  # run's order of execution is not the table's
    out_rows = []
    table = ["| scenario | host | peer | ratio | goal |", "|---|---|---|---:|---|"]
    for r in rows:
        host = measures.get(r["host"])
        peer = measures.get(r.get("peer") or "")
        ratio = None
        if r.get("ratio") and key(host) is not None and key(peer) not in (None, 0):
            ratio = key(host) / key(peer)
        met = None
        check = r.get("check") or {}
        if check and host is not None and host["status"] == "ok":
            tests = []
            if "ratio_min" in check and ratio is not None:
                tests.append(ratio >= check["ratio_min"])
            if "ratio_max" in check and ratio is not None:
                tests.append(ratio <= check["ratio_max"])
            if "host_max" in check and host.get("value") is not None:
                tests.append(host["value"] <= check["host_max"])
            if "host_p99_max" in check and host.get("p99_ms") is not None:
                tests.append(host["p99_ms"] <= check["host_p99_max"])
            if tests:
                met = all(tests)
        goal = r.get("goal") or ""
        if met is not None:
            goal += " — met" if met else " — **missed**"
        what = f"{r['id']}. {r['scenario']}: {r['what']}"
        if r.get("note"):
            what += f" ({r['note']})"
        table.append(f"| {what} | {figure(host, named=False)} | {figure(peer) if r.get('peer') else '—'} | "
                     f"{fmt_ratio(ratio)} | {goal or '—'} |")
        out_rows.append({"id": r["id"], "scenario": r["scenario"], "what": r["what"],
                         "host": host, "peer": peer if r.get("peer") else None,
                         "ratio": None if ratio is None else round(ratio, 3),
                         "goal": r.get("goal") or None, "goal_met": met, "note": r.get("note")})

    failed = [m for m in measures.values() if m["status"] == "failed"]
    skipped = [m for m in measures.values() if m["status"] == "skipped"]
    lines = [f"tests/bench/run, {meta['date']}: `{meta['command']}`",
             f"machine: {meta['machine']}; load average before/after: {meta.get('load_before')} / "
             f"{meta.get('load_after')}", ""]
    lines += table
    lines.append("")
    lines.append("Figures are per second (requests, calls, asks) with wrk's p50/p99 "
                 "(coordinated-omission corrected; pipelined: per batch, from pipeline.lua). "
                 "Ratio: host ÷ peer (above 1× the host is faster), for memory and scaling the "
                 "row's own quotient.")
    if skipped:
        lines.append("Skipped (not failures): " + "; ".join(f"{m['id']} ({m.get('note')})" for m in skipped))
    if failed:
        lines.append("")
        lines.append("**Failed:**")
        lines += [f"- {m['id']} ({m.get('label') or m['server']}): {m.get('note')}" for m in failed]
    print("\n".join(lines))

    results = dict(meta)
    results["rows"] = out_rows
    results["failed"] = [m["id"] for m in failed]
    results["skipped"] = [m["id"] for m in skipped]
    with open(results_path, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")
    for m in failed:
        print(f"run: failed: {m['id']}: {m.get('note')}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
