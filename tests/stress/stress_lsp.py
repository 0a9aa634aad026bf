#!/usr/bin/env python3
"""Memory stress test of the real `tvmls serve`: thousands of edits at typing speed on a large
file, with hovers, completions, inlay hints and semantic tokens between them.

What it asserts:
  * the server's RSS (VmRSS in /proc/<pid>/status, sampled after every edit and request) never
    exceeds the RSS after the open by more than --max-growth (default 20%);
  * at checkpoints, the diagnostics last published (the server pushes only changes; a request
    answered from the current version comes after its publish) equal what
    `tvmls check --format json --hints` reports on the same text (range, severity, code,
    message, related locations);
  * the server answers everything, never crashes, and exits cleanly at shutdown.

The input file is built at run time, never stored:
  * --tvm DIR (or /tmp/tvm-head/tests/python when it exists and --generated is not given): the
    `@I.ir_module`, `@R.function` and `@T.prim_func` units of DIR's relax, tirx, s_tir,
    tvmscript and codegen tests, dedented and concatenated under one import header until the
    file has --lines lines (a real TVM file);
  * otherwise (or with --generated): the examples repeated, as bench/lsp/gen_tvmscript.py does.

Edits are typing sessions (seeded): a place inside a function body is picked, a short word is
typed there one character per didChange, then erased one backspace per didChange. Between
keystrokes the client asks what an editor asks: hover and completion at the cursor, inlay hints
and semantic tokens for the visible lines, the full semantic tokens now and then.

  tests/stress/stress_lsp.py --tvmls build/tvmls                      # full: 2,000 edits
  tests/stress/stress_lsp.py --tvmls build/tvmls --generated --lines 50000 --seconds 60

Exit status 0 when every assertion held, 1 otherwise, 2 on usage errors. --report FILE writes
the RSS curve, request and publication latencies, and the server's worst analysis time as JSON.
Python 3 standard library only.
"""
import argparse
import ast
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent.parent
TVM_DEFAULT = Path("/tmp/tvm-head/tests/python")
TVM_SUBDIRS = ("relax", "tirx", "s_tir", "tvmscript", "codegen")
HEADER = ("from tvm.script import ir as I\n"
          "from tvm.script import relax as R\n"
          "from tvm.script import tir as T\n\n")
UNIT_DECORATOR = re.compile(r"^([ \t]*)@(I\.ir_module|R\.function|T\.prim_func)\b")
ANALYSED = re.compile(r"analysed (\S+) version (\d+) in ([0-9.]+) ms")
TRIMMED = re.compile(r"returned freed memory in ([0-9.]+) ms")


