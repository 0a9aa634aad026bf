#!/usr/bin/env python3
"""Type into a TVMScript file as a person does, through `tvmls serve` over stdio, and report the
slowest edits. Python 3 stdlib only.

The server runs with `--log-level debug` and debounce 0; for each analysis round it writes one
line to stderr (server/lsp_server.cc, LspDocument::Analyse):

  analysed URI version V in A ms (reparse R ms; functions re-lowered F of G; statements scanned
  S of T; scan X, mark X, analyse X, assemble X, json X ms): D diagnostics

which this script matches to the edit of version V. Workloads (all seeded, --seed):

  lines    at --sites places (indented lines inside functions, spread over the file) a new line
           is typed character by character after the line, with all the broken states in between
           (`    lv`, `    lv =`, `    lv = R.add(`, ...), then deleted character by character.
  random   at --sites places, bursts of --burst random single-character edits (insert a letter,
           bracket, quote, colon, space or newline; or delete a character) near one spot, each
           waiting for its diagnostics; then the burst is undone edit by edit.
  at       TEXT typed at LINE:COL (--at, repeatable) and removed again, --repeat times.
  ident    `x` typed after the first identifier of --sites indented lines and removed again
           (lspbench's edit).

Every edit is sent once the previous one's diagnostics arrived and timed until they arrive: the
client pulls (textDocument/diagnostic right after the didChange, with the last resultId; the
server answers once that version is analysed, `unchanged` when the diagnostics are the same),
because the server pushes only diagnostics that changed and an edit that changes none would
never be answered by a push (edit -> diagnostics). An edit is timed to the moment the answer's
bytes have arrived, as lspbench times its edits; the time until this client has parsed the JSON
(about 8 ms more for a 0.9 MB report in Python) is reported beside it. Output: p50/p95/max per
workload, the --top slowest edits with their position, what was typed, the reparse time and what
was re-analysed; --json-out writes every sample.

  bench/lsp/typing.py --file /tmp/real_100k.py --tvmls build/tvmls --sites 20 --json-out t.json
"""
import argparse
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

LOG_LINE = re.compile(
    r"analysed (?P<uri>\S+) version (?P<version>-?\d+) in (?P<ms>[\d.]+) ms "
    r"\(reparse (?P<reparse>[\d.]+) ms; functions re-lowered (?P<fns>\d+) "
    r"of (?P<fns_all>\d+); statements scanned (?P<stmts>\d+) of (?P<stmts_all>\d+)(?:; scan "
    r"(?P<scan>[\d.]+), mark (?P<mark>[\d.]+), analyse (?P<analyse>[\d.]+), assemble "
    r"(?P<assemble>[\d.]+), json (?P<json>[\d.]+) ms)?\): "
    r"(?P<diags>\d+) diagnostics")

TYPED_LINES = [
    "lv = R.add(x, x)",
    "gv = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((n,), dtype=\"float32\"))",
    "with T.block(\"b\"):",
    "for i in range(4):",
    "y: R.Tensor((1, 2), \"float32\") = R.nn.relu(x)",
    "return gv",
    "A[i] = B[i] + T.float32(1)",
    "if x > 0:",
]
RANDOM_CHARS = "abcxyz_0123()[]{}:,.=+\"' \n\t#"


