#!/usr/bin/env python3
"""Small seeds for the TVMScript fuzz targets (tests/fuzz/README.md), cut from whole files.

    tests/fuzz/split_seeds.py OUT_DIR MAX_BYTES FILE_OR_DIR...

Each .py / .tvmscript file under the given paths is cut into units of at most MAX_BYTES: the
file's imports, then one definition (a decorated function, or one member of a decorated class
with the class's header lines), and each pair of neighbouring members that fits (so that `cls.f`
calls and module-level names still resolve). A fuzz input is analysed whole on every execution:
seeds of a few hundred bytes keep that short, where the files themselves (up to 8 KiB) would be
cut at -max_len anyway, always after their first definition. Writes OUT_DIR/<file>.<n>; prints
how many units it wrote.
"""
import os
import sys


def indent_of(line):
    return len(line) - len(line.lstrip(" \t"))


def blocks(lines, start, end, indent):
    """The definitions at `indent` in lines[start:end]: (first, end) with decorators and comments
    just above included, the body running to the next line at that indentation or less."""
    out = []
    i = start
    while i < end:
        line = lines[i]
        stripped = line.strip()
        if not stripped or indent_of(line) != indent or not (
            stripped.startswith("@") or stripped.startswith("def ") or stripped.startswith("class ")
        ):
            i += 1
            continue
        first = i
        while i < end and lines[i].strip().startswith("@"):
            i += 1
        if i >= end:
            break
        i += 1  # the def / class line
        while i < end and (not lines[i].strip() or indent_of(lines[i]) > indent):
            i += 1
        out.append((first, i))
    return out


def units(text):
    lines = text.splitlines(keepends=True)
    imports = "".join(l for l in lines if l.startswith(("from ", "import ")))
    for first, end in blocks(lines, 0, len(lines), 0):
        head = first
        while head < end and lines[head].strip().startswith("@"):
            head += 1
        if lines[head].lstrip().startswith("class "):
            header = "".join(lines[first : head + 1])
            # The members sit at the indentation of the class body's first non-blank line.
            body = [l for l in lines[head + 1 : end] if l.strip()]
            members = blocks(lines, head + 1, end, indent_of(body[0])) if body else []
            for k, (a, b) in enumerate(members):
                yield imports + "\n" + header + "".join(lines[a:b])
                if k + 1 < len(members):
                    yield imports + "\n" + header + "".join(lines[a : members[k + 1][1]])
        else:
            yield imports + "\n" + "".join(lines[first:end])


def main():
    out_dir, limit, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names]
        else:
            files.append(p)
    written = 0
    for f in sorted(files):
        if not f.endswith((".py", ".tvmscript")):
            continue
        with open(f, encoding="utf-8", errors="surrogateescape") as fh:
            text = fh.read()
        seen = set()
        for n, unit in enumerate(units(text)):
            data = unit.encode("utf-8", errors="surrogateescape")
            if len(data) > limit or data in seen:
                continue
            seen.add(data)
            name = os.path.relpath(f).replace(os.sep, "_") + "." + str(n)
            with open(os.path.join(out_dir, name), "wb") as fh:
                fh.write(data)
            written += 1
    print(written)


if __name__ == "__main__":
    main()
