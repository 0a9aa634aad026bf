// External scanner for the TVMScript grammar: Python layout and string delimiters.
//
// Tree-sitter's generated lexer is context-free; two parts of Python are not:
//   1. Layout. NEWLINE ends a logical line, INDENT/DEDENT open and close blocks. Which of them a
//      line break means depends on the stack of open indentation levels, and inside brackets a
//      line break means nothing at all.
//   2. Strings. Where a string ends depends on how it started (quote char, triple or not, raw or
//      not), and f-strings interleave literal text with `{expression}` interpolations, which can
//      themselves contain strings.
// The scanner keeps both stacks and serialises them so that tree-sitter can restart lexing at any
// token boundary during incremental reparsing.
//
// Layout tokens are zero-width: they sit at the line break (or at end of input), and the line
// break, blank lines and comment lines are then skipped as `extras` by the generated lexer. This
// keeps comments as ordinary `comment` nodes and makes every layout token cheap to re-lex.
//
// Invariants:
//   - `indents` is never empty; its bottom is column 0.
//   - `delimiters` holds one entry per string whose string_start was produced and whose
//     string_end was not.
//   - Every loop that advances also stops at end of input: NUL bytes are ordinary input, so the
//     lookahead being 0 does not mean the input ended.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Mirrors `externals` in grammar.js, in order.
enum TokenType {
  NEWLINE,
  INDENT,
  DEDENT,
  STRING_START,
  STRING_CONTENT,
  STRING_END,
  OPEN_PAREN,
  CLOSE_PAREN,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  OPEN_BRACE,
  CLOSE_BRACE,
  BOUNDARY1,
  BOUNDARY2,
  BOUNDARY3,
  COMMENT,
  STATEMENT_START,
};

// One open string literal, packed into a byte.
enum DelimiterFlag {
  kSingleQuote = 1 << 0,
  kDoubleQuote = 1 << 1,
  kTriple = 1 << 2,
  kRaw = 1 << 3,
  kFormat = 1 << 4,
  kBytes = 1 << 5,
};

// Bounds that keep serialisation inside tree-sitter's buffer (1024 bytes): deeper nesting than
// this degrades (the deepest levels are forgotten) instead of overflowing.
enum {
  kMaxIndents = 300,
  kMaxDelimiters = 64,
  kMaxOpenTypes = 256,
};

typedef struct {
  // Open brackets. Saturates instead of wrapping; the nesting guard in analysis/ keeps real
  // input far below it.
  uint16_t depth;
  // The closing token of each open bracket, innermost last, for the first kMaxOpenTypes levels.
  uint8_t open_types[kMaxOpenTypes];
  uint16_t indents[kMaxIndents];
  uint32_t indent_count;
  uint8_t delimiters[kMaxDelimiters];
  uint32_t delimiter_count;
} Scanner;

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }
static inline bool at_eof(TSLexer *lexer) { return lexer->eof(lexer); }

static inline uint16_t current_indent(const Scanner *s) { return s->indents[s->indent_count - 1]; }

static void push_indent(Scanner *s, uint32_t column) {
  if (column > UINT16_MAX) column = UINT16_MAX;
  if (s->indent_count < kMaxIndents) {
    s->indents[s->indent_count++] = (uint16_t)column;
  } else {
    s->indents[kMaxIndents - 1] = (uint16_t)column;
  }
}

static void push_delimiter(Scanner *s, uint8_t delimiter) {
  if (s->delimiter_count < kMaxDelimiters) {
    s->delimiters[s->delimiter_count++] = delimiter;
  } else {
    s->delimiters[kMaxDelimiters - 1] = delimiter;
  }
}

// Records an open bracket whose closing token is `closer`.
static void open_bracket(Scanner *s, enum TokenType closer) {
  if (s->depth < kMaxOpenTypes) s->open_types[s->depth] = (uint8_t)closer;
  if (s->depth < UINT16_MAX) s->depth++;
}