# ------------------------------------------------------------------------------ input files
def parses(text):
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def tvm_units(path):
    """The decorated units of one Python file, dedented: the decorator lines and the block
    under them (every following line indented deeper than the decorator, or blank), when that
    is valid Python."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return
    i = 0
    while i < len(lines):
        m = UNIT_DECORATOR.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group(1))
        j = i
        while j < len(lines) and lines[j].strip().startswith("@"):
            j += 1  # more decorators
        if j >= len(lines) or not re.match(r"\s*(class|def)\b", lines[j]):
            i = j
            continue
        j += 1
        while j < len(lines) and (not lines[j].strip() or
                                  len(lines[j]) - len(lines[j].lstrip()) > indent):
            j += 1
        block = [line[indent:] if line.strip() else "" for line in lines[i:j]]
        while block and not block[-1]:
            block.pop()
        unit = "\n".join(block) + "\n"
        if parses(unit):  # not a unit quoted inside a string, cut at its closing quotes
            yield unit
        i = j


def tvm_file(tvm_dir, lines):
    """A real TVM file of at least `lines` lines (fewer when the units run out)."""
    parts, count = [HEADER], HEADER.count("\n")
    for sub in TVM_SUBDIRS:
        for path in sorted((tvm_dir / sub).rglob("*.py")):
            for unit in tvm_units(path):
                parts.append(unit + "\n\n")
                count += unit.count("\n") + 2
                if count >= lines:
                    return "".join(parts)
    return "".join(parts)


def generated_file(lines):
    sys.path.insert(0, str(SOURCE / "bench" / "lsp"))
    import gen_tvmscript  # noqa: E402 (the benchmark's construction, shared)
    text, _ = gen_tvmscript.make_corpus(lines, SOURCE / "examples")
    return text


# ------------------------------------------------------------------------------ LSP client
class ServerGone(Exception):
    pass


class Client:
    """Content-Length framed JSON-RPC over the server's stdio. A reader thread keeps the newest
    publishDiagnostics per uri and the responses; another keeps the server's log."""

    def __init__(self, cmd, log_path=None):
        self.log = open(log_path, "w", encoding="utf-8") if log_path else None
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.cv = threading.Condition()
        self.responses = {}
        self.published = {}       # uri -> (version, diagnostics, arrival time)
        self.analysis_ms = []     # (version, ms) from the server's debug log
        self.trim_ms = []         # how long each malloc_trim took (the same log)
        self.stderr_tail = []
        self.eof = False
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _send(self, obj):
        body = json.dumps(obj, separators=(",", ":")).encode()
        try:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()
        except (OSError, ValueError) as e:
            raise ServerGone(f"cannot write to the server: {e}") from None

    def _read_stderr(self):
        for raw in iter(self.proc.stderr.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip()
            if self.log:
                self.log.write(line + "\n")
            m = ANALYSED.search(line)
            t = TRIMMED.search(line)
            if m:
                with self.cv:
                    self.analysis_ms.append((int(m.group(2)), float(m.group(3))))
            elif t:
                with self.cv:
                    self.trim_ms.append(float(t.group(1)))
            else:
                self.stderr_tail = (self.stderr_tail + [line])[-40:]
        if self.log:
            self.log.close()  # the server closed its stderr: the log is whole

    def _read(self):
        f = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = f.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    key, _, value = line.partition(b":")
                    if key.strip().lower() == b"content-length":
                        length = int(value)
                if length is None:
                    continue  # not a header block (a wrapper's banner): skip it
                body = f.read(length)
                if len(body) < length:
                    return
                self._dispatch(json.loads(body))
        finally:
            with self.cv:
                self.eof = True
                self.cv.notify_all()

    def _dispatch(self, msg):
        method = msg.get("method")
        if method is not None and "id" in msg:  # a request from the server
            result = [None] * len(msg.get("params", {}).get("items", [])) \
                if method == "workspace/configuration" else None
            self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        elif method == "textDocument/publishDiagnostics":
            p = msg["params"]
            with self.cv:
                self.published[p["uri"]] = (p.get("version"), p["diagnostics"], time.monotonic())
                self.cv.notify_all()
        elif "id" in msg:
            with self.cv:
                self.responses[msg["id"]] = msg
                self.cv.notify_all()

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=60):
        """(ms, result) of one request; raises on an error reply, a timeout or a dead server."""
        self.next_id += 1
        rid = self.next_id
        t0 = time.monotonic()
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        with self.cv:
            while rid not in self.responses:
                if self.eof:
                    raise ServerGone(f"the server closed its output during {method}")
                if not self.cv.wait(timeout - (time.monotonic() - t0)) and \
                        time.monotonic() - t0 >= timeout:
                    raise ServerGone(f"{method}: no answer within {timeout} s")
            msg = self.responses.pop(rid)
        if "error" in msg:
            raise ServerGone(f"{method}: error reply {msg['error']}")
        return (time.monotonic() - t0) * 1000, msg.get("result")

    def wait_published(self, uri, version, timeout=120):
        """The diagnostics published for `version` of `uri` and when they arrived."""
        deadline = time.monotonic() + timeout
        with self.cv:
            while True:
                got = self.published.get(uri)
                if got and got[0] is not None and got[0] >= version:
                    if got[0] != version:
                        raise ServerGone(f"published version {got[0]}, expected {version}")
                    return got[1], got[2]
                if self.eof:
                    raise ServerGone("the server closed its output while analysing")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ServerGone(f"no diagnostics for version {version} within {timeout} s")
                self.cv.wait(left)


