#!/bin/sh
# Shows a tree-sitter runtime limitation with a grammar that has no external scanner: reparsing an
# unchanged text with its own tree (after a zero-length edit) gives a different tree than the
# fresh parse when the text has syntax errors. Uses the tree-sitter CLI at ../../../../shared/tools
# (or $TREE_SITTER) to generate the toy parser and the system libtree-sitter (0.20.7 on Debian 12)
# to run it. Exit status 1 means the limitation is present.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cli=${TREE_SITTER:-$here/../../../../shared/tools/tree-sitter}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/grammar.js" "$work/"
echo '{"name": "tree-sitter-toy", "version": "0.0.0"}' > "$work/package.json"
(cd "$work" && "$cli" generate --abi 14 --no-bindings >/dev/null)
cc -O1 -o "$work/check" "$here/check.c" "$work/src/parser.c" -I"$work/src" -ltree-sitter
"$work/check" '(2,+[],{,},x])'