// Records a closing bracket. It closes the innermost open bracket of its kind and every bracket
// opened after that one: in `f(a, [b)` the `)` closes the `[` too, as the parser does when it
// recovers with a missing `]`. A closer that matches no open bracket changes nothing (the parser
// skips it).
static void close_bracket(Scanner *s, enum TokenType closer) {
  if (s->depth == 0) return;
  if (s->depth > kMaxOpenTypes) {
    // The kinds of the deepest levels are forgotten.
    s->depth--;
    return;
  }
  for (uint32_t level = s->depth; level > 0; level--) {
    if (s->open_types[level - 1] == (uint8_t)closer) {
      s->depth = (uint16_t)(level - 1);
      return;
    }
  }
}

static inline int32_t end_char(uint8_t delimiter) {
  return (delimiter & kDoubleQuote) ? '"' : '\'';
}

// Scans the text of the innermost open string up to its end, an interpolation, or a line break
// that ends a single-quoted string. Produces STRING_CONTENT for the text, or STRING_END when the
// closing quote comes first.
static bool scan_string_content(Scanner *s, TSLexer *lexer, const bool *valid_symbols) {
  uint8_t delimiter = s->delimiters[s->delimiter_count - 1];
  int32_t quote = end_char(delimiter);
  bool triple = delimiter & kTriple;
  bool raw = delimiter & kRaw;
  bool format = delimiter & kFormat;
  bool has_content = false;

  while (!at_eof(lexer)) {
    int32_t c = lexer->lookahead;
    if (format && (c == '{' || c == '}')) {
      lexer->mark_end(lexer);
      advance(lexer);
      if (!at_eof(lexer) && lexer->lookahead == c) {
        // `{{` and `}}` are literal braces.
        advance(lexer);
        has_content = true;
        lexer->mark_end(lexer);
        continue;
      }
      // An interpolation starts (or a stray `}` the grammar will reject).
      if (has_content) {
        lexer->result_symbol = STRING_CONTENT;
        return true;
      }
      if (c == '{' && valid_symbols[OPEN_BRACE]) {
        // The interpolation's `{` is a bracket like any other: count it.
        lexer->mark_end(lexer);
        open_bracket(s, CLOSE_BRACE);
        lexer->result_symbol = OPEN_BRACE;
        return true;
      }
      return false;
    }
    if (c == '\\') {
      advance(lexer);
      has_content = true;
      if (at_eof(lexer)) continue;
      int32_t next = lexer->lookahead;
      if (format && (next == '{' || next == '}')) {
        // A backslash does not escape f-string braces: `\{{` is a backslash and a literal brace.
        continue;
      }
      if (!raw && format && next == 'N') {
        // `\N{NAME}` in an f-string: the braces belong to the escape.
        advance(lexer);
        if (!at_eof(lexer) && lexer->lookahead == '{') {
          while (!at_eof(lexer) && lexer->lookahead != '}' && lexer->lookahead != '\n' &&
                 lexer->lookahead != quote) {
            advance(lexer);
          }
          if (!at_eof(lexer) && lexer->lookahead == '}') advance(lexer);
        }
        continue;
      }
      // The escaped character (raw strings keep the backslash, but it still protects a quote
      // or a line break from ending the string).
      if (next == '\r') {
        advance(lexer);
        if (!at_eof(lexer) && lexer->lookahead == '\n') advance(lexer);
      } else {
        advance(lexer);
      }
      continue;
    }
    if (c == '\n' && !triple) {
      // An unterminated single-line string ends at the line break; the missing quote becomes
      // a MISSING string_end node, and the next line parses normally.
      lexer->mark_end(lexer);
      if (has_content) {
        lexer->result_symbol = STRING_CONTENT;
        return true;
      }
      return false;
    }
    if (c == quote) {
      lexer->mark_end(lexer);
      if (triple) {
        advance(lexer);
        if (at_eof(lexer) || lexer->lookahead != quote) {
          has_content = true;
          continue;
        }
        advance(lexer);
        if (at_eof(lexer) || lexer->lookahead != quote) {
          has_content = true;
          continue;
        }
        if (has_content) {
          lexer->result_symbol = STRING_CONTENT;
          return true;
        }
        advance(lexer);
        lexer->mark_end(lexer);
        s->delimiter_count--;
        lexer->result_symbol = STRING_END;
        return true;
      }
      if (has_content) {
        lexer->result_symbol = STRING_CONTENT;
        return true;
      }
      advance(lexer);
      lexer->mark_end(lexer);
      s->delimiter_count--;
      lexer->result_symbol = STRING_END;
      return true;
    }
    advance(lexer);
    has_content = true;
  }
  // End of input inside a string.
  lexer->mark_end(lexer);
  if (has_content) {
    lexer->result_symbol = STRING_CONTENT;
    return true;
  }
  return false;
}

