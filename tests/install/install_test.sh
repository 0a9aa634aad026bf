#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
#
# What a user installs is what the README promises:
#  1. `cmake --install BUILD --prefix PREFIX` puts every path of tests/install/expected_files.txt
#     under PREFIX; the installed binary runs and checks an example; the installed README is the
#     one the codeDescription links of the installed server point into.
#  2. The editor plugins load from that prefix with no configuration: Neovim finds the plugin
#     and the parser (XDG_DATA_HOME=PREFIX/share, whose nvim/site is on Neovim's default
#     runtimepath, as ~/.local/share is).
#  3. `cpack -G DEB` builds a .deb whose files are exactly the installed files (under /usr), with
#     the shared-library dependencies dpkg-shlibdeps finds (libtree-sitter0).
# Exits non-zero, naming what is wrong, on the first failure.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. cmake --install
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || fail "cmake --install failed (see $work/install.log)"
while read -r path; do
  case "$path" in ''|'#'*) continue ;; esac
  [ -e "$prefix/$path" ] || fail "cmake --install did not install $path"
done <"$src/tests/install/expected_files.txt"
"$prefix/bin/tvmls" --version | grep -q '^tvmls ' || fail "installed tvmls --version"
set +e
out=$("$prefix/bin/tvmls" check "$src/examples/seed_b_kill_in_dataflow.py" 2>&1)
status=$?
set -e
[ "$status" -eq 1 ] || fail "installed tvmls check on seed b exited $status, expected 1: $out"
grep -q 'impure-in-dataflow' <<<"$out" || fail "installed tvmls check missed impure-in-dataflow: $out"
grep -q 'id="impure-in-dataflow"' "$prefix/share/doc/tvmls/README.md" || fail "installed README has no diagnostic anchors"

# 2. The Neovim plugin and parser load from the prefix (skipped only when the build has no
#    Neovim tests: then the editor tests are off and nvim may be absent).
if command -v nvim >/dev/null; then
  home="$work/home"; mkdir -p "$home"
  out=$(HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_STATE_HOME="$home/.state" \
        XDG_DATA_HOME="$prefix/share" timeout 60 nvim --headless -u NORC -i NONE \
        -c 'lua local ok, m = pcall(require, "tvmls"); io.stdout:write(ok and "plugin ok\n" or ("plugin missing: " .. tostring(m) .. "\n"))' \
        -c 'lua local ok, e = pcall(vim.treesitter.require_language, "tvmscript"); io.stdout:write(ok and "parser ok\n" or ("parser missing: " .. tostring(e) .. "\n"))' \
        -c 'qall!' 2>&1) || fail "nvim exited non-zero: $out"
  grep -q 'plugin ok' <<<"$out" || fail "Neovim does not find the installed plugin: $out"
  grep -q 'parser ok' <<<"$out" || fail "Neovim does not load the installed parser: $out"
elif [ "${TVMLS_REQUIRE_EDITORS:-1}" = 1 ]; then
  fail "nvim not found (apt install neovim), needed to check the installed plugin"
fi

# 3. cpack -G DEB
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1) \
  || fail "cpack failed (see $work/cpack.log)"
deb=$(ls "$work"/deb/tvmls_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no tvmls_*.deb (see $work/cpack.log)"
dpkg-deb -f "$deb" Depends | grep -q 'libtree-sitter0' || fail "the .deb does not depend on libtree-sitter0: $(dpkg-deb -f "$deb" Depends)"
(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||' | sort) >"$work/installed.txt"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./usr/||' | sort >"$work/deb.txt"
diff -u "$work/installed.txt" "$work/deb.txt" >"$work/diff.txt" || fail "the .deb's files differ from cmake --install's: $(cat "$work/diff.txt")"
echo "install test: $(wc -l <"$work/installed.txt") files installed, $(basename "$deb") $(du -h "$deb" | cut -f1), Depends: $(dpkg-deb -f "$deb" Depends)"
