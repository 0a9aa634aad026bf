#!/bin/sh
# Installs code-server 4.100.3 (VS Code 1.100.3: web workbench + a real node extension host)
# from the npm registry into ${TVMLS_CACHE_DIR:-$HOME/.cache/tvmls}/code-server-4.100.3, for the
# VS Code tests. Nothing is downloaded from anywhere but npm: native modules are built from
# source with node-gyp against the system Node's headers, and ripgrep comes from Debian.
# 4.100.3 is the last code-server that runs on Node 20 (4.101+ need Node 22).
#
# Reuses the cache when it is complete (a `.complete` marker written last); otherwise builds in a
# temporary directory beside it and renames it into place, so an interrupted run leaves nothing
# half-installed behind. Prints the install directory on its last line.
#
# Debian 12 packages needed: nodejs (20) npm build-essential python3 pkg-config libkrb5-dev
# libxkbfile-dev libsecret-1-dev ripgrep (and chromium to run the tests).
set -eu
VERSION=4.100.3
CACHE=${TVMLS_CACHE_DIR:-${HOME:?HOME is not set}/.cache/tvmls}
DEST=$CACHE/code-server-$VERSION

if [ -f "$DEST/.complete" ]; then
  echo "$DEST"
  exit 0
fi

fail() { echo "setup.sh: $*" >&2; exit 1; }
command -v node >/dev/null || fail "node is missing: apt-get install nodejs (Node 20)"
command -v npm >/dev/null || fail "npm is missing: apt-get install npm"
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
[ "$NODE_MAJOR" -ge 20 ] || fail "code-server $VERSION needs Node 20 or newer (found $(node --version))"
command -v rg >/dev/null || fail "ripgrep is missing: apt-get install ripgrep"
command -v make >/dev/null && command -v g++ >/dev/null || fail "a C++ toolchain is missing: apt-get install build-essential"
command -v python3 >/dev/null || fail "python3 is missing: apt-get install python3"
for h in krb5.h X11/extensions/XKBfile.h libsecret-1/libsecret/secret.h; do
  [ -f "/usr/include/$h" ] || fail "/usr/include/$h is missing: apt-get install libkrb5-dev libxkbfile-dev libsecret-1-dev"
done

# node-gyp must use the installed Node's headers (it would download them otherwise).
if [ -z "${npm_config_nodedir:-}" ]; then
  NODE_PREFIX=$(dirname "$(dirname "$(command -v node)")")
  [ -f "$NODE_PREFIX/include/node/node.h" ] || fail "Node headers not found under $NODE_PREFIX/include/node (node-gyp needs them)"
  export npm_config_nodedir="$NODE_PREFIX"
fi
# code-server's install runs as root here; npm must not drop privileges for the native builds.
export npm_config_unsafe_perm=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

mkdir -p "$CACHE"
WORK=$(mktemp -d "$CACHE/.code-server-$VERSION.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
LOG=$CACHE/code-server-$VERSION.setup.log
: >"$LOG"
# run CMD...: its output goes to $LOG; on failure the end of the log is printed.
run() {
  if ! "$@" >>"$LOG" 2>&1; then
    tail -n 40 "$LOG" >&2
    fail "'$*' failed in $(pwd) (full log: $LOG)"
  fi
}
echo "setup.sh: installing code-server $VERSION into $DEST (a few minutes: native modules are compiled)" >&2
T0=$(date +%s)
cd "$WORK"
run npm pack "code-server@$VERSION"
tar xzf "code-server-$VERSION.tgz"
rm "code-server-$VERSION.tgz"
cd package
run npm install --omit=dev --ignore-scripts --no-package-lock
# npm 11 runs no dependency install scripts unless approved (older npm: no such command).
npm install-scripts approve argon2 >>"$LOG" 2>&1 || true
run npm rebuild argon2
cd lib/vscode
run npm install --omit=dev --ignore-scripts --no-package-lock
# @vscode/ripgrep's postinstall downloads rg from GitHub: use Debian's instead.
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm install-scripts approve --all >>"$LOG" 2>&1 || true
export npm_config_yes=true
run npm rebuild   # node-gyp: node-pty, spdlog, kerberos, @parcel/watcher, ...
# The rest of code-server's postinstall.sh.
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
(cd extensions && run npm install --omit=dev --ignore-scripts --no-package-lock)
cd ../..
run node out/node/entry.js --version
[ -f lib/vscode/extensions/python/syntaxes/MagicPython.tmLanguage.json ] || fail "code-server has no MagicPython grammar"
cd "$CACHE"
rm -rf "$DEST"
mv "$WORK/package" "$DEST"
date -u +%Y-%m-%dT%H:%M:%SZ > "$DEST/.complete"
echo "setup.sh: code-server $VERSION installed in $(( $(date +%s) - T0 )) s" >&2
echo "$DEST"