class Server:
    def __init__(self, cmd, root):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=root, start_new_session=True)
        self.messages = queue.Queue()
        self.logs = {}
        self.log_cv = threading.Condition()
        self.next_id = 0
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        f = self.proc.stdout
        while True:
            length = None
            while True:
                line = f.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = f.read(length)
            # Timed when the bytes have arrived, as lspbench does; this client's JSON parse (8 ms
            # for a 0.9 MB report in Python) is timed apart.
            arrived = time.perf_counter()
            msg = json.loads(body)
            self.messages.put((arrived, len(body), msg, time.perf_counter()))

    def _read_err(self):
        for raw in self.proc.stderr:
            m = LOG_LINE.search(raw.decode("utf-8", "replace"))
            if m:
                with self.log_cv:
                    self.logs[int(m.group("version"))] = m.groupdict()
                    self.log_cv.notify_all()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, pred, timeout):
        """The first message `pred` accepts, as (time it arrived, size, message, time it was
        parsed); answers server requests."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no answer within %.0f s" % timeout)
            item = self.messages.get(timeout=left)
            if item is None:
                raise RuntimeError("server exited")
            msg = item[2]
            if "method" in msg and "id" in msg:
                result = None
                if msg["method"] == "workspace/configuration":
                    result = [None] * len(msg["params"].get("items", []))
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                continue
            if pred(msg):
                return item

    def log_of(self, version, timeout=5.0):
        with self.log_cv:
            self.log_cv.wait_for(lambda: version in self.logs, timeout)
            return self.logs.get(version)

    def stop(self):
        try:
            rid = self.request("shutdown", None)
            self.wait(lambda m: m.get("id") == rid, 10)
            self.notify("exit", None)
            self.proc.wait(10)
        except Exception:
            self.proc.kill()


class Doc:
    """The client's copy of the text, with UTF-16 positions (ASCII is assumed for speed; other
    characters are counted as UTF-16 code units)."""

    def __init__(self, text):
        self.lines = text.split("\n")

    def pos_after(self, line, col, text):
        parts = text.split("\n")
        if len(parts) == 1:
            return line, col + len(text)
        return line + len(parts) - 1, len(parts[-1])

    def apply(self, line, col, end_line, end_col, text):
        head = self.lines[line][:col]
        tail = self.lines[end_line][end_col:]
        new = (head + text + tail).split("\n")
        self.lines[line:end_line + 1] = new


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


class Session:
    def __init__(self, args, text):
        self.args = args
        cmd = [args.tvmls, "serve", "--log-level", "debug"]
        root = os.path.dirname(os.path.abspath(args.file))
        self.server = Server(cmd, root)
        self.uri = "file://" + os.path.abspath(args.file)
        self.doc = Doc(text)
        self.version = 1
        self.samples = []
        s = self.server
        rid = s.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + root,
                                       "capabilities": {"textDocument": {"diagnostic": {}}},
                                       "initializationOptions": {"debounceMs": 0}})
        s.wait(lambda m: m.get("id") == rid, 30)
        s.notify("initialized", {})
        self.result_id = None
        self.items = []
        t0 = time.perf_counter()
        s.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "python", "version": 1, "text": text}})
        t, size = self.pull()
        self.open_ms = (t - t0) * 1000
        self.open_diags = len(self.items)

    def pull(self):
        """Pulls the diagnostics of the current version (LSP 3.17; the server pushes nothing to
        a client that pulls, and answers once the current version is analysed): (time, size)."""
        params = {"textDocument": {"uri": self.uri}}
        if self.result_id is not None:
            params["previousResultId"] = self.result_id
        rid = self.server.request("textDocument/diagnostic", params)
        t, size, msg, self.parsed_at = self.server.wait(lambda m: m.get("id") == rid, self.args.timeout)
        result = msg.get("result") or {}
        self.result_id = result.get("resultId", self.result_id)
        if result.get("kind") == "full":
            self.items = result.get("items", [])
        return t, size

    def edit(self, workload, line, col, end_line, end_col, text):
        """Replaces [line:col, end_line:end_col) (code units of ASCII text) by `text`; returns
        the removed text."""
        doc = self.doc
        if line == end_line:
            removed = doc.lines[line][col:end_col]
        else:
            removed = "\n".join([doc.lines[line][col:]] + doc.lines[line + 1:end_line] +
                                [doc.lines[end_line][:end_col]])
        u = lambda ln, c: utf16_len(doc.lines[ln][:c])
        rng = {"start": {"line": line, "character": u(line, col)},
               "end": {"line": end_line, "character": u(end_line, end_col)}}
        self.version += 1
        v = self.version
        t0 = time.perf_counter()
        self.server.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": v},
            "contentChanges": [{"range": rng, "text": text}]})
        t, size = self.pull()
        ms = (t - t0) * 1000
        doc.apply(line, col, end_line, end_col, text)
        log = self.server.log_of(v) or {}
        self.samples.append({
            "workload": workload, "line": line + 1, "col": col + 1, "text": text,
            "removed": removed, "ms": ms, "ms_parsed": (self.parsed_at - t0) * 1000, "bytes": size,
            "diagnostics": len(self.items),
            "analysis_ms": float(log.get("ms", "nan")), "reparse_ms": float(log.get("reparse", "nan")),
            "functions_relowered": int(log.get("fns", -1)), "functions": int(log.get("fns_all", -1)),
            "statements_scanned": int(log.get("stmts", -1)),
            "statements": int(log.get("stmts_all", -1)),
            "phases_ms": {k: float(log.get(k) or "nan") for k in ("scan", "mark", "analyse", "assemble", "json")},
            "line_text": doc.lines[line][:120]})
        return removed

    def insert(self, workload, line, col, text):
        self.edit(workload, line, col, line, col, text)

    def delete(self, workload, line, col, end_line, end_col):
        return self.edit(workload, line, col, end_line, end_col, "")


def body_lines(lines):
    """Indices of indented code lines (inside a function or class body), skipping comments and
    triple-quoted strings."""
    out, in_string = [], False
    for i, s in enumerate(lines):
        if s.count('"""') % 2 == 1 or s.count("'''") % 2 == 1:
            in_string = not in_string
            continue
        if in_string:
            continue
        stripped = s.lstrip(" ")
        if len(stripped) < len(s) and stripped and not stripped.startswith(("#", "@")) \
                and not s.rstrip().endswith(("(", ",", "[", "\\")):
            out.append(i)
    return out


