// Which names a piece of Python may bind in the file's global scope, read from its tokens
// without a parse: for a text too long to parse now (analysis/preview.h reads the rest of a large
// file with it while only its first statements are parsed).
//
// The scan tokenizes as Python does (string literals with prefixes and triple quotes, comments,
// brackets, `\` continuations, `;`), splits the text into statements by line ends outside
// brackets, and follows the block structure by indentation: a `def` or `class` body is not the
// global scope, the blocks of `if`, `for`, `while`, `try`, `with` and `match` at the global scope
// are. It over-approximates what model/discovery.cc counts as the file's Python names:
//   - the names of `def` and `class` statements at the global scope or in class bodies (discovery
//     counts the functions of an `I.ir_module` class);
//   - at the global scope: the targets of assignments (`=`, augmented, annotated; every word
//     before the last `=` that is not an attribute, subscript or call base: `a.b = 1` and
//     `a[0] = 1` bind nothing, `(a, b) = t` binds both), every word of an `import` / `from`
//     statement, `for` targets, the words after `as` in `with`, every word
//     of an `except` clause and a `case` pattern, and `name :=` anywhere in a statement;
//   - anywhere: the names of `global` and `nonlocal` statements.
// On text with syntax errors the scan keeps going by the same rules; the parser's recovery may
// read such text otherwise.
#ifndef TVMLS_ANALYSIS_SYNTAX_MODULE_BINDINGS_H_
#define TVMLS_ANALYSIS_SYNTAX_MODULE_BINDINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace tvmls::analysis {

struct NamesInText {
  /// Of the names asked about, those the text may bind in the global scope (sorted).
  std::vector<std::string> bound;
  /// Of the names asked about, those that occur as a word of code (not in a string literal or a
  /// comment), in any scope (sorted).
  std::vector<std::string> occurring;
  /// The text ends outside brackets and triple-quoted string literals. When false, what was read
  /// after the opening may be code the parser's recovery reads otherwise. (A closing bracket
  /// that closes nothing is skipped, a one-quote literal ends at its line end: so does the parser
  /// read them.)
  bool balanced = true;
};

/// Reads `text`, which starts at the beginning of a line outside any bracket, string or block
/// other than the global scope, for the `names` asked about. Linear in the text.
NamesInText FindModuleBindings(std::string_view text, const std::vector<std::string>& names);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_SYNTAX_MODULE_BINDINGS_H_
