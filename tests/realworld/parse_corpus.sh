#!/usr/bin/env bash
# Parses every .py file under a directory with `tvmls parse` and reports the counts: files,
# TVMScript units (functions and modules decorated with R./T./I. and their long spellings), and
# every syntax error. Exit 0 when no file has a syntax error, 1 otherwise, 2 on usage errors.
#
#   tests/realworld/parse_corpus.sh DIR [TVMLS]
#
# Used for the real-world bar: apache/tvm's tests/python must parse with zero ERROR/MISSING
# nodes. TVM's files are read in place and never copied into this repository.
set -euo pipefail
dir=${1:?usage: parse_corpus.sh DIR [path/to/tvmls]}
tvmls=${2:-"$(dirname "$0")/../../build/tvmls"}
[ -d "$dir" ] || { echo "parse_corpus.sh: $dir is not a directory" >&2; exit 2; }
[ -x "$tvmls" ] || { echo "parse_corpus.sh: $tvmls is not executable (build first)" >&2; exit 2; }

list=$(mktemp)
errors=$(mktemp)
trap 'rm -f "$list" "$errors"' EXIT
find "$dir" -name '*.py' -type f | sort > "$list"
files=$(wc -l < "$list")
units=$(xargs -d '\n' cat < "$list" |
        grep -cE '^\s*@(R|T|I|relax|tir|tirx|tvm\.script\.(relax|tir|tirx|ir))\.(function|prim_func|ir_module|macro)\b' || true)
start=$(date +%s.%N)
xargs -d '\n' "$tvmls" parse < "$list" > "$errors" || true
end=$(date +%s.%N)
bytes=$(xargs -d '\n' cat < "$list" | wc -c)
bad_files=$(cut -d: -f1 "$errors" | sort -u | grep -c . || true)
printf 'files: %d\nTVMScript units: %d\nbytes: %d\nsyntax errors: %d in %d files\nseconds: %.2f\n' \
  "$files" "$units" "$bytes" "$(grep -c . "$errors" || true)" "$bad_files" "$(echo "$end - $start" | bc)"
if [ -s "$errors" ]; then
  head -50 "$errors"
  exit 1
fi