def rss_kb(pid):
    """(VmRSS, VmHWM) of a process in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


# ------------------------------------------------------------------------------ the document
def utf16_column(line, column):
    return len(line[:column].encode("utf-16-le")) // 2


class Text:
    """The client's copy of the document, as lines of str (code points)."""

    def __init__(self, text):
        self.lines = text.split("\n")

    def full(self):
        return "\n".join(self.lines)

    def position(self, line, column):
        return {"line": line, "character": utf16_column(self.lines[line], column)}

    def insert(self, line, column, s):
        """didChange content change inserting `s` (no newline) at (line, column)."""
        p = self.position(line, column)
        text = self.lines[line]
        self.lines[line] = text[:column] + s + text[column:]
        return {"range": {"start": p, "end": p}, "text": s}

    def delete(self, line, column, count):
        """didChange content change deleting `count` characters of one line at (line, column)."""
        start, end = self.position(line, column), self.position(line, column + count)
        text = self.lines[line]
        self.lines[line] = text[:column] + text[column + count:]
        return {"range": {"start": start, "end": end}, "text": ""}


BODY_LINE = re.compile(r"^( {4,})\S")
WORDS = ["x", "lv0", "R.add(", "T.int32", "gv = ", "(", ")", "+ 1", "], ", "R.", "T.", ":",
         "# note", "\"", "shape", "=", "dtype=", "R.Tensor((n, 4), \"float32\")", "with "]


def body_lines(text):
    return [i for i, line in enumerate(text.lines) if BODY_LINE.match(line)]


def typing_sessions(rng, text, sites):
    """Endless typing sessions: (line, column, word) at an indented line."""
    while True:
        line = rng.choice(sites)
        words = [m.start() for m in re.finditer(r"\b\w", text.lines[line])]
        column = rng.choice(words + [len(text.lines[line])])
        yield line, column, rng.choice(WORDS)


# ------------------------------------------------------------------------------ checks
def key_of(d, severity_number):
    r = d["range"]
    related = tuple(sorted(
        (x["location"]["range"]["start"]["line"], x["location"]["range"]["start"]["character"],
         x["message"]) for x in d.get("relatedInformation", []))) if severity_number else \
        tuple(sorted((x["range"]["start"]["line"], x["range"]["start"]["character"],
                      x["message"]) for x in d.get("related", [])))
    return (r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"],
            d["severity"] if severity_number else SEVERITY[d["severity"]],
            d.get("code"), d["message"], related)


SEVERITY = {"error": 1, "warning": 2, "information": 3, "info": 3, "hint": 4}


def check_diagnostics(tvmls, path):
    out = subprocess.run([tvmls, "check", "--format", "json", "--hints", "--", str(path)],
                         capture_output=True, text=True, timeout=600)
    if out.returncode not in (0, 1):
        raise ServerGone(f"tvmls check exited with {out.returncode}: {out.stderr[-2000:]}")
    return json.loads(out.stdout or "[]")


def compare(published, checked):
    """Differences between the server's diagnostics and `tvmls check`'s, as text lines."""
    a = sorted(key_of(d, True) for d in published)
    b = sorted(key_of(d, False) for d in checked)
    if a == b:
        return []
    only_a = [x for x in a if x not in b][:5]
    only_b = [x for x in b if x not in a][:5]
    return [f"server {len(a)} diagnostics, check {len(b)}",
            *[f"  only the server: {x}" for x in only_a],
            *[f"  only check: {x}" for x in only_b]]


