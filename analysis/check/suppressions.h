// Suppression comments: the user's word that a diagnostic is known and accepted.
//
//   x = R.add(a, b)  # tvmls: ignore[shape-mismatch, unused-binding]   this line, these codes
//   x = R.add(a, b)  # tvmls: ignore                                  this line, every code
//   # tvmls: disable=storage-may-overflow,unknown-op                  the whole file, these codes
//
// A line suppression covers the diagnostics whose range starts on its line. `disable=` must be
// the only thing on its line (a comment line); it covers the whole file. `#tvmls:` and extra
// spaces are accepted; a `# tvmls:` inside a string is not a comment and does nothing.
// `syntax-error` cannot be suppressed. A suppression that suppresses nothing (or names a code
// that does not exist) is itself reported: `unused-suppression`, a hint tagged Unnecessary, with
// a fix that removes it (or just the unused code from its list).
//
// Invariants: the pass never adds or changes a diagnostic other than unused-suppression; the
// fixes it builds touch only the comment or the end of the diagnostic's line.
#ifndef TVMLS_ANALYSIS_CHECK_SUPPRESSIONS_H_
#define TVMLS_ANALYSIS_CHECK_SUPPRESSIONS_H_

#include <string>
#include <vector>

#include "check/diagnostic.h"
#include "syntax/document.h"

namespace tvmls::analysis {

struct SuppressedCode {
  std::string code;
  TextRange range;  // the code's spelling inside the comment
};

struct Suppression {
  TextRange directive;  // from the '#' to the end of the directive (`]` or the last code)
  uint32_t line = 0;    // 0-based line it sits on
  bool file_level = false;  // `disable=`
  bool all_codes = false;   // bare `ignore` / `disable`
  std::vector<SuppressedCode> codes;
};

/// Every suppression comment of the document, in text order. Cost: one pass over the text for
/// '#' (memchr), plus a tree lookup per `tvmls:` found.
std::vector<Suppression> FindSuppressions(const Document& doc);

/// The same for the lines that hold the bytes [begin, end) (whole lines are read).
std::vector<Suppression> FindSuppressions(const Document& doc, uint32_t begin, uint32_t end);

/// Every `tvmls:` directive after a '#' on the lines that hold the bytes [begin, end), whether or
/// not the '#' starts a comment: what the text alone says, with no tree lookup. Whether a '#' is
/// a comment depends on the whole tree (an edit far away may open or close a string around it),
/// so the incremental path keeps these and filters them with InComments on every run.
std::vector<Suppression> FindDirectives(const Document& doc, uint32_t begin, uint32_t end);

/// The suppressions among `directives` (in text order): those whose '#' starts a comment in the
/// document's current tree, at most one per comment. Cost: a tree lookup per directive.
/// InComments(doc, FindDirectives(doc, b, e)) == FindSuppressions(doc, b, e).
std::vector<Suppression> InComments(const Document& doc, const std::vector<Suppression>& directives);

/// Brings `directives` (FindDirectives of the text before `edits`, the document's edit log since
/// then, in order) up to the document's current text: those before or after every edit move with
/// it, and the lines the edits touched are read again. Cost: O(directives x edits) plus the
/// touched lines, instead of a pass over the whole text (about 0.4 ms at 4 MB).
void UpdateDirectives(const Document& doc, const std::vector<EditSpan>& edits,
                      std::vector<Suppression>* directives);

/// Drops from `diagnostics` (sorted by position) those a suppression covers, and appends to
/// `unused` one `unused-suppression` hint per suppression (or listed code) that covered nothing.
/// Returns `diagnostics` and the hints merged in position order; the pointers into `unused`
/// stay valid while `unused` is not modified.
std::vector<const Diagnostic*> ApplySuppressions(const Document& doc,
                                                 const std::vector<Suppression>& suppressions,
                                                 const std::vector<const Diagnostic*>& diagnostics,
                                                 std::vector<Diagnostic>* unused);

/// The fix "Suppress `code` on this line": adds the code to the line's `# tvmls: ignore[...]`, or
/// appends `  # tvmls: ignore[code]` to the line of the diagnostic's start. Never preferred.
/// nullopt for codes that cannot be suppressed (syntax-error, unused-suppression).
std::optional<Fix> SuppressionFix(const Document& doc, const Diagnostic& diagnostic);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_CHECK_SUPPRESSIONS_H_
