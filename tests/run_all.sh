#!/usr/bin/env bash
# The whole test suite, as CI runs it: a warnings-as-errors build with g++ and every test, then
# the same tests built with clang (warnings as errors too) under AddressSanitizer +
# UndefinedBehaviorSanitizer, so both compilers build the tree; that build also holds the
# libFuzzer targets (tests/fuzz/README.md), each of which then fuzzes for 60 s, two at a time.
# The editor tests (label `editor`: the real VS Code, Neovim, Emacs and Vim driving the release
# binary) run in the first build only.
# Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${TVMLS_JOBS:-$(nproc)}

echo "== release build (-Werror) and tests"
cmake -S . -B build -G Ninja -DTVMLS_WERROR=ON
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== clang ASan + UBSan build (-Werror) and tests"
CC=clang CXX=clang++ \
cmake -S . -B build-asan -G Ninja -DTVMLS_WERROR=ON -DTVMLS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
      -DTVMLS_BUILD_BENCH=OFF -DTVMLS_EDITOR_TESTS=OFF -DTVMLS_FUZZ=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"

echo "== fuzzing: each libFuzzer target for 60 s"
TVMLS_FUZZ_JOBS=2 tests/fuzz/run.sh build-asan 60