// Scans a string prefix and opening quote(s): `"`, `'''`, `rb"`, `F'`, ...
// The delimiter flags of one string prefix letter; false for a letter that is none.
static bool prefix_flag(int32_t c, uint8_t *delimiter) {
  if (c == 'r' || c == 'R') {
    *delimiter |= kRaw;
  } else if (c == 'f' || c == 'F') {
    *delimiter |= kFormat;
  } else if (c == 'b' || c == 'B') {
    *delimiter |= kBytes;
  } else if (c != 'u' && c != 'U') {  // `u`: Python 2's unicode marker, accepted
    return false;
  }
  return true;
}

static bool scan_string_quote(Scanner *s, TSLexer *lexer, uint8_t delimiter);

static bool scan_string_start(Scanner *s, TSLexer *lexer) {
  uint8_t delimiter = 0;
  int prefix_length = 0;
  while (prefix_flag(lexer->lookahead, &delimiter)) {
    if (++prefix_length > 2) return false;
    advance(lexer);
  }
  return scan_string_quote(s, lexer, delimiter);
}

// After a string's prefix (consumed, its flags in `delimiter`): the opening quote.
static bool scan_string_quote(Scanner *s, TSLexer *lexer, uint8_t delimiter) {
  if (at_eof(lexer)) return false;
  int32_t quote = lexer->lookahead;
  if (quote != '"' && quote != '\'') return false;
  delimiter |= quote == '"' ? kDoubleQuote : kSingleQuote;
  advance(lexer);
  lexer->mark_end(lexer);
  if (!at_eof(lexer) && lexer->lookahead == quote) {
    advance(lexer);
    if (!at_eof(lexer) && lexer->lookahead == quote) {
      advance(lexer);
      lexer->mark_end(lexer);
      delimiter |= kTriple;
    }
    // Otherwise this is the empty string `""`: the token is only the opening quote and the
    // next call produces string_end.
  }
  push_delimiter(s, delimiter);
  lexer->result_symbol = STRING_START;
  return true;
}

static bool word_in(const char *word, size_t length, const char *const *words, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (strlen(words[i]) == length && memcmp(words[i], word, length) == 0) return true;
  }
  return false;
}

// Keywords that continue the previous compound statement: no list boundary may precede them,
// and a line end before them is legitimate.
static const char *const kClauseWords[] = {"else", "elif", "except", "finally"};
enum { kClauseWordCount = sizeof(kClauseWords) / sizeof(kClauseWords[0]) };

