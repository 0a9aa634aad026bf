// Shared pieces of the lowering code (not part of the model's interface).
#ifndef TVMLS_ANALYSIS_MODEL_LOWER_INTERNAL_H_
#define TVMLS_ANALYSIS_MODEL_LOWER_INTERNAL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

#include "model/lower.h"

namespace tvmls::analysis {

/// FNV-1a, 64 bit.
inline uint64_t HashString(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/// Pre-order walk without recursion; `visit` returns whether to descend into the node.
template <typename Visit>
void ForEachNode(TSNode root, Visit&& visit) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool descend = visit(node);
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
      if (ts_node_eq(ts_tree_cursor_current_node(&cursor), root)) {
        moved = false;
        break;
      }
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
}

void LowerPrimSignature(TSNode def, std::string_view text, const Aliases& aliases,
                        FunctionModel* fn);
/// Names Python (and TVM's test files) always provide: builtins, `metadata`, `tvm`, `np`, ...
/// They are never undefined names.
bool IsPythonBuiltin(std::string_view name);

void LowerPrimBody(TSNode def, std::string_view text, const Aliases& aliases, FunctionModel* fn,
                   const ModuleContext* ctx = nullptr);
void LowerRelaxSignature(TSNode def, std::string_view text, const Aliases& aliases,
                         FunctionModel* fn);
void LowerRelaxBody(TSNode def, std::string_view text, const ModuleContext& ctx,
                    FunctionModel* fn);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_LOWER_INTERNAL_H_