def spread(candidates, n, rng):
    if not candidates:
        return []
    step = max(1, len(candidates) // n)
    return [candidates[min(len(candidates) - 1, k * step + rng.randrange(step))]
            for k in range(min(n, len(candidates)))]


def workload_lines(s, sites, rng):
    for line in spread(body_lines(s.doc.lines), sites, rng):
        cur = s.doc.lines[line]
        indent = " " * (len(cur) - len(cur.lstrip(" ")))
        typed = rng.choice(TYPED_LINES)
        s.insert("lines", line, len(cur), "\n")
        s.insert("lines", line + 1, 0, indent)
        col = len(indent)
        for ch in typed:
            s.insert("lines", line + 1, col, ch)
            col += 1
        for _ in typed:
            s.delete("lines", line + 1, col - 1, line + 1, col)
            col -= 1
        s.delete("lines", line, len(cur), line + 1, col)


def workload_random(s, sites, burst, rng):
    for line in spread(body_lines(s.doc.lines), sites, rng):
        undo = []
        for _ in range(burst):
            cur = s.doc.lines[line]
            col = rng.randrange(len(cur) + 1)
            if rng.random() < 0.3 and cur and col < len(cur):
                removed = s.delete("random", line, col, line, col + 1)
                undo.append(("insert", line, col, removed))
            else:
                ch = rng.choice(RANDOM_CHARS)
                s.insert("random", line, col, ch)
                if ch == "\n":
                    undo.append(("delete", line, col, line + 1, 0))
                    line += rng.randrange(2)  # keep typing on either line
                else:
                    undo.append(("delete", line, col, line, col + 1))
        for u in reversed(undo):
            if u[0] == "insert":
                s.insert("random", u[1], u[2], u[3])
            else:
                s.delete("random", u[1], u[2], u[3], u[4])


def workload_ident(s, sites, rng):
    ident = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9]*)")
    for line in spread(body_lines(s.doc.lines), sites, rng):
        m = ident.match(s.doc.lines[line])
        if not m:
            continue
        s.insert("ident", line, m.end(1), "x")
        s.delete("ident", line, m.end(1), line, m.end(1) + 1)


def workload_at(s, places, repeat):
    """`LINE:COL:TEXT` (1-based): TEXT typed there and removed again, `repeat` times."""
    for place in places:
        line, col, text = place.split(":", 2)
        line, col = int(line) - 1, int(col) - 1
        col = min(col, len(s.doc.lines[line]))
        for _ in range(repeat):
            s.insert("at", line, col, text)
            end_line, end_col = s.doc.pos_after(line, col, text)
            s.delete("at", line, col, end_line, end_col)


