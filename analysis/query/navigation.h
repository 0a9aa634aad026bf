// Editor navigation over one file, in byte offsets: document highlights, rename, folding ranges,
// selection ranges, and the "annotate with the inferred struct info" action. The server converts
// to LSP positions; nothing here knows LSP.
//
// The semantic queries (highlights, rename, annotate) read the FileModel of the text they are
// given offsets into (Analyzer::Model() of the same Document version). The syntactic ones
// (folding, selection) read only the Document's tree.
#ifndef TVMLS_ANALYSIS_QUERY_NAVIGATION_H_
#define TVMLS_ANALYSIS_QUERY_NAVIGATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/diagnostic.h"
#include "model/model.h"
#include "syntax/document.h"
#include "text/text_range.h"

namespace tvmls::analysis {

// ---------------------------------------------------------------------------------------------
// Highlights

struct Highlight {
  TextRange range;     // one occurrence: exactly the name's characters
  bool write = false;  // the definition (binding, parameter, declaration) rather than a use
};

/// Every occurrence, in the file, of the symbol or function at `offset` (inside a name or just
/// after its last character), sorted by position. Symbols are those the model tracks in each
/// function: Relax variables and parameters, symbolic shape variables (also spelled inside string
/// annotations such as `R.Tensor(("n", 4))`: the range is the name inside the quotes), TIR
/// buffers and TIR scalar/handle parameters. A function, at its `def` name or at any `cls.f`,
/// gives its name (write) and the `f` of every `cls.f` in its module. A Relax parameter that also
/// defines a symbolic variable (`n: R.Prim("int64")`) gives both kinds of uses. Empty when the
/// offset is on nothing of that kind (ops, keywords, aliases, Python names, whitespace).
std::vector<Highlight> HighlightsAt(const FileModel& model, uint32_t offset);

// ---------------------------------------------------------------------------------------------
// Rename

struct PrepareRenameResult {
  TextRange range;          // the occurrence under the cursor
  std::string placeholder;  // its current name
  std::string error;        // why the name cannot be renamed; empty on success
  bool ok() const { return error.empty(); }
};

/// Whether the name at `offset` can be renamed, and its range. Renameable: Relax variables and
/// parameters, symbolic variables, TIR buffers and TIR parameters, and functions of an
/// `@I.ir_module` class (at the `def` or at a `cls.f`). Refused, with the reason in `error`:
/// nothing at the cursor, a Python keyword, a TVMScript alias (`R`, `T`, `I`, `tvm` or what the
/// imports say), an operator or other name under an alias (`R.add`, `T.float32`), a keyword
/// argument's name, a standalone function (its Python callers are unknown), and any other Python
/// name the model does not track (`cls`, closure values, TIR loop variables).
PrepareRenameResult PrepareRenameAt(const Document& doc, const FileModel& model, uint32_t offset);

struct RenameResult {
  std::vector<TextEdit> edits;  // sorted by position, non-overlapping, each exactly one old name
  std::string error;            // why not; empty on success (then `edits` may be empty only
                                // when the new name equals the old one)
  bool ok() const { return error.empty(); }
};

/// Renames the name at `offset` (as PrepareRenameAt accepts it) to `new_name` throughout its
/// scope: a symbol within its function (every occurrence the model records, including spellings
/// inside string annotations: only the text inside the quotes changes); a function at its `def`
/// and at every `cls.f` of its module (not the strings of `global_symbol` attributes, nor Python
/// code outside the module). Refused, saying why, when PrepareRenameAt refuses; when `new_name`
/// is not a Python identifier (ASCII letters, digits, `_`, not starting with a digit), is a
/// Python keyword or a TVMScript alias of the file; when it collides with a name already visible
/// in the same function (another symbol, or any name the function's text uses) or, for a
/// function, with another function or global of the module; and when the old name also occurs
/// in the function where the model does not account for it (e.g. inside a nested function,
/// which tvmls does not analyse), since renaming only part of the uses would break the code.
RenameResult RenameAt(const Document& doc, const FileModel& model, uint32_t offset,
                      const std::string& new_name);

// ---------------------------------------------------------------------------------------------
// Folding

struct FoldingRange {
  enum class Kind { kRegion, kComment, kImports };
  /// From the first character of the construct (on its header line) to its last character: the
  /// line of `range.begin` is the fold's start line and the line of `range.end` its end line
  /// (the server converts to LSP's startLine/endLine; `range.end` is never past a line end).
  TextRange range;
  Kind kind = Kind::kRegion;
};

/// Folding ranges from the syntax tree alone, sorted by `range.begin`:
///  - kRegion: the bodies of `class`, `def`, `with`, `for`, `while`, `if`, `elif`, `else`,
///    `try`, `except`, `finally`, `match`, `case` (from the header keyword to the end of that
///    clause's own body: an `if` fold ends before its `elif`/`else`); bracketed expressions
///    (argument lists, parameter lists, lists, tuples, sets, dicts, parenthesized expressions,
///    subscripts, comprehensions) and strings spanning lines;
///  - kComment: runs of two or more consecutive lines that hold only a comment;
///  - kImports: runs of import statements that are siblings with no other statement between
///    them (blank lines and comments between them allowed), spanning two or more lines.
/// Only constructs that span two or more lines fold. When several start on the same line only
/// the outermost is kept (editors keep one fold per start line). One walk over the tree that
/// does not descend into single-line nodes, no allocation per node (about 50 ms for 100k lines,
/// nearly all of it tree-sitter's cursor); broken trees (ERROR, MISSING nodes) give the folds of
/// what parsed.
std::vector<FoldingRange> FoldingRanges(const Document& doc);

// ---------------------------------------------------------------------------------------------
// Selection ranges

/// Ranges for "expand selection" at `offset`, innermost first, each strictly containing the one
/// before: the token at the offset (the name just before it when the cursor is right after a
/// name), then each enclosing named node of larger extent (argument, argument list, call,
/// statement, block, function, class, module), then the whole text. Empty ranges (missing
/// tokens) are skipped. An offset past the end of the text is clamped to it.
std::vector<TextRange> SelectionRangesAt(const Document& doc, uint32_t offset);

// ---------------------------------------------------------------------------------------------
// Annotate

/// The code action "annotate with the inferred struct info" when `offset` is on (or just after)
/// an unannotated Relax binding target that has an insertable inlay hint: a fix titled
/// "Annotate `lv` with its inferred struct info" inserting the hint's label (`: R.Tensor(...)`)
/// right after the name. Nothing for annotated targets, unknown struct info, and the targets of
/// tuple unpacking (`a, b = t`: an annotation there is a syntax error).
std::optional<Fix> AnnotateAt(const FileModel& model, uint32_t offset);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_QUERY_NAVIGATION_H_