// Decides the boundary level (0 = none, 1..3) before the statement at the lexer position, by an
// FNV-1a hash of its first line, or of its decorator lines and the line after them. Only looks
// ahead: the caller has already marked the token end.
static int boundary_level(TSLexer *lexer) {
  enum { kMaxLines = 6, kMaxBytes = 400 };
  uint32_t hash = 2166136261u;
  char word[8];
  size_t word_length = 0;
  bool in_word = true;
  int lines = 0;
  size_t bytes = 0;
  bool decorator = lexer->lookahead == '@';
  while (!at_eof(lexer) && bytes < kMaxBytes) {
    int32_t c = lexer->lookahead;
    if (in_word) {
      if (((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') &&
          word_length < sizeof(word)) {
        word[word_length++] = (char)c;
      } else {
        in_word = false;
        if (word_in(word, word_length, kClauseWords, kClauseWordCount) &&
            !(c == '_' || (c >= '0' && c <= '9'))) {
          return 0;
        }
      }
    }
    if (c == '\n') {
      lines++;
      if (!decorator || lines >= kMaxLines) break;
      // A decorator: hash the next line too (it names the function or class).
      advance(lexer);
      while (!at_eof(lexer) && (lexer->lookahead == ' ' || lexer->lookahead == '\t')) {
        advance(lexer);
      }
      decorator = !at_eof(lexer) && lexer->lookahead == '@';
      continue;
    }
    hash = (hash ^ (uint32_t)(c & 0xff)) * 16777619u;
    hash = (hash ^ (uint32_t)((c >> 8) & 0xff)) * 16777619u;
    bytes++;
    advance(lexer);
  }
  if ((hash & 0xfff) == 0) return 3;
  if ((hash & 0xff) == 0) return 2;
  if ((hash & 0xf) == 0) return 1;
  return 0;
}

// Reads the identifier-like word at the lexer position into `word` (lower bytes only).
static size_t peek_word(TSLexer *lexer, char *word, size_t capacity) {
  size_t length = 0;
  while (!at_eof(lexer) && length < capacity) {
    int32_t c = lexer->lookahead;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'))) {
      break;
    }
    word[length++] = (char)c;
    advance(lexer);
  }
  return length;
}

// The next line continues a compound statement or a decorated definition (`else:`, `except`,
// `case`, `def` after a decorator, ...): a line end before it is legitimate even though no
// statement starts there. Advances the lexer (the caller has marked the token end).
static bool continues_clause(TSLexer *lexer) {
  // Besides the clause keywords: `case` in a match block, and what follows a decorator.
  static const char *const kWords[] = {"case", "def", "class", "async"};
  if (lexer->lookahead == '@') return true;
  char word[16];
  size_t length = peek_word(lexer, word, sizeof(word));
  return word_in(word, length, kClauseWords, kClauseWordCount) ||
         word_in(word, length, kWords, sizeof(kWords) / sizeof(kWords[0]));
}

// After the first word of a line: the rest of an assignment's target and its `=` or annotation
// (`lv51: R.Tuple(`, `gv = R.call_tir(`, `self.x += 1`): a dotted name, then spaces, then `=`
// (not `==`), an augmented `op=`, or `: ` (a colon and a space, not `:=`). Inside brackets, a line
// at the statement's own indentation that starts so is the next statement typed below one whose
// bracket is still open (`y: R.Tensor(` then Enter); the only code with such a line inside
// brackets is a keyword argument or dict entry spelled with spaces (`x = 1`, `a: 1`) and not
// indented past the statement, which formatters never write. Advances the lexer.
static bool starts_binding(TSLexer *lexer) {
  enum { kMaxWordBytes = 256 };
  for (size_t bytes = 0;; bytes++) {
    int32_t c = lexer->lookahead;
    bool word_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
    if (word_char && bytes < kMaxWordBytes && !at_eof(lexer)) {
      advance(lexer);
      continue;
    }
    if (c != '.' || at_eof(lexer)) break;
    advance(lexer);
    c = lexer->lookahead;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return false;
  }
  bool spaced = false;
  while (!at_eof(lexer) && (lexer->lookahead == ' ' || lexer->lookahead == '\t')) {
    spaced = true;
    advance(lexer);
  }
  if (at_eof(lexer)) return false;
  int32_t c = lexer->lookahead;
  if (c == ':') {
    advance(lexer);
    return !at_eof(lexer) && (lexer->lookahead == ' ' || lexer->lookahead == '\t');
  }
  if (c == '=') {
    advance(lexer);
    // `x = 1` is a binding; `x=1` (a keyword argument's spelling) and `x == 1` are not.
    return spaced && !at_eof(lexer) && lexer->lookahead != '=';
  }
  if (strchr("+-*/%&|^@", c) != NULL && spaced) {
    advance(lexer);
    if (!at_eof(lexer) && (lexer->lookahead == '*' || lexer->lookahead == '/') && lexer->lookahead == c) {
      advance(lexer);  // `**=`, `//=`
    }
    return !at_eof(lexer) && lexer->lookahead == '=';
  }
  if ((c == '<' || c == '>') && spaced) {
    advance(lexer);
    if (at_eof(lexer) || lexer->lookahead != c) return false;
    advance(lexer);
    return !at_eof(lexer) && lexer->lookahead == '=';
  }
  return false;
}

// `word` (just peeked, the lexer after it) is a keyword that only begins a statement and never
// continues an expression: valid Python has no such line inside brackets.
static bool is_statement_keyword(TSLexer *lexer, const char *word, size_t length, size_t capacity) {
  static const char *const kWords[] = {"def", "class", "return", "import", "pass", "break",
                                       "continue", "raise", "del", "global", "nonlocal",
                                       "assert", "while", "with", "try", "except", "finally",
                                       "elif"};
  int32_t c = lexer->lookahead;
  // A keyword only when a space, `:` or the line end follows (`return_value` is a name).
  return length > 0 && length < capacity &&
         (c == ' ' || c == '\t' || c == ':' || c == '\n' || c == '\r' || c == '(' || at_eof(lexer)) &&
         word_in(word, length, kWords, sizeof(kWords) / sizeof(kWords[0]));
}

// The next line starts with a keyword that only begins a statement, a decorator, or a binding.
// Advances the lexer.
static bool starts_statement(TSLexer *lexer) {
  if (lexer->lookahead == '@') {
    advance(lexer);
    return (lexer->lookahead >= 'a' && lexer->lookahead <= 'z') ||
           (lexer->lookahead >= 'A' && lexer->lookahead <= 'Z') || lexer->lookahead == '_';
  }
  char word[16];
  size_t length = peek_word(lexer, word, sizeof(word));
  if (length == 0) return false;
  if (is_statement_keyword(lexer, word, length, sizeof(word))) return true;
  return starts_binding(lexer);
}

// Ends brackets that were never closed, at the start of a line that cannot be inside them: the
// innermost one with a zero-width closer (`R.add(x,` gets its `)`; the tree keeps its shape and
// the empty token is reported as a missing bracket). Also where the parser cannot take the closer
// (`A[` then Enter): tree-sitter then inserts the one missing token that lets it (`A[<missing>]`),
// and the error stays on that line. A NEWLINE there instead sent error recovery on a search that
// wrapped the whole file in one ERROR (a keystroke at line 32,660 of a 100k-line file: 100 ms of
// reparse, then every statement found again). During error recovery all brackets end at once
// with a NEWLINE, so that the layout of the rest of the file comes back.
static bool end_open_brackets(Scanner *s, TSLexer *lexer, bool error_recovery) {
  if (s->depth <= kMaxOpenTypes) {
    enum TokenType closer = (enum TokenType)s->open_types[s->depth - 1];
    if (!error_recovery) {
      s->depth--;
      lexer->result_symbol = closer;
      return true;
    }
  }
  s->depth = 0;
  lexer->result_symbol = NEWLINE;
  return true;
}

// Produces layout tokens (NEWLINE, INDENT, DEDENT) at a line break or at end of input, and
// otherwise string starts. Both need the whitespace before the token skipped first.
static bool scan(Scanner *s, TSLexer *lexer, const bool *valid_symbols) {
  // During error recovery tree-sitter marks every symbol valid. Then no string content is
  // produced (inventing it would swallow the rest of the file) and no NEWLINE either.
  bool error_recovery = valid_symbols[STRING_CONTENT] && valid_symbols[INDENT];
  bool within_brackets = s->depth > 0;

  if (valid_symbols[STRING_CONTENT] && s->delimiter_count > 0 && !error_recovery) {
    return scan_string_content(s, lexer, valid_symbols);
  }

  // Layout tokens end where the scan starts: they are zero-width.
  lexer->mark_end(lexer);

  bool found_end_of_line = false;
  bool dropped_levels = false;
  uint32_t indent = 0;
  int64_t first_comment_indent = -1;
  for (;;) {
    if (at_eof(lexer)) {
      found_end_of_line = true;
      indent = 0;
      break;
    }
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      found_end_of_line = true;
      indent = 0;
      skip(lexer);
    } else if (c == ' ') {
      indent++;
      skip(lexer);
    } else if (c == '\t') {
      indent = (indent / 8 + 1) * 8;
      skip(lexer);
    } else if (c == '\r' || c == '\f') {
      if (c == '\f') indent = 0;
      skip(lexer);
    } else if (c == '#') {
      // A trailing comment on a code line: the generated lexer takes it first.
      if (!found_end_of_line) return false;
      // A comment line does not change the layout, but the first one decides whether a pending
      // dedent comes before it (it belongs to the outer block) or after it (to the inner one).
      if (first_comment_indent == -1) first_comment_indent = (int64_t)indent;
      while (!at_eof(lexer) && lexer->lookahead != '\n') skip(lexer);
      indent = 0;
    } else if (c == '\\') {
      // An explicit line continuation joins the lines: no layout token here.
      skip(lexer);
      if (!at_eof(lexer) && lexer->lookahead == '\r') skip(lexer);
      if (at_eof(lexer) || lexer->lookahead != '\n') return false;
      skip(lexer);
    } else {
      break;
    }
  }

  if (found_end_of_line) {
    // A single-quoted string still open at a line end was never closed (its content scan stops
    // there): its delimiter goes, so that the state after the line is the state before the
    // string. Otherwise the state differs at every later token and tree-sitter can reuse no
    // subtree after the edit: a quote typed at line 2,238 of 100,000 re-parsed the rest of the
    // file (1.3 s). Not for f-strings, whose replacement fields may span lines (Python 3.12).
    while (s->delimiter_count > 0 && (s->delimiters[s->delimiter_count - 1] & (kTriple | kFormat)) == 0) {
      s->delimiter_count--;
    }
    if (indent > current_indent(s) && valid_symbols[INDENT] && !error_recovery) {
      push_indent(s, indent);
      lexer->result_symbol = INDENT;
      return true;
    }
    if (indent < current_indent(s) && valid_symbols[DEDENT] && s->indent_count > 1 &&
        !within_brackets && first_comment_indent < (int64_t)current_indent(s)) {
      s->indent_count--;
      lexer->result_symbol = DEDENT;
      return true;
    }
    // The parser expects no block to end here, yet the stack holds deeper levels: error
    // recovery closed those blocks without their DEDENTs, or never opened them (the body under a
    // broken `with R.` gets no INDENT). Drop them at a statement start: stale levels make the
    // state differ from the old tree's at every later token, and tree-sitter then reuses nothing
    // to the end of the file. The token returned below keeps the new state.
    if (indent < current_indent(s) && !valid_symbols[DEDENT] && valid_symbols[STATEMENT_START] &&
        !within_brackets && !error_recovery && first_comment_indent == -1) {
      while (s->indent_count > 1 && current_indent(s) > indent) {
        s->indent_count--;
        dropped_levels = true;
      }
    }
    if (valid_symbols[NEWLINE] && !error_recovery) {
      lexer->result_symbol = NEWLINE;
      return true;
    }
    // Inside brackets, a line dedented to the statement's block that starts with a statement
    // keyword means the brackets above were never closed: end the broken statement there with
    // a NEWLINE the parser does not expect, so that error recovery stays inside it instead of
    // swallowing the following lines. Also during error recovery, where the depth must be reset
    // for the layout of the rest of the file to come back.
    if (within_brackets && first_comment_indent == -1 &&
        (at_eof(lexer) || indent <= current_indent(s))) {
      int32_t c = lexer->lookahead;
      bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '@';
      if (at_eof(lexer) || word) {
        // starts_statement moves the lexer: this path always returns.
        if (at_eof(lexer) || starts_statement(lexer)) return end_open_brackets(s, lexer, error_recovery);
        return false;
      }
    }
    // Inside brackets, a line indented deeper than the statement that starts with a keyword that
    // only begins a statement: the body below a signature whose bracket is still open
    // (`def f(x: R.Tensor((4,), ` then `with R.dataflow():`). Peeking the word moves the lexer,
    // so a string prefix met on the way (`f"`, `rb'`) is scanned on as the string start it is.
    if (within_brackets && first_comment_indent == -1 && !at_eof(lexer) && indent > current_indent(s)) {
      int32_t c = lexer->lookahead;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
        char word[16];
        size_t length = peek_word(lexer, word, sizeof(word));
        if (is_statement_keyword(lexer, word, length, sizeof(word))) {
          return end_open_brackets(s, lexer, error_recovery);
        }
        uint8_t delimiter = 0;
        bool prefix = length <= 2;
        for (size_t i = 0; i < length && prefix; i++) prefix = prefix_flag(word[i], &delimiter);
        if (prefix && valid_symbols[STRING_START] && first_comment_indent == -1) {
          return scan_string_quote(s, lexer, delimiter);
        }
        return false;
      }
    }
    if (!error_recovery && first_comment_indent == -1) {
      bool at_statement_start = valid_symbols[STATEMENT_START];
      // Between two statements of one list: maybe a chain boundary (see grammar.js).
      if (at_statement_start && !at_eof(lexer) && indent == current_indent(s) &&
          (valid_symbols[BOUNDARY1] || valid_symbols[BOUNDARY2] || valid_symbols[BOUNDARY3])) {
        // Only lines starting with a name, keyword or decorator are boundary candidates: a
        // string or bracket token must be scanned from here, and hashing moves the lexer.
        int32_t c = lexer->lookahead;
        bool candidate = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '@') &&
                         strchr("rRbBuUfF", c) == NULL;
        if (candidate) {
          // A boundary is zero-width where the statement starts, after the line breaks and
          // indentation, not at the end of the line before as the layout tokens are: the blank
          // lines become its padding. tree-sitter 0.20 reuses a node only if the scanner state
          // before it is the one the parser has; it moves its reuse cursor past every old
          // subtree that ends at the parser's position, zero-width tokens included. When an
          // edit made the parser lex up to the end of a block (`return gv|`), the cursor stood
          // past the old NEWLINE and DEDENTs there while the parser had not yet lexed its own:
          // the states differed, the next statement was skipped and lexed token by token, and at
          // its end the same happened again, to the end of the file (a new line after the last
          // `return` of a class at line 54,483 of 100k: 1.5 s). A boundary that begins at the
          // line end but ends at the statement is met only after the parser has lexed the
          // layout tokens, so reuse resumes at the next boundary (2 ms).
          lexer->mark_end(lexer);
          int level = boundary_level(lexer);
          if (level == 0 && dropped_levels) level = 1;
          for (; level > 0; level--) {
            enum TokenType token = (enum TokenType)(BOUNDARY1 + level - 1);
            if (valid_symbols[token]) {
              lexer->result_symbol = token;
              return true;
            }
          }
          return false;
        }
      }
      // An over-indented statement is not flagged here: an INDENT the parser does not expect
      // sends error recovery on long searches (10+ ms per keystroke). The statement parses as
      // a sibling and analysis/syntax/syntax_errors.cc reports its indentation.
      // A statement broken by a line end outside brackets (`lv = R.` then Enter): a NEWLINE
      // the parser does not expect makes the error visible and keeps the next line its own
      // statement. continues_clause moves the lexer, so this path always returns.
      // A clause or a decorated definition goes on at the statement's own column: a dedented
      // line ends the broken statement whatever it starts with (`for i in range(4):` typed as a
      // function's last line, the next class's `@I.ir_module` below it).
      if (!at_statement_start && !within_brackets) {
        int32_t c = lexer->lookahead;
        bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '@';
        if (at_eof(lexer) || !word || indent < current_indent(s) || !continues_clause(lexer)) {
          lexer->result_symbol = NEWLINE;
          return true;
        }
        return false;
      }
    }
  }

  if (first_comment_indent == -1 && !at_eof(lexer)) {
    // Brackets: tracked so that line ends inside them are whitespace.
    int32_t c = lexer->lookahead;
    enum TokenType bracket = c == '(' ? OPEN_PAREN : c == '[' ? OPEN_BRACKET : c == '{' ? OPEN_BRACE
                           : c == ')' ? CLOSE_PAREN : c == ']' ? CLOSE_BRACKET : c == '}' ? CLOSE_BRACE
                           : NEWLINE;
    if (bracket != NEWLINE && valid_symbols[bracket]) {
      advance(lexer);
      lexer->mark_end(lexer);
      if (bracket == OPEN_PAREN || bracket == OPEN_BRACKET || bracket == OPEN_BRACE) {
        open_bracket(s, (enum TokenType)(bracket + 1));
      } else {
        close_bracket(s, bracket);
      }
      lexer->result_symbol = bracket;
      return true;
    }
  }

  // A skipped comment must come back as a node: let the generated lexer take it, and scan the
  // string start on the next call.
  if (first_comment_indent == -1 && valid_symbols[STRING_START]) {
    return scan_string_start(s, lexer);
  }
  return false;
}

