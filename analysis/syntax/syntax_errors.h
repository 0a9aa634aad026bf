// Syntax errors: ERROR and MISSING nodes of a tree, as byte ranges with a message.
#ifndef TVMLS_ANALYSIS_SYNTAX_SYNTAX_ERRORS_H_
#define TVMLS_ANALYSIS_SYNTAX_SYNTAX_ERRORS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "text/text_range.h"

namespace tvmls::analysis {

struct SyntaxError {
  TextRange range;
  /// "unexpected `foo(`", "missing `)`", "missing identifier".
  std::string message;
};

/// Every outermost ERROR node, every MISSING node and every empty block (`def f():` with no body),
/// in document order. Iterative (deeply nested input cannot overflow the stack); O(nodes).
std::vector<SyntaxError> CollectSyntaxErrors(TSNode root, std::string_view text);

/// The same, but subtrees for which `skip` returns true are not visited (the caller has their
/// errors already, e.g. cached per function). The skipped node itself is still checked as a
/// member of its parent's statement list (indentation).
std::vector<SyntaxError> CollectSyntaxErrors(TSNode root, std::string_view text,
                                             const std::function<bool(TSNode)>& skip);

/// Indentation of the line holding `offset` (tabs to the next multiple of 8, as the scanner), or
/// -1 when something other than blanks precedes `offset` on its line.
int64_t IndentationAt(std::string_view text, uint32_t offset);

/// Python's indentation rule for the statements of one block, fed one child at a time in order:
/// a statement that starts its line at another indentation than the block's first statement is
/// "unexpected indentation" / "unindent does not match the block". CollectSyntaxErrors applies it
/// to every block it visits; callers that walk a block themselves (the analyzer walks the file's
/// top level) feed it directly.
class IndentationCheck {
 public:
  void Visit(TSNode child, std::string_view text, std::vector<SyntaxError>* errors);
  /// The same for a statement starting at `at` on a line indented by `indent` (>= 0).
  void Check(uint32_t at, int64_t indent, std::vector<SyntaxError>* errors);

 private:
  int64_t expected_ = -1;
};

/// The tree as an S-expression in tree-sitter's test format: named nodes only, `field: ` prefixes,
/// `(MISSING name)` for missing nodes. Iterative.
std::string ToSexp(TSNode root);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_SYNTAX_SYNTAX_ERRORS_H_
