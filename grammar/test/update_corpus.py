#!/usr/bin/env python3
"""Rewrites the expected trees of grammar/test/corpus/*.txt with what build/tvmls parses now.

Usage: grammar/test/update_corpus.py [--check] [FILE...]
Review the diff before committing: the corpus pins behaviour, it does not define it.
With --check, only reports which tests differ (exit 1 if any).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TVMLS = os.path.join(ROOT, "build", "tvmls")
HEADER = re.compile(r"^={3,}\s*$")
DIVIDER = re.compile(r"^-{3,}\s*$")


def sexp_of(source):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
        path = f.name
    try:
        out = subprocess.run([TVMLS, "parse", "--sexp", path], capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    return out.splitlines()[0] if out else ""


def pretty(sexp):
    """One node per line, two spaces per level; a field name stays with its node."""
    lines, depth, field = [], 0, ""
    for tok in re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', sexp):
        if tok == "(":
            lines.append("  " * depth + field + "(")
            field = ""
            depth += 1
        elif tok == ")":
            lines[-1] += ")"
            depth -= 1
        elif tok.endswith(":"):
            field = tok + " "
        else:
            lines[-1] += tok if lines[-1].endswith("(") else " " + tok
    return "\n".join(lines)


def normalize(text):
    text = re.sub(r"\s+", " ", text).strip()
    return text.replace("( ", "(").replace(" )", ")")


def process(path, check):
    lines = open(path).read().split("\n")
    out, i, differs = [], 0, []
    while i < len(lines):
        if HEADER.match(lines[i]) and i + 2 < len(lines) and HEADER.match(lines[i + 2]):
            name = lines[i + 1]
            out += lines[i:i + 3]
            j = i + 3
            body = []
            while j < len(lines) and not DIVIDER.match(lines[j]):
                body.append(lines[j])
                j += 1
            out += body
            out.append(lines[j])
            j += 1
            old = []
            while j < len(lines) and not (HEADER.match(lines[j]) and j + 2 < len(lines) and HEADER.match(lines[j + 2])):
                old.append(lines[j])
                j += 1
            source = "\n".join(body).strip("\n") + "\n"
            new = sexp_of(source)
            if normalize(" ".join(old)) != normalize(new):
                differs.append(name)
            out += ["", pretty(new), ""]
            i = j
        else:
            out.append(lines[i])
            i += 1
    text = "\n".join(out).rstrip("\n") + "\n"
    if not check:
        open(path, "w").write(text)
    return differs


def main():
    check = "--check" in sys.argv
    files = [a for a in sys.argv[1:] if a != "--check"]
    if not files:
        d = os.path.join(ROOT, "grammar", "test", "corpus")
        files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".txt"))
    any_diff = False
    for f in files:
        for name in process(f, check):
            any_diff = True
            print(f"{os.path.relpath(f, ROOT)}: {name}")
    sys.exit(1 if (check and any_diff) else 0)


if __name__ == "__main__":
    main()
