#!/bin/sh
# npm ci && npm run package, in editors/vscode: the platform .vsix with the tvmls binary from
# $TVMLS_BINARY (default ../../build/tvmls). Used by the CMake target `vsix` and the ctest fixture
# vscode.package.
set -eu
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "build-vsix: node is missing: apt-get install nodejs (Node 20)" >&2; exit 1; }
command -v npm >/dev/null || { echo "build-vsix: npm is missing: apt-get install npm" >&2; exit 1; }
# npm ci wipes and reinstalls node_modules (~30 s); it is skipped when the last one installed
# exactly this package.json + package-lock.json (TVMLS_NPM_CI=always forces it).
STAMP=node_modules/.tvmls-installed
WANT=$(cat package.json package-lock.json | cksum)
if [ "${TVMLS_NPM_CI:-}" = always ] || [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$WANT" > "$STAMP"
fi
npm run --silent package