def pct(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[max(0, min(len(v) - 1, -(-p * len(v) // 100) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", required=True)
    ap.add_argument("--tvmls", default="build/tvmls")
    ap.add_argument("--workloads", default="lines,random,ident")
    ap.add_argument("--sites", type=int, default=10, help="places per workload")
    ap.add_argument("--burst", type=int, default=12, help="random edits per place")
    ap.add_argument("--at", action="append", default=[],
                    help="LINE:COL:TEXT for the `at` workload (1-based; repeatable)")
    ap.add_argument("--repeat", type=int, default=5, help="`at` workload: times per place")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--json-out")
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as fh:
        text = fh.read()
    rng = random.Random(args.seed)
    s = Session(args, text)
    print(f"open -> diagnostics {s.open_ms:.1f} ms ({s.open_diags} diagnostics)")
    try:
        for w in args.workloads.split(","):
            if w == "lines":
                workload_lines(s, args.sites, rng)
            elif w == "random":
                workload_random(s, args.sites, args.burst, rng)
            elif w == "at":
                workload_at(s, args.at, args.repeat)
            elif w == "ident":
                workload_ident(s, args.sites, rng)
            else:
                raise SystemExit(f"unknown workload {w}")
        final = "\n".join(s.doc.lines)
    finally:
        s.server.stop()
    if final != text:
        print("warning: the text after the undo steps differs from the file", file=sys.stderr)
    report = {"file": args.file, "open_ms": s.open_ms, "open_diagnostics": s.open_diags,
              "workloads": {}, "slowest": []}
    for w in args.workloads.split(","):
        ms = [x["ms"] for x in s.samples if x["workload"] == w]
        an = [x["analysis_ms"] for x in s.samples if x["workload"] == w]
        rp = [x["reparse_ms"] for x in s.samples if x["workload"] == w]
        mp = [x["ms_parsed"] for x in s.samples if x["workload"] == w]
        report["workloads"][w] = {"edits": len(ms), "p50": pct(ms, 50), "p95": pct(ms, 95),
                                  "max": max(ms) if ms else float("nan"),
                                  "parsed_p50": pct(mp, 50), "parsed_p95": pct(mp, 95),
                                  "parsed_max": max(mp) if mp else float("nan"),
                                  "analysis_p95": pct(an, 95), "reparse_p95": pct(rp, 95),
                                  "reparse_max": max(rp) if rp else float("nan")}
        r = report["workloads"][w]
        print(f"{w:7s} {len(ms):5d} edits  edit->diagnostics p50 {r['p50']:.2f}  p95 {r['p95']:.2f}  "
              f"max {r['max']:.2f} ms  (server: analysis p95 {r['analysis_p95']:.2f}, reparse p95 "
              f"{r['reparse_p95']:.2f}, max {r['reparse_max']:.2f} ms; parsed by this client: p50 "
              f"{r['parsed_p50']:.2f}  p95 {r['parsed_p95']:.2f}  max {r['parsed_max']:.2f} ms)")
    report["slowest"] = sorted(s.samples, key=lambda x: -x["ms"])[:args.top]
    print(f"slowest {args.top}:")
    for x in report["slowest"]:
        print(f"  {x['ms']:8.2f} ms  {x['workload']:6s} {x['line']}:{x['col']} {json.dumps(x['text'] or '-' + x['removed'])}"
              f"  reparse {x['reparse_ms']:.2f} ms, analysis {x['analysis_ms']:.2f} ms, re-lowered "
              f"{x['functions_relowered']}/{x['functions']} fns, scanned {x['statements_scanned']}/"
              f"{x['statements']} stmts, {x['diagnostics']} diags ({x['bytes']} B)\n"
              f"              phases: " + ", ".join(f"{k} {v:.2f}" for k, v in x['phases_ms'].items()) + " ms\n"
              f"              | {x['line_text']}")
    if args.json_out:
        report["samples"] = s.samples
        with open(args.json_out, "w") as fh:
            json.dump(report, fh, indent=1)


if __name__ == "__main__":
    main()
