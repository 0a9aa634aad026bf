#!/bin/sh
# Run one headless Neovim test with a private XDG_DATA_HOME/CONFIG/STATE/CACHE (removed after).
#   tests/run.sh NAME SERVER SOURCE_DIR [BUILD_DIR]
# NAME: lsp | treesitter | badinput | installed (the last runs `cmake --install` of the
# nvim component from BUILD_DIR into the temporary prefix first).
set -u
name=$1 server=$2 src=$3 build=${4:-}
here=$(cd "$(dirname "$0")" && pwd)

fail() { echo "FAIL: $*"; exit 1; }
command -v nvim >/dev/null 2>&1 ||
  fail "nvim not found: install Neovim >= 0.7 (Debian 12: sudo apt-get install neovim)"
nvim --headless -u NONE -c 'if has("nvim-0.7") | qall! | else | cquit 1 | endif' </dev/null ||
  fail "Neovim >= 0.7 is required (found: $(nvim --version | head -1))"
command -v timeout >/dev/null 2>&1 || fail "timeout not found (Debian: coreutils)"
case $name in
  treesitter|installed)
    command -v cc >/dev/null 2>&1 || fail "no C compiler \`cc\` (Debian: sudo apt-get install gcc)" ;;
esac
[ -x "$server" ] || fail "server binary $server not found: build tvmls first (cmake --build build)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tvmls-nvim-$name.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_DATA_HOME="$tmp/share" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" \
  XDG_CACHE_HOME="$tmp/cache" TVMLS_SERVER="$server" TVMLS_SOURCE_DIR="$src"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME"

init="$here/minimal_init.lua"
if [ "$name" = installed ]; then
  [ -n "$build" ] || fail "installed: BUILD_DIR argument missing"
  # prefix/share/nvim/site is $XDG_DATA_HOME/nvim/site: on Neovim's default packpath, as
  # /usr/share/nvim/site is for prefix /usr.
  "${TVMLS_CMAKE:-cmake}" --install "$build" --component tvmls_nvim --prefix "$tmp" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install --component tvmls_nvim failed"; }
  init="$here/installed_init.lua"
fi

timeout -k 5 "${TVMLS_NVIM_TIMEOUT:-90}" nvim --headless -u "$init" -c "luafile $here/${name}_test.lua" </dev/null
rc=$?
case $rc in 124|137) echo "FAIL: nvim did not finish within ${TVMLS_NVIM_TIMEOUT:-90} s (killed)" ;; esac
exit $rc