# ------------------------------------------------------------------------------ the run
def run(args, text_str, work):
    path = work / "stress.py"
    path.write_text(text_str, encoding="utf-8")
    uri = path.as_uri()
    cmd = [args.tvmls, "serve", "--stdio", "--log-level", "debug"]
    client = Client(cmd, args.server_log)
    pid = client.proc.pid
    rng = random.Random(args.seed)
    text = Text(text_str)
    failures = []
    report = {"lines": len(text.lines), "bytes": len(text_str.encode()), "edits": 0,
              "rss_mb": [], "rss_trace_kb": [], "settled_mb": [], "requests": {}, "publish_ms": [], "checkpoints": []}
    t_start = time.monotonic()
    try:
        client.request("initialize", {
            "processId": os.getpid(), "rootUri": work.as_uri(),
            "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}},
                             "general": {"positionEncodings": ["utf-16"]}},
            # Semantic tokens are off in .py files unless asked for.
            "initializationOptions": {"semanticTokensForPython": True}})
        client.notify("initialized", {})
        version = 1
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": text_str}})
        t0 = time.monotonic()
        client.wait_published(uri, version, timeout=600)
        report["open_ms"] = (time.monotonic() - t0) * 1000
        # A hover waits for the analysed version, so the open's temporaries are gone by now.
        client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                              "position": {"line": 0, "character": 0}})
        time.sleep(0.2)
        open_rss, open_hwm = rss_kb(pid)
        report["open_rss_mb"], report["open_hwm_mb"] = open_rss / 1024, open_hwm / 1024
        limit = open_rss * (1 + args.max_growth)
        worst = (open_rss, 0)
        sites = body_lines(text)
        sessions = typing_sessions(rng, text, sites)
        checkpoints = sorted({max(1, args.edits * k // args.checkpoints)
                              for k in range(1, args.checkpoints + 1)})
        sample_at = {0, 100, 250, 500, 1000, 1500, 2000, args.edits}
        report["rss_mb"].append((0, open_rss / 1024))
        edits = 0
        sent_at = {}
        deadline = t_start + args.seconds if args.seconds else None

        def ask(method, params):
            ms, result = client.request(method, params)
            report["requests"].setdefault(method, []).append(ms)
            return result

        def note_rss():
            nonlocal worst
            rss, _ = rss_kb(pid)
            if rss > worst[0]:
                worst = (rss, edits)
            return rss

        def checkpoint():
            # The server pushes diagnostics only when they change, so the version typed last may
            # publish nothing. A request is answered from the analysis of the current version,
            # after that analysis's publish (if any): the last published list is then current.
            client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 0, "character": 0}})
            with client.cv:
                got = client.published.get(uri)
            if not got:
                raise ServerGone(f"nothing published by version {version}")
            diagnostics = got[1]
            path.write_text(text.full(), encoding="utf-8")
            problems = compare(diagnostics, check_diagnostics(args.tvmls, path))
            report["checkpoints"].append({"edit": edits, "version": version,
                                          "diagnostics": len(diagnostics),
                                          "equal": not problems})
            for p in problems:
                failures.append(f"edit {edits}: {p}")

        def settle():
            """A pause in typing: the RSS once the server has had time to give memory back."""
            time.sleep(args.settle_seconds)
            rss, _ = rss_kb(pid)
            report["settled_mb"].append((edits, rss / 1024))

        while edits < args.edits:
            if deadline and time.monotonic() > deadline - args.reserve:
                break
            line, column, word = next(sessions)
            keys = [("type", ch) for ch in word] + [("erase", None)] * len(word)
            typed = 0
            for kind, ch in keys:
                if edits >= args.edits:
                    break  # the word stays typed: the checkpoint compares that text
                version += 1
                if kind == "type":
                    change = text.insert(line, column + typed, ch)
                    typed += 1
                else:
                    change = text.delete(line, column + typed - 1, 1)
                    typed -= 1
                sent_at[version] = time.monotonic()
                client.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
                edits += 1
                cursor = text.position(line, column + typed)
                top = max(0, line - 40)
                window = {"start": {"line": top, "character": 0},
                          "end": {"line": min(len(text.lines) - 1, top + 80), "character": 0}}
                doc = {"uri": uri}
                step = edits % 4
                if step == 0:
                    ask("textDocument/hover", {"textDocument": doc, "position": cursor})
                elif step == 1:
                    ask("textDocument/completion", {"textDocument": doc, "position": cursor})
                elif step == 2:
                    ask("textDocument/inlayHint", {"textDocument": doc, "range": window})
                else:
                    ask("textDocument/semanticTokens/range", {"textDocument": doc,
                                                              "range": window})
                if edits % args.full_tokens_every == 0:
                    ask("textDocument/semanticTokens/full", {"textDocument": doc})
                rss = note_rss()
                report["rss_trace_kb"].append(rss)
                if edits in sample_at:
                    report["rss_mb"].append((edits, rss / 1024))
                with client.cv:
                    got = client.published.get(uri)
                if got and got[0] in sent_at:
                    report["publish_ms"].append((got[2] - sent_at[got[0]]) * 1000)
                    sent_at = {v: t for v, t in sent_at.items() if v > got[0]}
                if edits in checkpoints:
                    checkpoint()
                if edits % args.settle_every == 0:
                    settle()
                time.sleep(args.interval)
            report["edits"] = edits
        if not report["checkpoints"] or report["checkpoints"][-1]["edit"] != edits:
            checkpoint()
        if not report["settled_mb"] or report["settled_mb"][-1][0] != edits:
            settle()
        time.sleep(0.2)
        rss = note_rss()
        report["rss_mb"].append((edits, rss / 1024))
        report["edits"] = edits
        report["worst_rss_mb"], report["worst_rss_at_edit"] = worst[0] / 1024, worst[1]
        report["final_hwm_mb"] = rss_kb(pid)[1] / 1024
        settled = max(report["settled_mb"], key=lambda x: x[1])
        if args.bound == "every-sample" and worst[0] > limit:
            failures.append(f"RSS {worst[0] / 1024:.1f} MB at edit {worst[1]} exceeds the RSS "
                            f"after the open ({open_rss / 1024:.1f} MB) by more than "
                            f"{args.max_growth:.0%}")
        if settled[1] * 1024 > limit:
            failures.append(f"RSS after a pause {settled[1]:.1f} MB at edit {settled[0]} exceeds "
                            f"the RSS after the open ({open_rss / 1024:.1f} MB) by more than "
                            f"{args.max_growth:.0%}")
        if args.hold:
            print(f"holding the server (pid {pid}) for {args.hold} s", flush=True)
            time.sleep(args.hold)
        client.request("shutdown", None)
        client.notify("exit", None)
        code = client.proc.wait(timeout=30)
        if code != 0:
            failures.append(f"the server exited with status {code}")
    except ServerGone as e:
        failures.append(str(e))
        failures.extend("  server: " + line for line in client.stderr_tail[-15:])
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
            client.proc.wait()
    report["seconds"] = time.monotonic() - t_start
    with client.cv:
        analysis = [ms for v, ms in client.analysis_ms if v > 1]
    report["worst_analysis_ms"] = max(analysis, default=None)
    with client.cv:
        report["analysis_ms"] = list(client.analysis_ms)
        report["trim_ms"] = list(client.trim_ms)
    report["analyses"] = len(analysis)
    return report, failures


