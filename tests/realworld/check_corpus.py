#!/usr/bin/env python3
"""Runs `tvmls check --format json` over every .py file under the given directories and
summarises the diagnostics: counts per code and severity, and every error with its place.

Used for the false-positive proof on apache/tvm's tests/python (see README.md):
    tests/realworld/check_corpus.py --tvmls build/tvmls /path/to/tvm/tests/python

A file whose check crashes (exit status other than 0/1) or takes longer than --timeout seconds
is listed as a failure. Exit status: 0 when no file failed, 1 otherwise.
"""
import argparse
import collections
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tvmls", default="build/tvmls")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--show", default="error", help="severities to list: error,warning")
    ap.add_argument("--max-list", type=int, default=400)
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    files = []
    for d in args.dirs:
        if os.path.isfile(d):
            files.append(d)
            continue
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.endswith(".py")]
    files.sort()
    counts = collections.Counter()
    listed = []
    failures = []
    with_diags = 0
    for path in files:
        try:
            p = subprocess.run([args.tvmls, "check", "--format", "json", path],
                               capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            failures.append((path, "timeout"))
            continue
        if p.returncode not in (0, 1):
            failures.append((path, "exit %d: %s" % (p.returncode, p.stderr.strip()[:200])))
            continue
        try:
            diags = json.loads(p.stdout or "[]")
        except json.JSONDecodeError as e:
            failures.append((path, "bad json: %s" % e))
            continue
        if diags:
            with_diags += 1
        for d in diags:
            counts[(d["severity"], d["code"])] += 1
            if d["severity"] in args.show.split(","):
                listed.append("%s:%d:%d: %s: %s [%s]" % (
                    path, d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1,
                    d["severity"], d["message"], d["code"]))
    print("files: %d, with diagnostics: %d, failures: %d" % (len(files), with_diags, len(failures)))
    for (sev, code), n in sorted(counts.items()):
        print("  %-8s %-28s %d" % (sev, code, n))
    for line in listed[: args.max_list]:
        print(line)
    if len(listed) > args.max_list:
        print("... %d more" % (len(listed) - args.max_list))
    for path, why in failures:
        print("FAILED %s: %s" % (path, why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
