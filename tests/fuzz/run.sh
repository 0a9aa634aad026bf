#!/usr/bin/env bash
# Runs the libFuzzer targets of a TVMLS_FUZZ build (tests/fuzz/README.md).
#
#   tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
#
# Each target fuzzes for SECONDS (all four by default: query incremental framing lsp), at most
# TVMLS_FUZZ_JOBS (default 1) at a time, niced. New inputs go to BUILD_DIR/fuzz/corpus/<target>
# (kept between runs), findings to BUILD_DIR/fuzz/findings/<target>/, each target's output to
# BUILD_DIR/fuzz/<target>.log. Exits non-zero when any target found something.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(query incremental framing lsp)
jobs=${TVMLS_FUZZ_JOBS:-1}
src=tests/fuzz

# Every input of query and incremental is parsed and analysed whole (several times) on each
# execution, so their inputs are kept small: at most 1 KiB, seeded with the definitions of
# examples/ and tests/fixtures/ cut into units of that size (split_seeds.py), not the whole files.
tvmscript_max_len=1024

# Per target: dictionary, longest input, time limit per input (s). The limit is wall time: on a
# loaded shared machine a niced run was once starved past 10 s on an input that takes 22 ms, so
# it is 30 s (a parse that never ends, the kind of hang found so far, exceeds any limit). Entropic scheduling is off:
# with the tens of thousands of features these targets reach, its bookkeeping took three quarters
# of the time (160 execs/s without it against 41 with it, fuzz_query). Nor is the corpus directory
# re-read every second (-reload, for parallel jobs sharing one corpus; each target has its own):
# with a few thousand inputs in it that took 5 % of fuzz_query's time.
options() {
  echo -n "-entropic=0 -reload=0 "
  case "$1" in
    query) echo "-dict=$src/tvmscript.dict -max_len=$tvmscript_max_len -timeout=30" ;;
    incremental) echo "-dict=$src/tvmscript.dict -max_len=$tvmscript_max_len -timeout=30" ;;
    framing) echo "-dict=$src/jsonrpc.dict -max_len=2048 -timeout=10" ;;
    lsp) echo "-dict=$src/jsonrpc.dict -max_len=2048 -timeout=30" ;;
    *) echo "unknown target $1" >&2; exit 2 ;;
  esac
}
seeds() {
  local dirs=()
  for d in "$src/regressions/$1" "$src/corpus/$1"; do [ -d "$d" ] && dirs+=("$d"); done
  case "$1" in query | incremental) dirs+=("$build/fuzz/seeds/tvmscript") ;; esac
  echo "${dirs[@]}"
}

# The small TVMScript seeds, cut afresh on every run (the whole files without python3).
mkdir -p "$build/fuzz/seeds"
rm -rf "$build/fuzz/seeds/tvmscript"
if command -v python3 >/dev/null; then
  python3 "$src/split_seeds.py" "$build/fuzz/seeds/tvmscript" "$tvmscript_max_len" examples tests/fixtures >/dev/null
else
  mkdir -p "$build/fuzz/seeds/tvmscript"
  cp examples/* tests/fixtures/*/*.py "$build/fuzz/seeds/tvmscript/"
fi

run_one() {
  local target=$1 binary="$build/tests/fuzz/fuzz_$1"
  [ -x "$binary" ] || { echo "$binary not built (configure with -DTVMLS_FUZZ=ON)" >&2; return 1; }
  mkdir -p "$build/fuzz/corpus/$target" "$build/fuzz/findings/$target"
  # shellcheck disable=SC2046
  if ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
     nice -n 10 "$binary" $(options "$target") -max_total_time="$seconds" -print_final_stats=1 \
       -artifact_prefix="$build/fuzz/findings/$target/" \
       "$build/fuzz/corpus/$target" $(seeds "$target") >"$build/fuzz/$target.log" 2>&1; then
    local execs rate
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz/$target.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$build/fuzz/$target.log")
    echo "fuzz_$target: ${seconds} s, $execs execs ($rate/s), no finding"
  else
    echo "fuzz_$target: FOUND something; input in $build/fuzz/findings/$target/, log:" >&2
    grep -v '^#[0-9]' "$build/fuzz/$target.log" | tail -60 >&2
    return 1
  fi
}

status=0
pids=()
for target in "${targets[@]}"; do
  run_one "$target" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
