#!/bin/sh
# Runs the Vim + ALE smoke test against a tvmls binary.
#   editors/vim/test/run.sh /path/to/build/tvmls
# (or TVMLS_SERVER=/path/to/tvmls editors/vim/test/run.sh). Exit 0 = all steps passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
server=${1:-${TVMLS_SERVER:-}}
ale=${TVMLS_ALE_DIR:-/usr/share/vim-ale}

fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "$server" ] || fail "no server binary: pass build/tvmls as the argument or in TVMLS_SERVER"
[ -x "$server" ] || fail "the server binary $server is not executable (build it: cmake --build build)"
command -v vim >/dev/null 2>&1 || fail "vim not found: sudo apt-get install vim"
vim --version | grep -q '+job' || fail "this vim has no +job (vim-tiny?): sudo apt-get install vim"
[ -f "$ale/plugin/ale.vim" ] || fail "ALE not found in $ale: sudo apt-get install vim-ale (or set TVMLS_ALE_DIR)"
command -v timeout >/dev/null 2>&1 || fail "timeout not found: sudo apt-get install coreutils"

work=$(mktemp -d "${TMPDIR:-/tmp}/tvmls-vim.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
server=$(cd "$(dirname "$server")" && pwd)/$(basename "$server")

TVMLS_SERVER=$server TVMLS_WORK=$work TVMLS_ALE_DIR=$ale \
  timeout -k 5 ${TVMLS_VIM_TIMEOUT:-90} \
  vim -N -u NONE -i NONE --not-a-term -S "$here/smoke.vim" </dev/null >"$work/vim.log" 2>&1
rc=$?
if [ -f "$work/results.txt" ]; then cat "$work/results.txt"; echo; fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then fail "vim did not finish within ${TVMLS_VIM_TIMEOUT:-90} s"; fi
if [ $rc -ne 0 ]; then
  grep -q '^RESULT' "$work/results.txt" 2>/dev/null || { echo "--- vim output:"; tr -d '\033' <"$work/vim.log" | tail -20; }
  fail "vim smoke test failed (exit $rc)"
fi
echo "vim.ale: all steps passed"
