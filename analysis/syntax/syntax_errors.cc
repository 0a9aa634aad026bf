// ERROR / MISSING collection and S-expression printing.
#include "syntax/syntax_errors.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "vocab/text_scan.h"

namespace tvmls::analysis {

namespace {

constexpr size_t kMaxSnippet = 24;

// tree-sitter 0.20 has no ts_node_is_error; ERROR nodes carry the reserved symbol 65535.
bool IsErrorNode(TSNode node) { return ts_node_symbol(node) == static_cast<TSSymbol>(-1); }

bool IsClosingBracket(const char* type) {
  return type[0] != '\0' && type[1] == '\0' && (type[0] == ')' || type[0] == ']' || type[0] == '}');
}

// A short, single-line excerpt of `text` for messages.
std::string Snippet(std::string_view text) {
  size_t newline = text.find_first_of("\r\n");
  bool cut = newline != std::string_view::npos || text.size() > kMaxSnippet;
  text = text.substr(0, std::min({newline, kMaxSnippet, text.size()}));
  // Do not end inside a UTF-8 sequence.
  while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) {
    text.remove_suffix(1);
  }
  if (!text.empty() && static_cast<unsigned char>(text.back()) >= 0xC0) text.remove_suffix(1);
  std::string out(text);
  for (char& c : out) {
    if (c == '\0' || c == '\t') c = ' ';
  }
  if (cut) out += "...";
  return out;
}

std::string DescribeMissing(TSNode node) {
  const char* type = ts_node_type(node);
  if (ts_node_is_named(node)) {
    std::string name = type;
    if (name == "string_end") return "missing closing quote";
    return "missing " + name;
  }
  return std::string("missing `") + type + "`";
}

std::string DescribeError(TSNode node, std::string_view text) {
  uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (end <= begin || begin >= text.size()) return "unexpected indentation or line break";
  std::string_view span = text.substr(begin, end - begin);
  // Layout-only errors (an unexpected indent or line break) have blank text.
  if (span.find_first_not_of(" \t\r\n\f") == std::string_view::npos) {
    return "unexpected indentation or line break";
  }
  size_t first = span.find_first_not_of(" \t\r\n\f");
  return "unexpected `" + Snippet(span.substr(first)) + "`";
}

bool IsStatementList(const char* type) {
  return std::strcmp(type, "block") == 0 || std::strcmp(type, "module") == 0;
}

void CheckIndentation(TSNode list, std::string_view text, std::vector<SyntaxError>* errors) {
  if (ts_node_named_child_count(list) == 0) return;
  IndentationCheck check;
  TSTreeCursor cursor = ts_tree_cursor_new(list);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      check.Visit(ts_tree_cursor_current_node(&cursor), text, errors);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace

// Indentation of the line holding `offset` (tabs to the next multiple of 8, as the scanner),
// or -1 when something other than blanks precedes `offset` on its line.
int64_t IndentationAt(std::string_view text, uint32_t offset) {
  size_t line = text.rfind('\n', offset == 0 ? std::string_view::npos : offset - 1);
  size_t i = line == std::string_view::npos ? 0 : line + 1;
  int64_t indent = 0;
  for (; i < offset; ++i) {
    char c = text[i];
    if (c == ' ') ++indent;
    else if (c == '\t') indent = (indent / 8 + 1) * 8;
    else if (c == '\f') indent = 0;
    else if (c != '\r') return -1;
  }
  return indent;
}

// The scanner lets statements at another indentation parse as siblings (see grammar/src/scanner.c);
// this reports them.
void IndentationCheck::Visit(TSNode child, std::string_view text, std::vector<SyntaxError>* errors) {
  if (!ts_node_is_named(child) || std::strcmp(ts_node_type(child), "comment") == 0 ||
      ts_node_is_missing(child)) {
    return;
  }
  uint32_t at = ts_node_start_byte(child);
  int64_t indent = IndentationAt(text, at);
  if (indent < 0) return;  // `def f(): x = 1` and the like: not at a line start.
  Check(at, indent, errors);
}

void IndentationCheck::Check(uint32_t at, int64_t indent, std::vector<SyntaxError>* errors) {
  if (expected_ < 0) {
    expected_ = indent;
  } else if (indent != expected_) {
    errors->push_back({{at, at}, indent > expected_ ? "unexpected indentation" : "unindent does not match the block"});
  }
}

// A missing closer is reported where the scanner inserted it, which can be after a trailing
// comment or on a later comment-only line; move it back to just after the last code character.
static uint32_t BeforeTrailingComments(std::string_view text, uint32_t at) {
  for (int guard = 0; guard < 1000 && at > 0; ++guard) {
    size_t line_begin = text.rfind('\n', at - 1);
    line_begin = line_begin == std::string_view::npos ? 0 : line_begin + 1;
    // A '#' outside quotes on this line before `at` starts a comment.
    size_t hash = vocab::FindOutsideStrings(text.substr(line_begin, at - line_begin), '#');
    size_t end = hash == std::string_view::npos ? at : line_begin + hash;
    while (end > line_begin && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r')) --end;
    if (end > line_begin) return static_cast<uint32_t>(end);
    if (line_begin == 0) return at;
    at = static_cast<uint32_t>(line_begin - 1);  // the previous line's end
    while (at > 0 && text[at - 1] == '\r') --at;
    if (at == 0) return 0;
    // Continue only if the previous line's content (up to `at`) is code or a comment: loop.
  }
  return at;
}

std::vector<SyntaxError> CollectSyntaxErrors(TSNode root, std::string_view text) {
  return CollectSyntaxErrors(root, text, nullptr);
}

std::vector<SyntaxError> CollectSyntaxErrors(TSNode root, std::string_view text,
                                             const std::function<bool(TSNode)>& skip) {
  std::vector<SyntaxError> errors;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  std::vector<uint32_t> ancestors;  // start bytes of the nodes the cursor is inside
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool descend = false;
    if (skip && skip(node)) {
      // Provided by the caller.
    } else if (ts_node_is_missing(node)) {
      uint32_t at = ts_node_start_byte(node);
      errors.push_back({{at, at}, DescribeMissing(node)});
    } else if (IsErrorNode(node)) {
      // Point at the first character of the error, not at the line break before it.
      uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
      while (begin < end && begin < text.size() &&
             (text[begin] == ' ' || text[begin] == '\t' || text[begin] == '\r' || text[begin] == '\n')) {
        ++begin;
      }
      if (begin == end) begin = ts_node_start_byte(node);
      errors.push_back({{begin, end}, DescribeError(node, text)});
    } else if (!ts_node_is_named(node) && ts_node_start_byte(node) == ts_node_end_byte(node) &&
               IsClosingBracket(ts_node_type(node))) {
      // The scanner closes brackets left open before a dedented statement with zero-width
      // closers (grammar/src/scanner.c): the tree keeps its shape; the bracket is missing.
      // Moved back over comments, but never before the bracketed node it closes: where the
      // parser and the text's comment rule disagree (a NUL byte ends a comment for the parser),
      // the walk back could leave the statement, even the function, that holds the error.
      // (The cursor's parent: ts_node_parent of a zero-width node can be a neighbour.) A closer
      // that is itself the node collected (a loose token under a root ERROR, which the analysis
      // takes as a statement of its own) stays where it is: a statement's errors lie inside it,
      // and the text before it may change while it is kept (found by an incremental fuzzer run:
      // `regressions/incremental/loose_closer_after_inserted_comment`).
      uint32_t floor = ancestors.empty() ? ts_node_start_byte(root) : ancestors.back();
      uint32_t at = std::max(floor, BeforeTrailingComments(text, ts_node_start_byte(node)));
      errors.push_back({{at, at}, std::string("missing `") + ts_node_type(node) + "`"});
    } else if (std::strcmp(ts_node_type(node), "block") == 0 && ts_node_named_child_count(node) == 0 &&
               ts_node_start_byte(node) == ts_node_end_byte(node)) {
      // The grammar accepts `def f():` with nothing under it (an empty block) so that the next
      // statement still parses; Python does not.
      uint32_t at = ts_node_start_byte(node);
      errors.push_back({{at, at}, "expected an indented block"});
    } else {
      // Blocks can be anywhere, so every node is visited.
      if (IsStatementList(ts_node_type(node))) CheckIndentation(node, text, &errors);
      descend = true;
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      ancestors.push_back(ts_node_start_byte(node));
      continue;
    }
    // Next sibling, or climb until one exists.
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
      if (!ancestors.empty()) ancestors.pop_back();
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  std::sort(errors.begin(), errors.end(), [](const SyntaxError& a, const SyntaxError& b) {
    return a.range.begin < b.range.begin;
  });
  return errors;
}

std::string ToSexp(TSNode root) {
  std::string out;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  // Tracks, per depth, whether the node at that depth was printed (named) and so needs a ')'.
  std::vector<bool> printed;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool visible = ts_node_is_named(node) || ts_node_is_missing(node);
    if (visible) {
      if (!out.empty()) out += ' ';
      const char* field = ts_tree_cursor_current_field_name(&cursor);
      if (field != nullptr) {
        out += field;
        out += ": ";
      }
      out += '(';
      if (ts_node_is_missing(node)) {
        out += "MISSING ";
        if (ts_node_is_named(node)) {
          out += ts_node_type(node);
        } else {
          out += '"';
          out += ts_node_type(node);
          out += '"';
        }
      } else {
        out += ts_node_type(node);
      }
    }
    printed.push_back(visible);
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    // Leaf: close it and climb.
    for (;;) {
      if (printed.back()) out += ')';
      printed.pop_back();
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return out;
      }
    }
  }
}

}  // namespace tvmls::analysis
