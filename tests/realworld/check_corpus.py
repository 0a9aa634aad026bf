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
import concurrent.futures
import json
import os
import subprocess
import sys


EXPECTED_FAILURE_NOTE = "this test expects TVM to reject this code"


def expected_failure(diagnostic):
    """Whether tvmls decided that the test around the diagnostic expects TVM to reject the code
    (analysis/check/expected_failure.h: pytest.raises, xfail, `assert not well_formed(...)`,
    check_well_formed=False): it then carries a related note saying so."""
    return any(r["message"].startswith(EXPECTED_FAILURE_NOTE) for r in diagnostic.get("related", []))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tvmls", default="build/tvmls")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--show", default="error", help="severities to list: error,warning")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="files checked at once")
    ap.add_argument("--max-list", type=int, default=400)
    ap.add_argument("--hide-expected", action="store_true",
                    help="do not list diagnostics in code the test expects to fail")
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
    def run(path):
        try:
            return subprocess.run([args.tvmls, "check", "--format", "json", "--", path],
                                  capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return None

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(run, files))
    for path, p in zip(files, results):
        if p is None:
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
            line = d["range"]["start"]["line"]
            expected = expected_failure(d)
            counts[(d["severity"], d["code"], "expected-failure" if expected else "accepted")] += 1
            if d["severity"] in args.show.split(",") and not (expected and args.hide_expected):
                listed.append("%s:%d:%d: %s: %s [%s]%s" % (
                    path, line + 1, d["range"]["start"]["character"] + 1,
                    d["severity"], d["message"], d["code"], " (test expects failure)" if expected else ""))
    print("files: %d, with diagnostics: %d, failures: %d" % (len(files), with_diags, len(failures)))
    print("  by severity, code, and whether the test expects TVM to reject that code (tvmls's own")
    print("  decision: the related note %r):" % EXPECTED_FAILURE_NOTE)
    for (sev, code, ctx), n in sorted(counts.items()):
        print("  %-8s %-28s %-17s %d" % (sev, code, ctx, n))
    for line in listed[: args.max_list]:
        print(line)
    if len(listed) > args.max_list:
        print("... %d more" % (len(listed) - args.max_list))
    for path, why in failures:
        print("FAILED %s: %s" % (path, why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
