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


EXPECTED_FAILURE_MARKERS = ("pytest.raises", "check_well_formed=False", "xfail", "assert not ",
                            "well_formed(", "expect_failure", "TVMError", "DiagnosticError")


def expected_failure(lines, line_no):
    """Whether the code at line_no (0-based) sits in a context where the test expects TVM to reject
    it: inside `with pytest.raises(...)`, in a module/function with check_well_formed=False, in a
    test marked xfail, or in a test that asserts the module is NOT well formed."""
    def indent(s):
        return len(s) - len(s.lstrip()) if s.strip() else None
    level = indent(lines[line_no]) or 0
    for i in range(line_no - 1, -1, -1):
        ind = indent(lines[i])
        if ind is None or ind >= level:
            continue
        level = ind
        text = lines[i]
        if any(m in text for m in EXPECTED_FAILURE_MARKERS):
            return True
        # Decorators of an enclosing class or def (`@I.ir_module(check_well_formed=False)`).
        j = i - 1
        while j >= 0 and lines[j].lstrip().startswith("@"):
            if any(m in lines[j] for m in EXPECTED_FAILURE_MARKERS):
                return True
            j -= 1
        if text.lstrip().startswith("def test_"):
            # decorators of the test, and its body after the module
            j = i - 1
            while j >= 0 and lines[j].lstrip().startswith("@"):
                if "xfail" in lines[j] or "raises" in lines[j]:
                    return True
                j -= 1
            k = i + 1
            while k < len(lines) and (indent(lines[k]) is None or indent(lines[k]) > ind):
                if any(m in lines[k] for m in ("pytest.raises", "assert not", "well_formed(")) and "not" in lines[k]:
                    return True
                if "pytest.raises" in lines[k]:
                    return True
                k += 1
            return False
        if ind == 0:
            return False
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tvmls", default="build/tvmls")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--show", default="error", help="severities to list: error,warning")
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
        try:
            lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
        except OSError:
            lines = []
        for d in diags:
            line = d["range"]["start"]["line"]
            expected = bool(lines) and line < len(lines) and expected_failure(lines, line)
            counts[(d["severity"], d["code"], "expected-failure" if expected else "accepted")] += 1
            if d["severity"] in args.show.split(",") and not (expected and args.hide_expected):
                listed.append("%s:%d:%d: %s: %s [%s]%s" % (
                    path, line + 1, d["range"]["start"]["character"] + 1,
                    d["severity"], d["message"], d["code"], " (test expects failure)" if expected else ""))
    print("files: %d, with diagnostics: %d, failures: %d" % (len(files), with_diags, len(failures)))
    print("  by severity, code, and whether the test expects TVM to reject that code:")
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