void *tree_sitter_tvmscript_external_scanner_create(void) {
  Scanner *s = calloc(1, sizeof(Scanner));
  if (s == NULL) abort();
  s->indent_count = 1;
  return s;
}

void tree_sitter_tvmscript_external_scanner_destroy(void *payload) { free(payload); }

// Layout: [bracket depth: uint16 LE][closer of each open bracket, up to kMaxOpenTypes]
// [delimiter_count: 1 byte][delimiters...][indents as
// little-endian uint16, from the second level on; the bottom level 0 is implicit].
unsigned tree_sitter_tvmscript_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = payload;
  unsigned size = 0;
  buffer[size++] = (char)(s->depth & 0xff);
  buffer[size++] = (char)(s->depth >> 8);
  uint32_t types = s->depth < kMaxOpenTypes ? s->depth : kMaxOpenTypes;
  memcpy(buffer + size, s->open_types, types);
  size += types;
  uint32_t delimiters = s->delimiter_count;
  if (delimiters > 255) delimiters = 255;
  buffer[size++] = (char)delimiters;
  memcpy(buffer + size, s->delimiters, delimiters);
  size += delimiters;
  for (uint32_t i = 1; i < s->indent_count &&
                       size + 2 <= TREE_SITTER_SERIALIZATION_BUFFER_SIZE; i++) {
    buffer[size++] = (char)(s->indents[i] & 0xff);
    buffer[size++] = (char)(s->indents[i] >> 8);
  }
  return size;
}

