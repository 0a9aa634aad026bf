#!/usr/bin/env python3
"""LSP benchmark: `tvmls serve` against mlir-lsp-server 19, in the same run, over stdio with a
real client (../shared/tools/lspbench.py). Python 3 stdlib only. Builds nothing.

For each size (default 2k, 20k and 100k lines) it generates
  - a TVMScript file (gen_tvmscript.py: the examples repeated, as the analysis benchmark; it
    carries the seed bugs, about one diagnostic per 50 lines),
  - the same modules without the seed-bug examples (no diagnostics: a clean file),
  - an MLIR file of the same line count (../shared/tools/gen_mlir.py: func/arith/scf/memref),
and runs lspbench on these servers (one fresh server process per run; the runs of the servers
are interleaved, so background load falls on all of them alike):
  tvmls debounce 0         `tvmls serve`, initializationOptions {"debounceMs": 0}
  tvmls default debounce   `tvmls serve`, the adaptive debounce (50-500 ms)
  tvmls debounce 0, clean  as the first, on the clean file
  mlir-lsp-server 19       on the MLIR file
Workload per run (lspbench): open -> first diagnostics; --edits didChange notifications
(insert, then remove, `x` after the first identifier of a line for tvmls; a space at the end of
a line for MLIR, which keeps the file valid), each waiting for the diagnostics of its version;
--hovers hovers (lspbench picks identifiers, preferring members such as R.add); --symbols
documentSymbol requests; the server's peak RSS (VmHWM).

lspbench's hover positions often fall on names tvmls has nothing to say about (T.grid,
R.Tensor), which return null at once. So a second measurement (--probe-hovers N, one run per
server and size) hovers N identifiers spread over the file and times the answers that have
content.

Output: a Markdown table on stdout (and OUT/table.md), every lspbench report and a summary in
OUT/ (default: $TMPDIR/tvmls-lspbench). Percentiles are nearest-rank over all runs' samples
(pooled); open -> diagnostics, documentSymbol and peak RSS are medians over runs.

  bench/lsp/run.py --wait-load 0.5          # full run (about 3.5 minutes on 2 cores)
  bench/lsp/run.py --sizes 2000 --runs 1    # smoke test (about 6 s)
  bench/lsp/run.py --tvmls build-rel/tvmls --wait-load 0.5
"""
import argparse
import datetime
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TOOLS = REPO.parent / "shared" / "tools"
PEER_CANDIDATES = ("mlir-lsp-server-19", "/usr/lib/llvm-19/bin/mlir-lsp-server")


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def loadavg():
    with open("/proc/loadavg") as fh:
        return [float(x) for x in fh.read().split()[:3]]


def wait_for_load(limit, max_wait, poll=30):
    waited = 0
    while True:
        load = loadavg()
        if load[0] < limit:
            log(f"load average {load}: below {limit}, starting")
            return load, waited
        if waited >= max_wait:
            log(f"load average {load}: still not below {limit} after {waited} s; starting anyway")
            return load, waited
        log(f"load average {load}: waiting for the 1-minute load to fall below {limit} "
            f"({waited} of {max_wait} s)")
        time.sleep(poll)
        waited += poll


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def find_peer(explicit):
    if explicit:
        return explicit if (shutil.which(explicit) or Path(explicit).is_file()) else None
    for c in PEER_CANDIDATES:
        p = shutil.which(c) or (c if Path(c).is_file() else None)
        if p:
            return p
    return None


