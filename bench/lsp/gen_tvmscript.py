#!/usr/bin/env python3
"""Generate a large TVMScript file of at least --lines lines for the LSP benchmark.

The text is built like the analysis benchmark's input (bench/corpus.cc MakeCorpus): the files
in examples/ (sorted by name) concatenated until the text has enough lines, each copy's
top-level `class X` / `def f` names given a `_c<k>` suffix. So the file is many IRModules of
Relax functions with dataflow blocks, call_tir into PrimFuncs and memory ops, in both eras.
It carries the seed bugs of examples/seed_*.py: 9 diagnostics per cycle of the six examples,
about one per 50 lines (2,001 at 100k lines).

Unlike MakeCorpus, the uses of a renamed name (`cls = Module` inside the module) are renamed
too. MakeCorpus leaves them, so its files also have one `undefined-name` per `cls = Module`
(1,335 more at 100k lines), and R.call_tir through that `cls` is not checked (seed bug (c) is
not reported). --as-analysis-bench reproduces MakeCorpus byte for byte.

With --clean the seed-bug examples (examples/seed_*.py) are left out: the same kind of modules
with no diagnostics at all.

Deterministic. Python 3 stdlib only.

  gen_tvmscript.py --lines 20000 -o big_20k.py
  gen_tvmscript.py --lines 20000 --clean -o clean_20k.py
"""
import argparse
import re
import sys
from pathlib import Path

TOP_LEVEL_NAME = re.compile(r"^(class|def) ([A-Za-z_][A-Za-z_0-9]*)", re.M)


def make_corpus(lines, examples_dir, clean=False, as_analysis_bench=False):
    """(text, copies): the examples repeated to `lines` lines, top-level names renamed per copy
    (their uses too unless as_analysis_bench), optionally without the seed-bug examples."""
    paths = sorted(p for p in Path(examples_dir).iterdir() if p.suffix == ".py")
    if clean:
        paths = [p for p in paths if not p.name.startswith("seed_")]
    if not paths:
        raise SystemExit(f"no examples found under {examples_dir}")
    texts = [p.read_bytes().decode("utf-8") for p in paths]
    parts, count, copy = [], 0, 0
    while count < lines:
        suffix = f"_c{copy}"
        text = texts[copy % len(texts)]
        if as_analysis_bench:
            renamed = TOP_LEVEL_NAME.sub(lambda m: f"{m.group(1)} {m.group(2)}{suffix}", text)
        else:
            names = sorted({m.group(2) for m in TOP_LEVEL_NAME.finditer(text)})
            renamed = text
            if names:
                word = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
                renamed = word.sub(lambda m: m.group(1) + suffix, text)
        if not renamed.endswith("\n"):
            renamed += "\n"
        renamed += "\n"
        parts.append(renamed)
        count += renamed.count("\n")
        copy += 1
    return "".join(parts), copy


def main():
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, required=True, help="minimum line count")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--clean", action="store_true",
                    help="leave out examples/seed_*.py (no diagnostics)")
    ap.add_argument("--as-analysis-bench", action="store_true",
                    help="exactly bench/corpus.cc MakeCorpus (uses of renamed names not renamed)")
    ap.add_argument("--examples", default=str(here.parent.parent / "examples"),
                    help="directory of the example files (default: the repository's examples/)")
    args = ap.parse_args()
    text, copies = make_corpus(args.lines, args.examples, args.clean,
                                 args.as_analysis_bench)
    with open(args.output, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    print(f"{args.output}: {text.count(chr(10))} lines, {len(text.encode())} bytes, "
          f"{copies} copies of the examples", file=sys.stderr)


if __name__ == "__main__":
    main()
