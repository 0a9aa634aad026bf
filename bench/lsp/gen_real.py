#!/usr/bin/env python3
"""Build a large TVMScript file from real TVM test code (issue 14's input). Python 3 stdlib only.

Takes every `@I.ir_module` / `@R.function` / `@T.prim_func` unit (the decorator, any decorators
stacked under it, and the class or def it decorates, to the end of its indented body) from the
.py files under TESTS/{relax,tirx*,s_tir,tvmscript,codegen} (sorted by path; nested units are
part of their enclosing unit), dedents it to column 0 and concatenates the units, separated by
two blank lines, under one import header until the text has --lines lines (cycling through the
units again if needed). Names are kept as written, so there are many top-level `Module`s.

The input is built at run time from an apache/tvm checkout; it is never committed.

  gen_real.py --tests /tmp/tvm-head/tests/python --lines 100000 -o real_100k.py
"""
import argparse
import re
import sys
from pathlib import Path

DIRS = ("relax", "tirx", "tirx-analysis", "tirx-base", "tirx-transform", "s_tir", "tvmscript",
        "codegen")
HEADER = ("from tvm.script import ir as I\n"
          "from tvm.script import relax as R\n"
          "from tvm.script import tirx as T\n\n\n")
UNIT_START = re.compile(r"^(\s*)@(I\.ir_module|R\.function|T\.prim_func)\b")


def indent_of(line):
    return len(line) - len(line.lstrip(" "))


def units_of(text):
    """The decorated units of one file, each dedented to column 0 (a list of line lists)."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        m = UNIT_START.match(lines[i])
        if not m or "\t" in m.group(1):
            i += 1
            continue
        base = len(m.group(1))
        j = i + 1
        # Further decorators, then the class/def line (possibly continued in brackets).
        while j < len(lines) and lines[j].strip().startswith("@") and indent_of(lines[j]) == base:
            j += 1
        if j >= len(lines) or not re.match(r"\s*(class|def|async def)\b", lines[j]):
            i = j
            continue
        j += 1
        while j < len(lines):
            s = lines[j]
            if s.strip() and indent_of(s) <= base and not s.lstrip().startswith((")", "]")):
                break
            j += 1
        body = lines[i:j]
        while body and not body[-1].strip():
            body.pop()
        if any(s.strip() and indent_of(s) < base for s in body):
            i = j
            continue  # a string literal or continuation shallower than the unit: skip it
        out.append([s[base:] if s.strip() else "" for s in body])
        i = j
    return out


def collect(tests):
    units = []
    for d in DIRS:
        root = Path(tests) / d
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.py")):
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            units.extend(units_of(text))
    return units


def build(tests, lines):
    units = collect(tests)
    if not units:
        raise SystemExit(f"no TVMScript units found under {tests}")
    parts, count, k = [HEADER], HEADER.count("\n"), 0
    while count < lines:
        unit = units[k % len(units)]
        parts.append("\n".join(unit) + "\n\n\n")
        count += len(unit) + 2
        k += 1
    return "".join(parts), k, len(units)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tests", default="/tmp/tvm-head/tests/python",
                    help="apache/tvm tests/python directory")
    ap.add_argument("--lines", type=int, default=100000)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    text, used, total = build(args.tests, args.lines)
    Path(args.output).write_text(text, encoding="utf-8")
    sys.stderr.write(f"{args.output}: {text.count(chr(10))} lines, {len(text)} bytes, "
                     f"{used} units ({total} distinct)\n")


if __name__ == "__main__":
    main()
