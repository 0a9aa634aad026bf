// Document: text + line index + incrementally reparsed tree.
#include "syntax/document.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "tvmls/grammar.h"

namespace tvmls::analysis {

namespace {

// Shifts recorded edit spans through one later edit [begin, old_end) -> [begin, new_end).
void ShiftSpans(std::vector<TextRange>* spans, uint32_t begin, uint32_t old_end, uint32_t new_end) {
  const int64_t delta = static_cast<int64_t>(new_end) - old_end;
  for (TextRange& span : *spans) {
    if (span.begin >= old_end && !(span.begin == begin && begin == old_end)) {
      span.begin = static_cast<uint32_t>(span.begin + delta);
      span.end = static_cast<uint32_t>(span.end + delta);
    } else if (span.end <= begin) {
      // Before the edit: unchanged.
    } else {
      // Overlaps the edit: the union of both, in new coordinates.
      uint32_t end = span.end >= old_end ? static_cast<uint32_t>(span.end + delta) : new_end;
      span.begin = std::min(span.begin, begin);
      span.end = std::max(end, new_end);
    }
  }
}

}  // namespace

uint32_t TrailingLayoutWidth(std::string_view text, uint32_t offset) {
  uint32_t end = offset;
  while (end < text.size() && end - offset < kMaxTrailingLayout &&
         (text[end] == ' ' || text[end] == '\t' || text[end] == '\n' || text[end] == '\r' ||
          text[end] == '\f')) {
    ++end;
  }
  return end - offset;
}

uint32_t ReparseReach(std::string_view text, TSNode root, uint32_t begin, uint32_t end) {
  uint32_t reach = end;
  if (!ts_node_is_null(root)) {
    // The innermost function or class definition around the edit, by descending from the root.
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    while (ts_tree_cursor_goto_first_child_for_byte(&cursor, begin) >= 0) {
      TSNode n = ts_tree_cursor_current_node(&cursor);
      if (ts_node_start_byte(n) > begin || ts_node_end_byte(n) < end) break;
      const char* type = ts_node_type(n);
      if (std::strcmp(type, "function_definition") == 0 || std::strcmp(type, "class_definition") == 0) {
        uint32_t def_end = ts_node_end_byte(n);
        if (def_end - end <= kMaxReparseReach) reach = std::max(reach, def_end);
      }
    }
    ts_tree_cursor_delete(&cursor);
  }
  return reach + TrailingLayoutWidth(text, reach);
}

TSPoint PointAt(const LineIndex& lines, uint32_t offset) {
  uint32_t line = lines.LineOf(offset);
  return TSPoint{line, offset - lines.LineStart(line)};
}

namespace {
std::atomic<uint64_t> next_document_id{1};
}  // namespace

bool Document::EditsSince(uint64_t revision, std::vector<EditSpan>* out) const {
  out->clear();
  if (revision < log_floor_ || revision > revision_) return false;
  auto first = std::upper_bound(log_.begin(), log_.end(), revision,
                                [](uint64_t r, const std::pair<uint64_t, EditSpan>& e) { return r < e.first; });
  for (auto it = first; it != log_.end(); ++it) out->push_back(it->second);
  return true;
}

namespace {

// Room for the next 1/64 of growth, not the string's doubling (a 4.4 MB text held 8.8 MB after
// its first typed character). Given at the start too: else the first keystroke in a large file
// copies the text to a new buffer whose pages are all touched for the first time (11 ms at 100k
// lines, against 0.7 ms for the next keystrokes).
void ReserveGrowth(std::string* text, size_t size) { text->reserve(size + size / 64 + 4096); }

}  // namespace

Document::Document(std::string text) : text_(std::move(text)), lines_(text_), id_(next_document_id++) {
  ReserveGrowth(&text_, text_.size());
  parser_ = ts_parser_new();
  if (parser_ == nullptr || !ts_parser_set_language(parser_, tvmls_language())) std::abort();
  nesting_.Reset(text_);
  Reparse(false);
  changed_.push_back({0, static_cast<uint32_t>(text_.size())});
}

const std::vector<TextRange>& Document::ChangedRanges() {
  if (!changed_valid_) {
    std::vector<TextRange> ranges = edited_;
    if (previous_tree_ != nullptr) {
      uint32_t count = 0;
      TSRange* changed = ts_tree_get_changed_ranges(previous_tree_, tree_, &count);
      for (uint32_t i = 0; i < count; ++i) ranges.push_back({changed[i].start_byte, changed[i].end_byte});
      std::free(changed);
      ts_tree_delete(previous_tree_);
      previous_tree_ = nullptr;
    }
    changed_ = NormalizeRanges(std::move(ranges));
    changed_valid_ = true;
  }
  return changed_;
}

void Document::SetTreeComparison(bool on) {
  compare_trees_ = on;
  if (!on && previous_tree_ != nullptr) {
    ts_tree_delete(previous_tree_);
    previous_tree_ = nullptr;
  }
}

Document::~Document() {
  if (tree_ != nullptr) ts_tree_delete(tree_);
  if (previous_tree_ != nullptr) ts_tree_delete(previous_tree_);
  ts_parser_delete(parser_);
}

TSNode Document::Root() const { return ts_tree_root_node(tree_); }

void Document::Reparse(bool incremental) {
  if (nesting_.TooDeep()) {
    // Parse nothing: an empty module. Incremental parsing resumes from scratch once the
    // nesting is back under the limit.
    refusal_ = "nesting deeper than " + std::to_string(kMaxNestingDepth) +
               " levels (brackets, operators); tvmls does not parse this text (Python's own "
               "limit is 200 nested brackets)";
    refusal_offset_ = nesting_.Estimate().offset;
    TSTree* empty = ts_parser_parse_string(parser_, nullptr, "", 0);
    if (tree_ != nullptr) ts_tree_delete(tree_);
    tree_ = empty;
    return;
  }
  TSTree* old = incremental && refusal_.empty() ? tree_ : nullptr;
  refusal_.clear();
  ts_parser_set_timeout_micros(parser_, kParseBudgetMicros + text_.size());
  auto start = std::chrono::steady_clock::now();
  TSTree* fresh = ts_parser_parse_string(parser_, old, text_.data(), static_cast<uint32_t>(text_.size()));
  last_parse_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (fresh == nullptr) {
    // Out of budget (document.h): refuse the text as for hostile nesting. The parser must be
    // reset, or the next parse would resume this one.
    ts_parser_reset(parser_);
    refusal_ = "parsing did not finish within its time budget (the parser's error recovery loops "
               "on this text); tvmls does not parse it";
    refusal_offset_ = 0;
    fresh = ts_parser_parse_string(parser_, nullptr, "", 0);
  }
  if (tree_ != nullptr) ts_tree_delete(tree_);
  tree_ = fresh;
}

bool Document::ApplyOne(const ByteEdit& edit, std::string* error) {
  if (edit.begin > edit.end) {
    *error = "edit range is reversed (begin " + std::to_string(edit.begin) + " > end " +
             std::to_string(edit.end) + ")";
    return false;
  }
  if (edit.end > text_.size()) {
    *error = "edit range ends at byte " + std::to_string(edit.end) + ", past the end of the " +
             std::to_string(text_.size()) + "-byte document";
    return false;
  }
  if (!IsCodePointBoundary(text_, edit.begin) || !IsCodePointBoundary(text_, edit.end)) {
    *error = "edit range splits a UTF-8 code point";
    return false;
  }
  if (text_.size() - (edit.end - edit.begin) + edit.new_text.size() > UINT32_MAX / 2) {
    *error = "edit would make the document larger than 2 GiB";
    return false;
  }
  // tree-sitter is told that the rest of the enclosing definition and the whitespace after it
  // changed too (they did not: the old and the new text have them alike), see ReparseReach.
  uint32_t reach = ReparseReach(text_, Root(), edit.begin, edit.end) - edit.end;
  TSInputEdit input;
  input.start_byte = edit.begin;
  input.old_end_byte = edit.end + reach;
  input.new_end_byte = edit.begin + static_cast<uint32_t>(edit.new_text.size()) + reach;
  input.start_point = PointAt(lines_, edit.begin);
  input.old_end_point = PointAt(lines_, input.old_end_byte);
  uint32_t new_end = edit.begin + static_cast<uint32_t>(edit.new_text.size());
  std::string removed = text_.substr(edit.begin, edit.end - edit.begin);
  size_t size = text_.size() - (edit.end - edit.begin) + edit.new_text.size();
  if (size > text_.capacity()) ReserveGrowth(&text_, size);
  text_.replace(edit.begin, edit.end - edit.begin, edit.new_text);
  nesting_.Update(text_, edit.begin, new_end, removed);
  lines_.ApplyEdit(edit.begin, edit.end, edit.new_text);
  input.new_end_point = PointAt(lines_, input.new_end_byte);
  ts_tree_edit(tree_, &input);
  return true;
}

EditResult Document::ApplyEdits(const std::vector<ByteEdit>& edits) {
  EditResult result;
  // Validate the whole batch against a dry run of the lengths before touching anything, so that a
  // refused batch leaves the document as it was.
  {
    uint64_t size = text_.size();
    for (const ByteEdit& e : edits) {
      if (e.begin > e.end || e.end > size) {
        result.error = e.begin > e.end ? "edit range is reversed"
                                       : "edit range ends at byte " + std::to_string(e.end) +
                                             ", past the end of the " + std::to_string(size) +
                                             "-byte document";
        return result;
      }
      size = size - (e.end - e.begin) + e.new_text.size();
    }
  }
  // Code point checks need the intermediate texts; undo by restoring a copy only when a later
  // edit of a multi-edit batch fails (single edits are checked before they apply).
  std::string backup;
  LineIndex backup_lines;
  TSTree* backup_tree = nullptr;
  if (edits.size() > 1) {
    backup = text_;
    backup_lines = lines_;
    backup_tree = ts_tree_copy(tree_);
  }
  std::vector<TextRange> spans;
  for (const ByteEdit& e : edits) {
    if (!ApplyOne(e, &result.error)) {
      if (backup_tree != nullptr) {
        text_ = std::move(backup);
        lines_ = std::move(backup_lines);
        ts_tree_delete(tree_);
        tree_ = backup_tree;
      }
      return result;
    }
    uint32_t new_end = e.begin + static_cast<uint32_t>(e.new_text.size());
    ShiftSpans(&spans, e.begin, e.end, new_end);
    spans.push_back({e.begin, new_end});
  }
  if (backup_tree != nullptr) ts_tree_delete(backup_tree);

  ++revision_;
  for (const ByteEdit& e : edits) {
    log_.push_back({revision_, EditSpan{e.begin, e.end, e.begin + static_cast<uint32_t>(e.new_text.size())}});
  }
  if (log_.size() > kMaxEditLog) {
    size_t drop = log_.size() - kMaxEditLog / 2;
    // Keep whole batches: EditsSince answers only for revisions whose later edits are all kept.
    while (drop < log_.size() && log_[drop].first == log_[drop - 1].first) ++drop;
    log_floor_ = log_[drop - 1].first;
    log_.erase(log_.begin(), log_.begin() + static_cast<long>(drop));
  }

  if (previous_tree_ != nullptr) ts_tree_delete(previous_tree_);
  previous_tree_ = compare_trees_ ? ts_tree_copy(tree_) : nullptr;
  Reparse(true);

  result.ok = true;
  result.edited = NormalizeRanges(std::move(spans));
  edited_ = result.edited;
  changed_valid_ = false;
  return result;
}

EditResult Document::ApplyEdits(const std::vector<PositionEdit>& edits, Encoding encoding) {
  // Positions of later edits refer to the text after earlier ones. A single edit (the common
  // case) converts against the document itself; a batch replays on a scratch copy.
  std::vector<ByteEdit> converted;
  converted.reserve(edits.size());
  std::string scratch_text;
  LineIndex scratch_lines;
  const std::string* text = &text_;
  const LineIndex* lines = &lines_;
  for (size_t i = 0; i < edits.size(); ++i) {
    const PositionEdit& e = edits[i];
    auto begin = lines->ToOffset(*text, e.start, encoding);
    auto end = lines->ToOffset(*text, e.end, encoding);
    if (!begin || !end || *begin > *end) {
      EditResult result;
      result.error = "edit range " + std::to_string(e.start.line) + ":" +
                     std::to_string(e.start.column) + "-" + std::to_string(e.end.line) + ":" +
                     std::to_string(e.end.column) +
                     " is outside the document, reversed, or inside a code point";
      return result;
    }
    converted.push_back({*begin, *end, e.new_text});
    if (i + 1 < edits.size()) {
      if (text == &text_) {
        scratch_text = text_;
        scratch_lines = lines_;
        text = &scratch_text;
        lines = &scratch_lines;
      }
      scratch_text.replace(*begin, *end - *begin, e.new_text);
      scratch_lines.ApplyEdit(*begin, *end, e.new_text);
    }
  }
  return ApplyEdits(converted);
}

EditResult Document::ReplaceAll(std::string text) {
  ++revision_;
  log_.clear();
  log_floor_ = revision_;
  text_ = std::move(text);
  ReserveGrowth(&text_, text_.size());
  lines_ = LineIndex(text_);
  nesting_.Reset(text_);
  Reparse(false);
  if (previous_tree_ != nullptr) ts_tree_delete(previous_tree_);
  previous_tree_ = nullptr;
  EditResult result;
  result.ok = true;
  result.edited.push_back({0, static_cast<uint32_t>(text_.size())});
  edited_ = result.edited;
  changed_ = edited_;
  changed_valid_ = true;
  return result;
}

}  // namespace tvmls::analysis