def summary(report):
    def pct(samples, p):
        if not samples:
            return float("nan")
        s = sorted(samples)
        return s[min(len(s) - 1, int(p / 100 * len(s)))]
    lines = [f"input: {report['lines']} lines, {report['bytes'] / 1e6:.1f} MB; "
             f"{report['edits']} edits in {report['seconds']:.0f} s"]
    if "open_rss_mb" in report:
        lines.append(f"open: {report.get('open_ms', 0):.0f} ms, RSS {report['open_rss_mb']:.1f} MB"
                     f" (peak {report['open_hwm_mb']:.1f} MB)")
        curve = ", ".join(f"{e}: {mb:.1f}" for e, mb in report["rss_mb"])
        lines.append(f"RSS MB by edit: {curve}")
    if report.get("settled_mb"):
        curve = ", ".join(f"{e}: {mb:.1f}" for e, mb in report["settled_mb"])
        lines.append(f"RSS MB after a pause, by edit: {curve}")
    if "worst_rss_mb" in report:
        lines.append(f"highest RSS {report['worst_rss_mb']:.1f} MB at edit "
                     f"{report['worst_rss_at_edit']}; peak (VmHWM) {report['final_hwm_mb']:.1f} MB")
    if report.get("worst_analysis_ms") is not None:
        lines.append(f"analyses after edits: {report['analyses']}, worst "
                     f"{report['worst_analysis_ms']:.1f} ms (server log)")
    if report.get("trim_ms"):
        t = report["trim_ms"]
        lines.append(f"memory returned to the system {len(t)} times: p50 {pct(t, 50):.1f} ms, "
                     f"max {max(t):.1f} ms")
    if report["publish_ms"]:
        p = report["publish_ms"]
        lines.append(f"keystroke -> diagnostics: p50 {pct(p, 50):.0f} ms, max {max(p):.0f} ms "
                     f"({len(p)} publications)")
    for method, samples in sorted(report["requests"].items()):
        lines.append(f"{method}: {len(samples)}, p50 {pct(samples, 50):.2f} ms, "
                     f"max {max(samples):.1f} ms")
    for c in report["checkpoints"]:
        lines.append(f"checkpoint at edit {c['edit']}: {c['diagnostics']} diagnostics, "
                     f"{'equal to' if c['equal'] else 'DIFFERENT from'} tvmls check")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tvmls", default=str(SOURCE / "build" / "tvmls"))
    ap.add_argument("--tvm", help="apache/tvm's tests/python (default: /tmp/tvm-head/... "
                                  "when present)")
    ap.add_argument("--generated", action="store_true",
                    help="the examples repeated, even when TVM's tests are present")
    ap.add_argument("--input", help="use this file as it is")
    ap.add_argument("--lines", type=int, default=100000)
    ap.add_argument("--edits", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=0,
                    help="stop typing when this budget is near (0: no budget)")
    ap.add_argument("--reserve", type=float, default=15,
                    help="seconds of the budget kept for the last checkpoint and shutdown")
    ap.add_argument("--interval", type=float, default=0.03, help="seconds between keystrokes")
    ap.add_argument("--checkpoints", type=int, default=4)
    ap.add_argument("--full-tokens-every", type=int, default=100)
    ap.add_argument("--max-growth", type=float, default=0.20)
    ap.add_argument("--bound", choices=("every-sample", "settled"), default="every-sample",
                    help="which RSS samples --max-growth bounds: every one, or only those taken "
                         "after a pause in typing (--settle-every)")
    ap.add_argument("--settle-every", type=int, default=250,
                    help="pause typing every this many edits and sample the RSS after the pause")
    ap.add_argument("--settle-seconds", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--hold", type=float, default=0,
                    help="seconds to keep the server alive before shutdown (to inspect it)")
    ap.add_argument("--report", help="write the measurements here as JSON")
    ap.add_argument("--server-log", help="write the server's whole log (debug) here")
    args = ap.parse_args()
    if not os.access(args.tvmls, os.X_OK):
        print(f"stress_lsp.py: {args.tvmls} is not executable", file=sys.stderr)
        return 2
    if args.input:
        text, source = Path(args.input).read_text(encoding="utf-8"), args.input
    elif not args.generated and (args.tvm or TVM_DEFAULT.is_dir()):
        tvm = Path(args.tvm or TVM_DEFAULT)
        if not tvm.is_dir():
            print(f"stress_lsp.py: {tvm} is not a directory", file=sys.stderr)
            return 2
        text, source = tvm_file(tvm, args.lines), f"TVM units from {tvm}"
    else:
        text, source = generated_file(args.lines), "generated from examples/"
    print(f"input: {source}", flush=True)
    with tempfile.TemporaryDirectory(prefix="tvmls-stress-") as tmp:
        report, failures = run(args, text, Path(tmp))
    report["source"] = source
    print(summary(report), flush=True)
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1))
    for f in failures:
        print("FAIL: " + f, flush=True)
    print("stress: " + ("FAILED" if failures else "passed"), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
