// Small helpers over tree-sitter nodes, for the lowering code and the editor queries.
#ifndef TVMLS_ANALYSIS_MODEL_SYNTAX_UTIL_H_
#define TVMLS_ANALYSIS_MODEL_SYNTAX_UTIL_H_

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "text/text_range.h"

namespace tvmls::analysis {

/// The id of field `name` in `language` (0 when it has none). tree-sitter's own lookup compares
/// the name with every field name of the grammar on each call; this one is a table per thread.
TSFieldId FieldId(const TSLanguage* language, const char* name);

/// The symbol names of the grammar last seen on this thread, by symbol id (ts_language_symbol_name
/// without a library call per node: the walks ask a node's type tens of millions of times in a
/// `tvmls check` of TVM's tests). Trivial, so that a thread_local access is a plain load.
struct SymbolNameTable {
  const TSLanguage* language;
  const char* const* names;
  uint32_t count;
};
extern thread_local SymbolNameTable symbol_name_table;
/// Points symbol_name_table at `language`'s names (made once per language, kept for the process).
void LoadSymbolNames(const TSLanguage* language);

/// ts_node_type(n) for a non-null node.
inline const char* TypeOf(TSNode n) {
  const TSSymbol symbol = ts_node_symbol(n);
  const TSLanguage* language = ts_tree_language(n.tree);
  if (language != symbol_name_table.language) LoadSymbolNames(language);
  return symbol < symbol_name_table.count ? symbol_name_table.names[symbol] : ts_language_symbol_name(language, symbol);
}

// The first character is compared inline: most tests fail there, and the call to strcmp was ~7%
// of `tvmls check` (walks test every node against many types).
inline bool Is(TSNode n, const char* type) {
  if (n.id == nullptr) return false;  // ts_node_is_null
  const char* t = TypeOf(n);
  return t[0] == type[0] && std::strcmp(t, type) == 0;
}
// Null nodes (an absent field: broken code is normal input) have an empty range and no text.
inline TextRange RangeOf(TSNode n) {
  if (ts_node_is_null(n)) return {};
  return {ts_node_start_byte(n), ts_node_end_byte(n)};
}
inline std::string_view TextOf(TSNode n, std::string_view text) {
  if (ts_node_is_null(n)) return {};
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > text.size() || e > text.size() || e < b) return {};
  return text.substr(b, e - b);
}
/// The child in field `name`, or a null node (a null `n` too).
inline TSNode Field(TSNode n, const char* name) {
  if (ts_node_is_null(n)) return n;
  return ts_node_child_by_field_id(n, FieldId(ts_tree_language(n.tree), name));
}

/// Pre-order walk without recursion; `visit` returns whether to descend into the node. Nothing
/// for a null root.
template <typename Visit>
void ForEachNode(TSNode root, Visit&& visit) {
  if (ts_node_is_null(root)) return;
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

/// Whether a statement can be below `n` (a walk looking for statements need not descend where
/// not): false for expressions and for the statements that hold no other (`x = ...`, `return`,
/// an expression statement, ...); true for blocks, compound statements, their clauses,
/// definitions and ERROR.
bool MayHoldStatements(TSNode n);

/// FNV-1a, 64 bit.
inline uint64_t HashString(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/// Named children in order, through hidden chain nodes (cursor based: O(children)).
std::vector<TSNode> NamedChildren(TSNode n);
/// The same into `out` (cleared first; its capacity is kept, for loops over many nodes).
void NamedChildren(TSNode n, std::vector<TSNode>* out);
/// All children (named and anonymous).
std::vector<TSNode> Children(TSNode n);

/// `R.nn.conv2d` -> {"R", "nn", "conv2d"}; nullopt when not a pure identifier/attribute chain.
std::optional<std::vector<std::string>> DottedPath(TSNode n, std::string_view text);
std::string Join(const std::vector<std::string>& parts, size_t from, const char* sep = ".");

/// The string value of a plain string literal (`"float32"`, `'x'`), without escapes processing
/// beyond the common ones; nullopt for f-strings, concatenations, non-strings.
std::optional<std::string> StringValue(TSNode n, std::string_view text);
/// Integer literal value (decimal/hex/octal/binary, underscores), with unary minus.
std::optional<int64_t> IntValue(TSNode n, std::string_view text);

/// A call's arguments: positional nodes, keyword (name, value) pairs, splat present.
struct CallArgs {
  std::vector<TSNode> positional;
  std::vector<std::pair<std::string, TSNode>> keywords;
  std::vector<TSNode> keyword_nodes;  // the keyword_argument nodes
  bool splat = false;
  TSNode list{};  // the argument_list node
};
CallArgs ArgsOf(TSNode call, std::string_view text);
/// The keyword argument value, or a null node.
TSNode Keyword(const CallArgs& args, std::string_view name);

/// Strips parenthesized_expression wrappers.
TSNode Unparen(TSNode n);

/// The index nodes of a subscript `A[i, j]`, a single tuple index spread (`A[(i, j)]`); none for
/// `A[()]` (a 0-d access). Splats (`A[*idx]`) stay as they are.
std::vector<TSNode> SubscriptIndices(TSNode subscript);

/// Start of the line containing `offset` and the indentation text of that line.
uint32_t LineStart(std::string_view text, uint32_t offset);
std::string IndentOf(std::string_view text, uint32_t offset);

/// How a number is spelled, with `{}` for its digits: `64` -> "{}", `T.int64(64)` ->
/// "T.int64({})"; "" for anything else (a name, an expression). Fixes that rewrite a number keep
/// the user's spelling.
std::string NumberSpelling(std::string_view spelled);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_MODEL_SYNTAX_UTIL_H_
