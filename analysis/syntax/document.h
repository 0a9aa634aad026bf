// Document: the text of one file, its line index and its syntax tree, kept in step under edits.
//
// This is the syntax layer the rest of analysis stands on. Edits arrive as byte ranges or as
// LSP-style ranges (line, column in some encoding); each edit updates the text, the line index
// and the tree (ts_tree_edit + incremental reparse), and reports which byte ranges changed.
#ifndef TVMLS_ANALYSIS_SYNTAX_DOCUMENT_H_
#define TVMLS_ANALYSIS_SYNTAX_DOCUMENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "syntax/nesting.h"
#include "text/line_index.h"
#include "text/text_range.h"

namespace tvmls::analysis {

/// One replacement in the coordinates of the text it applies to.
struct ByteEdit {
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string new_text;
};

/// One replacement in line/column coordinates (as LSP's TextDocumentContentChangeEvent).
struct PositionEdit {
  Position start;
  Position end;
  std::string new_text;
};

/// Whether an edit (or batch of edits) was accepted, and where the text changed.
struct EditResult {
  bool ok = false;
  /// Why the edit was refused (empty when ok). On refusal the document is unchanged.
  std::string error;
  /// The edited spans in the coordinates of the new text, sorted and merged. A deletion leaves an
  /// empty span where the text was removed.
  std::vector<TextRange> edited;
};

/// One accepted byte edit as recorded in the edit log: [begin, old_end) of the text before it
/// became [begin, new_end).
struct EditSpan {
  uint32_t begin = 0;
  uint32_t old_end = 0;
  uint32_t new_end = 0;
};

/// Owns the text, line index, parser and tree of one document.
/// Thread-compatible: one thread at a time. Tree() may be copied with ts_tree_copy for readers on
/// other threads.
class Document {
 public:
  /// Parses `text` from scratch.
  explicit Document(std::string text);
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  const std::string& Text() const { return text_; }
  const LineIndex& Lines() const { return lines_; }
  const TSTree* Tree() const { return tree_; }
  TSNode Root() const;

  /// Applies byte edits in order (each in the coordinates left by the previous one), then reparses
  /// once. Refuses the whole batch, changing nothing, if an edit is out of range, reversed, or
  /// splits a UTF-8 code point.
  EditResult ApplyEdits(const std::vector<ByteEdit>& edits);

  /// The same with line/column ranges in `encoding`. A range on a line that does not exist, or
  /// inside a code point, refuses the batch.
  EditResult ApplyEdits(const std::vector<PositionEdit>& edits, Encoding encoding);

  /// Replaces the whole text and parses from scratch. Everything changed.
  EditResult ReplaceAll(std::string text);

  /// Byte ranges of the current text whose syntax or text may differ from the text before the
  /// last accepted ApplyEdits/ReplaceAll (that batch only; earlier batches are not accumulated): tree-sitter's changed ranges (structure) united with the
  /// edited spans (a renamed identifier changes no structure, only text). Sorted and merged.
  /// Computed on first request after an edit: tree-sitter's comparison walks every top-level node,
  /// O(file) (about 3 ms at 100k lines), so the edit itself does not pay for it.
  const std::vector<TextRange>& ChangedRanges();

  /// Whether ChangedRanges() compares trees (the default). Off, the tree before an edit is not
  /// kept, and ChangedRanges() after an edit is the edited spans alone. A long-lived reader that
  /// never asks for changed ranges (the language server) turns it off: error recovery can
  /// rebuild a third of a 100k-line file's tree on one keystroke, and keeping the tree before
  /// the edit would then hold both versions of those nodes until the next edit.
  void SetTreeComparison(bool on);

  /// Identifies this document among all Documents of the process (never reused).
  uint64_t Id() const { return id_; }
  /// Counts accepted ApplyEdits / ReplaceAll batches.
  uint64_t Revision() const { return revision_; }
  /// The byte edits accepted after `revision`, in the order applied (each in the coordinates left
  /// by the previous one). False when they are not all known: a ReplaceAll came after `revision`,
  /// or the log (the last kMaxEditLog edits) no longer reaches back that far. Lets a reader that
  /// looked at revision R (the analyzer) map its offsets to the current text.
  bool EditsSince(uint64_t revision, std::vector<EditSpan>* out) const;
  static constexpr size_t kMaxEditLog = 4096;
  static constexpr uint64_t kParseBudgetMicros = 2000000;

