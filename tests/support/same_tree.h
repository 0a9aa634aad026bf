// Tree equality for tests and fuzz targets that compare two parses.
#ifndef TVMLS_TESTS_SUPPORT_SAME_TREE_H_
#define TVMLS_TESTS_SUPPORT_SAME_TREE_H_

#include <tree_sitter/api.h>

namespace tvmls::testing {

/// Moves `c` to the next node in preorder; false after the last.
inline bool NextInPreorder(TSTreeCursor* c) {
  if (ts_tree_cursor_goto_first_child(c)) return true;
  do {
    if (ts_tree_cursor_goto_next_sibling(c)) return true;
  } while (ts_tree_cursor_goto_parent(c));
  return false;
}

/// Whether two trees are the same node for node: symbol, byte range, child count and MISSING flag
/// of every node in preorder (which with the child counts fixes the shape), anonymous ones
/// included. ToSexp shows only named nodes: an ERROR that takes in a `=` in one tree and not in
/// the other prints alike (tests/fuzz/regressions/incremental/error_takes_in_an_anonymous_token).
inline bool SameTree(TSNode a, TSNode b) {
  TSTreeCursor ca = ts_tree_cursor_new(a), cb = ts_tree_cursor_new(b);
  bool same = true, more = true;
  while (same && more) {
    TSNode x = ts_tree_cursor_current_node(&ca), y = ts_tree_cursor_current_node(&cb);
    same = ts_node_symbol(x) == ts_node_symbol(y) && ts_node_start_byte(x) == ts_node_start_byte(y) &&
           ts_node_end_byte(x) == ts_node_end_byte(y) && ts_node_child_count(x) == ts_node_child_count(y) &&
           ts_node_is_missing(x) == ts_node_is_missing(y);
    more = NextInPreorder(&ca);
    same = same && more == NextInPreorder(&cb);
  }
  ts_tree_cursor_delete(&ca);
  ts_tree_cursor_delete(&cb);
  return same;
}

}  // namespace tvmls::testing

#endif  // TVMLS_TESTS_SUPPORT_SAME_TREE_H_
