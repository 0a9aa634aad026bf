#!/usr/bin/env python3
"""CPU time of `tvmls check` over real TVM test files, for several binaries in one run.

    bench/check_cpu.py [--tvm DIR] [--reps N] [--batch N] [--jobs N] BINARY [BINARY ...]

Collects the *.py files under DIR (default /tmp/tvm-head/tests/python: apache/tvm's tests,
fetched, never committed), checks them in batches of --batch files per process (50), and runs
every binary once per repetition, interleaved, so that all see the same machine load. Prints,
per binary, the user+system CPU time of its children (min and median over --reps, 5), and the
difference of each minimum to the first binary's. CPU time, not wall time: the machine is shared;
still, compare runs made on an idle machine only. The output of `tvmls check` is discarded (its
exit status is 1 when it reports errors, as it does on TVM's tests).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys


def collect(root):
    files = []
    for d, _, names in os.walk(root):
        files += [os.path.join(d, n) for n in names if n.endswith(".py")]
    return sorted(files)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(binary, batches, jobs):
    before = children_cpu()
    for batch in batches:
        cmd = [binary, "check"] + (["-j", str(jobs)] if jobs else []) + batch
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return children_cpu() - before


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--tvm", default="/tmp/tvm-head/tests/python")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=0, help="tvmls check -j (default: its own, one file per core)")
    args = ap.parse_args()
    files = collect(args.tvm)
    if not files:
        sys.exit(f"no .py files under {args.tvm}")
    for b in args.binaries:
        if not os.access(b, os.X_OK):
            sys.exit(f"not an executable: {b}")
    batches = [files[i:i + args.batch] for i in range(0, len(files), args.batch)]
    times = {b: [] for b in args.binaries}
    for rep in range(args.reps):
        for b in args.binaries:
            times[b].append(run_once(b, batches, args.jobs))
        print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
    load = os.getloadavg()[0]
    print(f"{len(files)} files under {args.tvm}, {args.reps} repetitions, 1-minute load average at the end {load:.2f}")
    first = min(times[args.binaries[0]])
    print("| binary | CPU min s | CPU median s | min vs first |")
    print("|---|---|---|---|")
    for b in args.binaries:
        t = times[b]
        print(f"| {b} | {min(t):.2f} | {statistics.median(t):.2f} | {100 * (min(t) - first) / first:+.1f}% |")


if __name__ == "__main__":
    main()