  /// Non-empty when the text is not parsed, the tree then empty; says why: it nests deeper than
  /// the parser can take (see syntax/nesting.h), or parsing it did not finish within the parse
  /// budget (kParseBudgetMicros).
  ///
  /// The budget: tree-sitter 0.20's error recovery can loop without end on some broken text
  /// (zero-width tokens from our scanner that recovery keeps lexing again; a minimal case is
  /// tests/fuzz/regressions/query/parse_never_ends). Every parse stops after 2 s plus 1 us per
  /// byte (wall clock; a normal parse takes well under a second at 16 MiB), and the text is refused.
  const std::string& Refusal() const { return refusal_; }
  /// Byte offset the refusal points at.
  uint32_t RefusalOffset() const { return refusal_offset_; }

  /// Wall time of the last parse (from scratch or incremental), in milliseconds; for logs and
  /// benchmarks.
  double LastParseMs() const { return last_parse_ms_; }

  /// Convenience: position of a byte offset.
  Position PositionOf(uint32_t offset, Encoding encoding) const {
    return lines_.ToPosition(text_, offset, encoding);
  }
  /// The same, with a line hint (LineIndex::ToPosition): for offsets converted in order.
  Position PositionOf(uint32_t offset, Encoding encoding, uint32_t* line_hint) const {
    return lines_.ToPosition(text_, offset, encoding, line_hint);
  }

 private:
  bool ApplyOne(const ByteEdit& edit, std::string* error);
  void Reparse(bool incremental);

  std::string text_;
  LineIndex lines_;
  TSParser* parser_ = nullptr;
  TSTree* tree_ = nullptr;
  // The tree before the last edit (already ts_tree_edit-ed into new coordinates), kept until the
  // changed ranges are computed or the next edit. Null after ReplaceAll or once computed.
  TSTree* previous_tree_ = nullptr;
  NestingBound nesting_;
  std::string refusal_;
  uint32_t refusal_offset_ = 0;
  std::vector<TextRange> edited_;
  uint64_t id_;
  uint64_t revision_ = 0;
  uint64_t log_floor_ = 0;  // EditsSince(r) is answerable for r >= log_floor_
  std::vector<std::pair<uint64_t, EditSpan>> log_;  // (revision of the batch, edit)
  std::vector<TextRange> changed_;
  bool changed_valid_ = true;
  double last_parse_ms_ = 0;
  bool compare_trees_ = true;
};

/// The whitespace (spaces, tabs, line breaks) at `offset`, in bytes, at most kMaxTrailingLayout.
/// Document reports every edit to tree-sitter as reaching over it. Our layout tokens (NEWLINE,
/// INDENT, DEDENT) are zero-width at the line break, so the statement after a block begins (with
/// its padding) where the block's last line ends. After an edit at that line end, tree-sitter
/// 0.20 tries to reuse the next statement before it has lexed the new layout tokens; the scanner
/// states differ (one indentation level apart), the statement is reparsed token by token, and so
/// is every later one up to the next comment: an edit after `return gv` reparsed the rest of a
/// 100k-line file (0.5-1 s). With the whitespace inside the edit, that statement counts as
/// changed, its first token is lexed after the layout tokens, and reuse resumes from there.
uint32_t TrailingLayoutWidth(std::string_view text, uint32_t offset);
inline constexpr uint32_t kMaxTrailingLayout = 4096;

/// Where Document tells tree-sitter an edit of [begin, end) ends, in the tree's coordinates
/// before the edit: the end of the innermost function or class definition around it (when that
/// is at most kMaxReparseReach bytes after `end`), or `end`, then the whitespace after it
/// (TrailingLayoutWidth). Once tree-sitter parses token by token up to the end of a block (a
/// statement after the edit parsed differently, e.g. when a broken indentation is repaired),
/// every later definition is reparsed as above, whatever its text; with the rest of the
/// definition and the whitespace after it inside the edit, reuse resumes at the next statement.
uint32_t ReparseReach(std::string_view text, TSNode root, uint32_t begin, uint32_t end);
inline constexpr uint32_t kMaxReparseReach = 16 * 1024;

/// Converts a byte offset to tree-sitter's point (row = line, column = bytes into the line).
TSPoint PointAt(const LineIndex& lines, uint32_t offset);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_SYNTAX_DOCUMENT_H_
