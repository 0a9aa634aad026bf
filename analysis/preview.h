// A first look at a large file: the diagnostics of its first statements, from a parse of them
// alone, given only when the rest of the file cannot change them.
//
// Why: at 100k lines the parse of the whole text takes about a second on the 0.20 runtime and
// cannot be split across threads, so the first diagnostics of an opened file came seconds after
// the open. The top of the file, where an editor shows it, is parsed and analysed in tens of
// milliseconds; the server publishes its diagnostics first (server/lsp_server.cc) and the whole
// file's when they are ready.
//
// When the first statements' diagnostics are final. A statement's results depend on the rest of
// the file only through the file's aliases and its Python names (analysis_impl.h; the
// incremental analysis relies on it: Analyzer::StatementDependencies). The preview cuts the text
// at a line that starts a top-level statement and requires:
//   - the prefix parses without a syntax error: the cut is a statement boundary, and the whole
//     text parses the prefix into the same statements;
//   - the rest has no line that may change the aliases (an import naming `tvm` that the prefix
//     does not already have, a star import, the printer's header comment while it may still be
//     read) and no `tvmls` (a suppression comment may cover the whole file); the whole text
//     nests no deeper than the nesting guard allows (a refused text has one diagnostic);
//   - the rest reads as balanced tokens (syntax/module_bindings.h), and for each statement
//     covered: no name its functions look up that the prefix leaves unbound may be bound by the
//     rest, and, when some test in the file expects failure (`raises`, `xfail`), no name of its
//     units occurs in the rest (expected failure decided by use: check/expected_failure.h).
// The rest is read as tokens, not parsed; the tests over-approximate, so they may give up early,
// never wrongly, on text without syntax errors. The preview covers the statements before the
// first one that fails the last test.
//
// A file that is one class (a `mod.show()` dump) is cut between the functions of its body. The
// class is then the prefix's last statement, and its functions are covered one by one (a
// module's functions depend on each other only through the signatures of the functions they
// reference: Analyzer::Dependencies::module_functions): up to the first one that references a
// function after the cut, has a fix that edits another function (kept or dropped by the callee's
// call sites in the whole module), or looks up a name the rest may bind; none when the rest of the
// class has anything but definitions at its body's indentation (a name the class body assigns is
// one the module's functions see) or the module is an `R.rewriter` (checked as a whole).
#ifndef TVMLS_ANALYSIS_PREVIEW_H_
#define TVMLS_ANALYSIS_PREVIEW_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "analysis.h"
#include "check/diagnostic.h"
#include "syntax/document.h"

namespace tvmls::analysis {

/// The prefix a preview parses is the first line that can start a statement at or after this
/// many bytes: about 900 lines, more than a screen, parsed and analysed in about 20 ms.
inline constexpr uint32_t kPreviewPrefixBytes = 32 * 1024;
/// How far past that the cut is looked for (a prefix of one huge statement is not worth it).
inline constexpr uint32_t kPreviewSearchBytes = 96 * 1024;

/// The printer's header comments are read before the file's ninth statement that is not a
/// comment (Analyzer::Impl::FileAliases, kHeaderStatements).
inline constexpr int kHeaderStatementsRead = 9;

struct Preview {
  /// The diagnostics cover [0, end) of the text.
  uint32_t end = 0;
  /// The parsed prefix: the diagnostics' positions (its lines are the text's before `end`).
  std::unique_ptr<Document> prefix;
  /// Exactly the diagnostics that Analyzer::Run on the whole text gives that begin before `end`
  /// (when the whole text is parsed within the parser's time budget), by position.
  std::vector<Diagnostic> diagnostics;
};

/// The preview of `text` analysed with `options` (their `threads` is ignored: one), its prefix cut
/// at the first statement start at or after `prefix_bytes`; nullopt when it cannot tell (the
/// text is not longer than that, the prefix has a syntax error or no TVMScript, the rest may
/// change the aliases, or the first statement already depends on the rest).
std::optional<Preview> PreviewFirstStatements(std::string_view text, const AnalysisOptions& options,
                                              uint32_t prefix_bytes = kPreviewPrefixBytes);

/// The preview of `text` cut at `at`; nullopt when `at` is no place PreviewCut could choose
/// (IsPreviewCut), or as PreviewFirstStatements.
std::optional<Preview> PreviewAt(std::string_view text, const AnalysisOptions& options, uint32_t at);

/// Whether `at` is a place to cut a preview: the start of a line after a blank line that begins
/// at column 0 a statement (with a letter, `_` or `@`; not `else`, `elif`, `except`, `finally`),
/// or a definition (`@`, `def`, `async`) at the indentation of the body of a class that starts at
/// column 0 (its functions are then covered one by one).
bool IsPreviewCut(std::string_view text, uint32_t at);

/// Where PreviewFirstStatements cuts `text`: the start of the first line at or after
/// `prefix_bytes` that begins at column 0 with a letter, `_` or `@`, follows a blank line, does not
/// continue a compound statement (`else`, `elif`, `except`, `finally`), and has at least
/// kHeaderStatementsRead such lines before it (the text's first line counts: so that the prefix
/// usually holds the statements among which the printer's header is read). When no line does
/// before prefix_bytes + kPreviewSearchBytes and prefix_bytes falls in a class at the top (a
/// `mod.show()` dump is one), the first definition in its body at or after prefix_bytes that
/// follows a blank line; else nullopt.
std::optional<uint32_t> PreviewCut(std::string_view text, uint32_t prefix_bytes);

/// Whether `rest` may change what the whole file gives the prefix's statements: it holds `tvmls`
/// (a suppression may cover the whole file), or a line whose first word (after blanks) is
/// `import`, or `from` with an `import` after it, that names `tvm`, imports `*` or ends in `\`,
/// unless it is one of `prefix_imports` (one-line import statements of the prefix, whose aliases
/// the file has already); or, when `header_open` (the prefix has fewer than
/// kHeaderStatementsRead statements), a comment line of that shape (the printer's header).
bool RestMayChangeFile(std::string_view rest, const std::set<std::string_view>& prefix_imports,
                       bool header_open);


}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_PREVIEW_H_