void tree_sitter_tvmscript_external_scanner_deserialize(void *payload, const char *buffer,
                                                        unsigned length) {
  Scanner *s = payload;
  s->indent_count = 1;
  s->indents[0] = 0;
  s->delimiter_count = 0;
  s->depth = 0;
  if (length < 3) return;
  unsigned size = 0;
  s->depth = (uint16_t)((uint8_t)buffer[0] | ((uint8_t)buffer[1] << 8));
  size = 2;
  uint32_t types = s->depth < kMaxOpenTypes ? s->depth : kMaxOpenTypes;
  if (size + types > length) types = length - size;
  memcpy(s->open_types, buffer + size, types);
  size += types;
  uint32_t delimiters = (uint8_t)buffer[size++];
  if (delimiters > kMaxDelimiters) delimiters = kMaxDelimiters;
  if (size + delimiters > length) delimiters = length - size;
  memcpy(s->delimiters, buffer + size, delimiters);
  s->delimiter_count = delimiters;
  size += delimiters;
  while (size + 2 <= length && s->indent_count < kMaxIndents) {
    uint16_t column = (uint16_t)((uint8_t)buffer[size] | ((uint8_t)buffer[size + 1] << 8));
    s->indents[s->indent_count++] = column;
    size += 2;
  }
}

bool tree_sitter_tvmscript_external_scanner_scan(void *payload, TSLexer *lexer,
                                                 const bool *valid_symbols) {
  return scan(payload, lexer, valid_symbols);
}
