#!/usr/bin/env python3
"""Issue 14's table: tvmls on real TVM code and on the generated file, against mlir-lsp-server and
pyright, over stdio with ../shared/tools/lspbench.py, in one run. Python 3 stdlib only.

Per size (default 2k, 20k, 100k lines) it builds
  real       gen_real.py from --tvm-tests (apache/tvm tests/python; never committed),
  generated  gen_tvmscript.py (the examples repeated),
  mlir       ../shared/tools/gen_mlir.py,
and runs lspbench (one fresh server per run, the servers' runs interleaved) for
  tvmls real, tvmls generated   `tvmls serve`, initializationOptions {"debounceMs": 0}
  mlir-lsp-server               on the MLIR file (edit: a space at a line end)
  pyright                       on the real file (--pyright: its pyright-langserver), with a
                                --pyright-timeout per response; at 100k lines it is very slow
Each run: open -> first diagnostics (for tvmls on a large file, its first statements'; see
analysis/preview.h) and -> the whole file's; --edits edits (`x` after the first identifier of an
indented line, inserted then removed, each waiting for its diagnostics; for tvmls, which pushes
only changed diagnostics, by pull with typing.py's `ident` workload); --hovers hovers;
--completions completions after '.'. Percentiles are lspbench's pooled nearest-rank ones.

  bench/lsp/issue14.py --tvmls build/tvmls --pyright /tmp/pyright/node_modules/.bin/pyright-langserver
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TOOLS = REPO.parent / "shared" / "tools"
PEERS = ("mlir-lsp-server-19", "/usr/lib/llvm-19/bin/mlir-lsp-server")


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def build_inputs(out, size, tvm_tests):
    files = {}
    real = out / f"real_{size}.py"
    subprocess.run([sys.executable, str(HERE / "gen_real.py"), "--tests", tvm_tests, "--lines",
                    str(size), "-o", str(real)], check=True)
    files["real"] = real
    gen = out / f"generated_{size}.py"
    subprocess.run([sys.executable, str(HERE / "gen_tvmscript.py"), "--lines", str(size), "-o",
                    str(gen)], check=True)
    files["generated"] = gen
    mlir = out / f"gen_{size}.mlir"
    subprocess.run([sys.executable, str(TOOLS / "gen_mlir.py"), "--lines", str(size), "-o",
                    str(mlir)], check=True)
    files["mlir"] = mlir
    return files


def lspbench(out, label, file, cmd, args, extra, timeout):
    report = out / "reports" / f"{label}.json"
    report.parent.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, str(TOOLS / "lspbench.py"), "--file", str(file), "--isolate",
            "--edits", str(args.edits), "--hovers", str(args.hovers), "--symbols", "0",
            "--completions", str(args.completions), "--timeout", str(timeout),
            "--open-timeout", str(max(timeout, 60)), "--max-seconds", str(args.max_seconds),
            "--json-out", str(report), "--quiet"] + extra + ["--"] + cmd
    log(f"  {label}")
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with open(report) as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def typing_edits(out, label, file, tvmls, edits, timeout):
    """tvmls's edit -> diagnostics by pull: typing.py's `ident` workload (lspbench's edit, `x`
    after the first identifier of an indented line, inserted then removed) on `edits` // 2
    places. lspbench waits for a publishDiagnostics after every edit, and tvmls pushes only when
    the diagnostics change, so lspbench's own edits would wait out its timeout. Returns the
    pooled p50/p95/max of the edits, or None."""
    report = out / "reports" / f"{label}_typing.json"
    argv = [sys.executable, str(HERE / "typing.py"), "--file", str(file), "--tvmls", str(tvmls),
            "--workloads", "ident", "--sites", str(max(1, edits // 2)), "--timeout", str(timeout),
            "--json-out", str(report)]
    log(f"  {label} (edits by pull, typing.py)")
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with open(report) as fh:
            samples = [x["ms"] for x in json.load(fh)["samples"] if x["workload"] == "ident"]
    except (OSError, ValueError, KeyError):
        return None
    if not samples:
        return None
    v = sorted(samples)
    rank = lambda p: v[max(0, min(len(v) - 1, -(-p * len(v) // 100) - 1))]
    return {"p50": rank(50), "p95": rank(95), "max": v[-1], "count": len(v)}


def cell(v, digits=2):
    if v is None:
        return "–"
    return f"{v:,.{digits}f}" if v < 100 else f"{v:,.0f}"


def row(name, size, rep, pulled=None):
    if rep is None or not rep.get("runs"):
        return f"| {name} | {size // 1000}k | no report | | | | | | |"
    s = rep["summary"]
    e = s.get("edit_to_diag_ms") or {}
    ep = pulled or e.get("pooled") or {}
    h = (s.get("hover_ms") or {}).get("pooled") or {}
    c = (s.get("completion_ms") or {}).get("pooled") or {}
    errors = sum(len(r.get("errors", [])) for r in rep["runs"])
    timeouts = e.get("timeouts") or 0
    note = f" ({errors} errors, {timeouts} timeouts)" if errors or timeouts else ""
    # lspbench's summary has no median of the last open publication: taken from its runs.
    lasts = sorted(r["open_to_last_diag_ms"] for r in rep["runs"] if r.get("open_to_last_diag_ms") is not None)
    last = lasts[(len(lasts) - 1) // 2] if lasts else None
    return (f"| {name} | {size // 1000}k | {cell(s.get('open_to_diag_ms'), 1)} | {cell(last, 1)} | "
            f"{cell(ep.get('p50'))} / {cell(ep.get('p95'))} / {cell(ep.get('max'))} | "
            f"{cell(h.get('p50'))} / {cell(h.get('p95'))} | {cell(c.get('p50'))} / {cell(c.get('p95'))} | "
            f"{s.get('open_diag_count', '–')}{note} | {cell(s.get('peak_rss_mb'), 1)} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tvmls", default=str(REPO / "build" / "tvmls"))
    ap.add_argument("--tvm-tests", default="/tmp/tvm-head/tests/python")
    ap.add_argument("--pyright", help="pyright-langserver executable (skipped when absent)")
    ap.add_argument("--pyright-timeout", type=float, default=30)
    ap.add_argument("--pyright-max-lines", type=int, default=100000)
    ap.add_argument("--sizes", default="2000,20000,100000")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--edits", type=int, default=80)
    ap.add_argument("--hovers", type=int, default=60)
    ap.add_argument("--completions", type=int, default=20)
    ap.add_argument("--max-seconds", type=int, default=900)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "tvmls-issue14"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tvmls = out / "tvmls"
    shutil.copy2(args.tvmls, tvmls)  # a rebuild during the run changes nothing
    peer = next((p for p in PEERS if shutil.which(p)), None)
    lines = ["| server | lines | open → first diagnostics ms | open → whole file's diagnostics ms | "
             "edit → diagnostics p50 / p95 / max ms | hover p50 / p95 ms | completion p50 / p95 ms | "
             "diagnostics at open | peak RSS MB |",
             "|---|---|---|---|---|---|---|---|---|"]
    # tvmls publishes a large file's first statements' diagnostics first (analysis/preview.h),
    # then the whole file's: lspbench waits until none came for 5 s and reports both.
    tvmls_opts = ["--init-options", json.dumps({"debounceMs": 0}), "--settle-ms", "5000"]
    for size in [int(x) for x in args.sizes.split(",")]:
        log(f"{size} lines")
        files = build_inputs(out, size, args.tvm_tests)
        for run in range(args.runs):
            # tvmls's edits are measured by pull (typing_edits): lspbench runs it without edits.
            no_edits = ["--edits", "0"]
            plan = [("tvmls real", files["real"], [str(tvmls), "serve"], tvmls_opts + no_edits, 60),
                    ("tvmls generated", files["generated"], [str(tvmls), "serve"], tvmls_opts + no_edits, 60)]
            if peer:
                plan.append(("mlir-lsp-server 19", files["mlir"], [peer],
                             ["--edit-mode", "eol", "--edit-text", " "], 60))
            if args.pyright and size <= args.pyright_max_lines:
                plan.append(("pyright 1.1.414 real", files["real"], [args.pyright, "--stdio"], [],
                             args.pyright_timeout))
            for name, file, cmd, extra, timeout in plan:
                label = f"{name.replace(' ', '_')}_{size}_{run}"
                rep = lspbench(out, label, file, cmd, args, extra, timeout)
                pulled = typing_edits(out, label, file, tvmls, args.edits, timeout) if name.startswith("tvmls") else None
                lines.append(row(name, size, rep, pulled))
    table = "\n".join(lines)
    (out / "table.md").write_text(table + "\n")
    print(table)


if __name__ == "__main__":
    main()
