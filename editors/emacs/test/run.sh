#!/bin/sh
# Runs the Emacs + Eglot smoke test against a tvmls binary.
#   editors/emacs/test/run.sh /path/to/build/tvmls
# (or TVMLS_SERVER=/path/to/tvmls editors/emacs/test/run.sh). Exit 0 = all steps passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
server=${1:-${TVMLS_SERVER:-}}

fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "$server" ] || fail "no server binary: pass build/tvmls as the argument or in TVMLS_SERVER"
[ -x "$server" ] || fail "the server binary $server is not executable (build it: cmake --build build)"
command -v emacs >/dev/null 2>&1 || fail "emacs not found: sudo apt-get install emacs-nox elpa-eglot"
major=$(emacs --batch -Q --eval '(princ emacs-major-version)' 2>/dev/null)
if [ "${major:-0}" -lt 29 ] && ! ls -d "${TVMLS_ELPA_DIR:-/usr/share/emacs/site-lisp/elpa}"/eglot-* >/dev/null 2>&1; then
  fail "Emacs $major has no built-in Eglot and elpa-eglot is not installed: sudo apt-get install elpa-eglot"
fi
command -v timeout >/dev/null 2>&1 || fail "timeout not found: sudo apt-get install coreutils"
server=$(cd "$(dirname "$server")" && pwd)/$(basename "$server")

log=$(mktemp "${TMPDIR:-/tmp}/tvmls-emacs-log.XXXXXX")
trap 'rm -f "$log"' EXIT INT TERM
TVMLS_SERVER=$server timeout -k 5 ${TVMLS_EMACS_TIMEOUT:-90} \
  emacs --batch -Q -l "$here/smoke.el" </dev/null 2>"$log"
rc=$?
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then fail "emacs did not finish within ${TVMLS_EMACS_TIMEOUT:-90} s"; fi
if [ $rc -ne 0 ]; then
  echo "--- emacs messages (last 30 lines):"; tail -30 "$log"
  fail "emacs smoke test failed (exit $rc)"
fi
echo "emacs.eglot: all steps passed"
