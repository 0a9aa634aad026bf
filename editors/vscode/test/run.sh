#!/bin/sh
# test/run.sh NAME: runs test/NAME.test.js with the system Node (ctest's entry point).
set -eu
command -v node >/dev/null || { echo "FAIL: node is missing: apt-get install nodejs (Node 20)" >&2; exit 1; }
exec node "$(dirname "$0")/$1.test.js"