def command_output(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"({e})"


def peer_version(text):
    """'Debian LLVM version 19.1.7' out of `mlir-lsp-server --version`."""
    for line in (text or "").splitlines():
        if "version" in line.lower():
            return "mlir-lsp-server, " + line.strip()
    return (text or "unknown version").strip()


def load_lspbench(path):
    spec = importlib.util.spec_from_file_location("lspbench", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def size_label(n):
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


# ------------------------------------------------------------------------------- hover probe
def hover_probe(lb, cmd, path, language_id, init_options, count, timeout=120.0):
    """Hover `count` identifiers spread over the indented lines of `path` (one fresh server):
    the times of all answers and of those with content."""
    path = Path(path).resolve()
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    cands = []
    for no, line in lb.scan_lines(lines):
        for m in lb.IDENT_RE.finditer(line):
            if lb.ident_ok(line, m):
                cands.append((no, (m.start() + m.end()) // 2))
    targets = lb.spread(cands, count)
    client = lb.Client(cmd, cwd=str(path.parent), settings=None)
    out = {"all": [], "nonempty": [], "errors": 0}
    try:
        init = {"processId": os.getpid(), "rootUri": path.parent.as_uri(),
                "capabilities": {"general": {"positionEncodings": ["utf-16"]},
                                 "textDocument": {"hover": {"contentFormat": ["markdown",
                                                                              "plaintext"]}}}}
        if init_options is not None:
            init["initializationOptions"] = init_options
        client.request("initialize", init, timeout)
        client.notify("initialized", {})
        mark = client.diag_mark()
        t0 = lb.now()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language_id, "version": 1, "text": text}})
        client.wait_diag(uri, mark, t0, timeout)
        for no, col in targets:
            try:
                t, r = client.request("textDocument/hover", {
                    "textDocument": {"uri": uri},
                    "position": {"line": no, "character": lb.lsp_col(lines[no], col, "utf-16")}},
                    timeout)
            except lb.LspError:
                out["errors"] += 1
                continue
            out["all"].append(t)
            if r and r.get("contents"):
                out["nonempty"].append(t)
    finally:
        client.close()
    return out


# ------------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tvmls", default=str(REPO / "build" / "tvmls"),
                    help="the tvmls binary (default: build/tvmls); copied to OUT first, so a "
                    "rebuild during the run does not change what is measured")
    ap.add_argument("--peer", help="mlir-lsp-server binary (default: mlir-lsp-server-19, "
                    "/usr/lib/llvm-19/bin/mlir-lsp-server)")
    ap.add_argument("--no-peer", action="store_true", help="skip mlir-lsp-server")
    ap.add_argument("--sizes", default="2000,20000,100000",
                    help="comma-separated line counts (default 2000,20000,100000)")
    ap.add_argument("--runs", type=int, default=3, help="fresh server runs per server and size "
                    "(default 3)")
    ap.add_argument("--edits", type=int, default=80, help="didChange per run (default 80)")
    ap.add_argument("--hovers", type=int, default=60, help="hovers per run (default 60)")
    ap.add_argument("--symbols", type=int, default=5, help="documentSymbol per run (default 5)")
    ap.add_argument("--probe-hovers", type=int, default=300,
                    help="hovers of the separate probe, per server and size (default 300; 0: off)")
    ap.add_argument("--no-default-debounce", action="store_true",
                    help="skip the tvmls run with the default (adaptive) debounce")
    ap.add_argument("--no-clean", action="store_true", help="skip the tvmls run on the clean file")
    ap.add_argument("--wait-load", type=float, default=0,
                    help="before starting, wait (polling every 30 s) until the 1-minute load "
                    "average is below this (default 0: do not wait)")
    ap.add_argument("--wait-max", type=int, default=1200,
                    help="longest wait for --wait-load, seconds (default 1200)")
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "tvmls-lspbench"),
                    help="directory for the generated files and reports "
                    "(default: $TMPDIR/tvmls-lspbench)")
    ap.add_argument("--lspbench", default=str(TOOLS / "lspbench.py"))
    ap.add_argument("--gen-mlir", default=str(TOOLS / "gen_mlir.py"))
    args = ap.parse_args()

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    out = Path(args.out)
    (out / "reports").mkdir(parents=True, exist_ok=True)
    for tool in (args.lspbench, args.gen_mlir):
        if not Path(tool).is_file():
            sys.exit(f"run.py: {tool} not found (give --lspbench / --gen-mlir)")
    if not Path(args.tvmls).is_file():
        sys.exit(f"run.py: no tvmls binary at {args.tvmls}; build it first "
                 "(cmake --build build --target tvmls) or give --tvmls")
    lb = load_lspbench(args.lspbench)

    tvmls = out / "tvmls"
    shutil.copy2(args.tvmls, tvmls)
    peer = None if args.no_peer else find_peer(args.peer)
    if not args.no_peer and peer is None:
        log("run.py: mlir-lsp-server 19 not found (Debian: apt-get install mlir-19-tools); "
            "measuring tvmls only")

    meta = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host": {"cpus": os.cpu_count(), "uname": " ".join(os.uname())},
        "tvmls": {"path": str(Path(args.tvmls).resolve()), "sha256": sha256(tvmls)[:16],
                  "version": command_output([str(tvmls), "--version"]),
                  "built": datetime.datetime.fromtimestamp(
                      Path(args.tvmls).stat().st_mtime).astimezone().isoformat(timespec="seconds"),
                  "repo_head": command_output(["git", "-C", str(REPO), "rev-parse", "--short",
                                               "HEAD"])},
        "peer": {"path": peer, "version": command_output([peer, "--version"]) if peer else None},
        "options": {k: getattr(args, k) for k in ("sizes", "runs", "edits", "hovers", "symbols",
                                                   "probe_hovers")},
    }
    if args.wait_load > 0:
        meta["load_before_wait"] = loadavg()
        meta["load_at_start"], meta["waited_s"] = wait_for_load(args.wait_load, args.wait_max)
    else:
        meta["load_at_start"] = loadavg()
    log(f"tvmls: {meta['tvmls']['version']} ({meta['tvmls']['sha256']}, built "
        f"{meta['tvmls']['built']}); peer: {peer or 'none'}; load {meta['load_at_start']}")

    # ---- inputs
    gen = HERE / "gen_tvmscript.py"
    files = {}
    for n in sizes:
        files[("tvm", n)] = out / f"tvmscript_{size_label(n)}.py"
        files[("clean", n)] = out / f"tvmscript_clean_{size_label(n)}.py"
        files[("mlir", n)] = out / f"mlir_{size_label(n)}.mlir"
        subprocess.run([sys.executable, str(gen), "--lines", str(n), "-o",
                        str(files[("tvm", n)])], check=True)
        if not args.no_clean:
            subprocess.run([sys.executable, str(gen), "--lines", str(n), "--clean", "-o",
                            str(files[("clean", n)])], check=True)
        if peer:
            subprocess.run([sys.executable, args.gen_mlir, "--lines", str(n), "-o",
                            str(files[("mlir", n)])], check=True, stdout=subprocess.DEVNULL)

    # ---- servers: (key, label, command, file kind, lspbench options)
    tv = [str(tvmls), "serve"]
    zero = ["--init-options", json.dumps({"debounceMs": 0})]
    ident = ["--edit-mode", "ident", "--edit-text", "x"]
    servers = [("tvmls-0", "tvmls, debounce 0", tv, "tvm", zero + ident)]
    if not args.no_default_debounce:
        servers.append(("tvmls-default", "tvmls, default debounce", tv, "tvm", ident))
    if not args.no_clean:
        servers.append(("tvmls-0-clean", "tvmls, debounce 0, clean file", tv, "clean",
                        zero + ident))
    if peer:
        servers.append(("mlir", "mlir-lsp-server 19", [peer], "mlir",
                        ["--edit-mode", "eol", "--edit-text", " "]))

    reports = {}
    t_start = time.time()
    for n in sizes:
        for run in range(args.runs):
            for key, label, cmd, kind, extra in servers:
                path = out / "reports" / f"{key}_{size_label(n)}_run{run}.json"
                argv = [sys.executable, args.lspbench, "--file", str(files[(kind, n)]),
                        "--runs", "1", "--edits", str(args.edits), "--hovers", str(args.hovers),
                        "--symbols", str(args.symbols), "--completions", "0",
                        "--max-seconds", "900", "--quiet", "--json-out", str(path),
                        "--label", f"{label} {size_label(n)} run {run}"] + extra + ["--"] + cmd
                subprocess.run(argv, stdout=subprocess.DEVNULL)
                try:
                    rep = json.loads(path.read_text())
                except (OSError, ValueError) as e:
                    rep = {"runs": [{"failed": True, "errors": [f"no report: {e}"]}]}
                r = rep["runs"][0] if rep.get("runs") else {"failed": True, "errors": ["no run"]}
                reports.setdefault((key, n), []).append(r)
                e, h = r.get("edits") or {}, r.get("hover") or {}
                log(f"{label:30s} {size_label(n):>4s} run {run}: open->diag "
                    f"{r.get('open_to_diag_ms')} ms, edit->diag p50 {e.get('p50')} p95 "
                    f"{e.get('p95')} ms, hover p95 {h.get('p95')} ms, RSS "
                    f"{r.get('peak_rss_mb')} MB" + ("  FAILED: " + "; ".join(
                        x.splitlines()[0] for x in r.get("errors", [])[:3])
                        if r.get("failed") or r.get("errors") else ""))
        if args.probe_hovers > 0:
            for key, label, cmd, kind, extra in servers:
                if key not in ("tvmls-0", "mlir"):
                    continue
                lang = "mlir" if kind == "mlir" else "python"
                init = {"debounceMs": 0} if key == "tvmls-0" else None
                try:
                    probe = hover_probe(lb, cmd, files[(kind, n)], lang, init, args.probe_hovers)
                except lb.LspError as e:
                    probe = {"all": [], "nonempty": [], "errors": 1, "error": str(e)}
                reports[(key + "-probe", n)] = probe
                ne = probe["nonempty"]
                log(f"{label:30s} {size_label(n):>4s} hover probe: {len(ne)} of "
                    f"{len(probe['all'])} non-empty, p50 {lb.pct(ne, 50)} p95 {lb.pct(ne, 95)} ms")

    # ---- summary
    rows = []
    for n in sizes:
        for key, label, cmd, kind, extra in servers:
            runs = reports.get((key, n), [])
            ok = [r for r in runs if not r.get("failed")]
            edits = [x for r in runs for x in (r.get("edits") or {}).get("ms", []) if x is not None]
            hovers = [x for r in runs for x in (r.get("hover") or {}).get("ms", []) if x is not None]
            row = {
                "server": label, "key": key, "lines": n,
                "file_lines": sum(1 for _ in open(files[(kind, n)], encoding="utf-8")),
                "file_bytes": files[(kind, n)].stat().st_size,
                "runs": len(runs), "failed_runs": len(runs) - len(ok),
                "errors": [x for r in runs for x in r.get("errors", [])][:10],
                "open_diag_count": lb.median([r.get("open_diag_count") for r in ok]),
                "open_to_diag_ms": lb.median([r.get("open_to_diag_ms") for r in ok]),
                "edit_to_diag_ms": lb.stats(edits),
                "edit_timeouts": sum((r.get("edits") or {}).get("timeouts", 0) for r in runs),
                "hover_ms": lb.stats(hovers),
                "hover_nonempty": sum((r.get("hover") or {}).get("nonempty", 0) for r in runs),
                "document_symbol_ms": lb.median([(r.get("document_symbol") or {}).get("p50")
                                                 for r in ok]),
                "peak_rss_mb": lb.median([r.get("peak_rss_mb") for r in ok]),
                "peak_rss_mb_each": [r.get("peak_rss_mb") for r in ok],
                "loadavg": [r.get("loadavg_start") for r in runs],
            }
            probe = reports.get((key + "-probe", n))
            if probe:
                row["probe_hover_ms"] = lb.stats(probe["nonempty"])
                row["probe_hover_all_ms"] = lb.stats(probe["all"])
                row["probe_hovers"] = len(probe["all"])
            rows.append(row)
    meta["load_at_end"] = loadavg()
    meta["wall_s"] = round(time.time() - t_start, 1)
    (out / "summary.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")

    def f(v, digits=None):
        if v is None:
            return "–"
        if digits is None:
            digits = 2 if v < 10 else (1 if v < 100 else 0)
        return f"{v:,.{digits}f}"

    md = [f"Measured {meta['date']}: {meta['host']['cpus']} cores, load average "
          f"{' '.join(map(str, meta['load_at_start']))} at the start and "
          f"{' '.join(map(str, meta['load_at_end']))} at the end; {meta['wall_s']:.0f} s. "
          f"{meta['tvmls']['version']} (build/tvmls {meta['tvmls']['sha256']}, built "
          f"{meta['tvmls']['built']}, HEAD {meta['tvmls']['repo_head']}); "
          f"peer: {peer_version(meta['peer']['version']) if peer else 'none'}."
          f" Runs per row: {args.runs}; per run {args.edits} edits and {args.hovers} hovers.",
          "",
          "| server | lines | diagnostics at open | open → diagnostics ms | edit → diagnostics "
          "p50 / p95 ms | hover p50 / p95 ms (answers with content) | hover with content p50 / p95 "
          "ms (answers with content, of probe) | documentSymbol ms | peak RSS MB |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        e, h = r["edit_to_diag_ms"], r["hover_ms"]
        p = r.get("probe_hover_ms")
        probe = (f"{f(p['p50'])} / {f(p['p95'])} ({p['n']} of {r['probe_hovers']})"
                 if p and p["n"] else ("none of " + str(r["probe_hovers"]) if p else ""))
        bad = f" ({r['failed_runs']} failed)" if r["failed_runs"] else ""
        bad += f" ({r['edit_timeouts']} edit timeouts)" if r["edit_timeouts"] else ""
        md.append(
            f"| {r['server']}{bad} | {size_label(r['lines'])} | "
            f"{f(r['open_diag_count'], 0)} | {f(r['open_to_diag_ms'])} | "
            f"{f(e['p50'])} / {f(e['p95'])} | {f(h['p50'])} / {f(h['p95'])} "
            f"({r['hover_nonempty']} of {h['n']}) | {probe} | {f(r['document_symbol_ms'])} | "
            f"{f(r['peak_rss_mb'], 0)} |")
    text = "\n".join(md) + "\n"
    (out / "table.md").write_text(text)
    print(text)
    log(f"reports in {out}/reports, summary in {out}/summary.json")
    return 1 if any(r["failed_runs"] or r["edit_timeouts"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
