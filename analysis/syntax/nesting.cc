// Nesting guard.
#include "syntax/nesting.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "vocab/text_scan.h"

namespace tvmls::analysis {

namespace {

constexpr bool IsWordStart(unsigned char c) {
  return c == '_' || static_cast<unsigned>((c | 0x20) - 'a') < 26u || c >= 0x80;
}
constexpr bool IsDigit(unsigned char c) { return static_cast<unsigned>(c - '0') < 10u; }

bool WordIs(std::string_view text, size_t begin, size_t end, const char* word) {
  size_t n = std::strlen(word);
  return end - begin == n && text.compare(begin, n, word) == 0;
}

// What the estimator does with a byte (one table look-up instead of a chain of tests).
enum ByteClass : uint8_t {
  kOther,      // `,` `:` `.` `<` `>` `@` `/` `%` `&` `|` `^` `!` `;` ...
  kSpace,      // ' ' '\t' '\r' '\f' '\0'
  kNewline,
  kBackslash,
  kHash,
  kQuote,
  kOpen,
  kClose,
  kSign,       // - + ~ *
  kEquals,
  kWord,       // starts an identifier or keyword (continues one too)
  kDigit,      // starts a number (continues an identifier)
};

struct ByteClasses {
  uint8_t of[256];
  constexpr ByteClasses() : of() {
    for (int c = 0; c < 256; ++c) {
      of[c] = IsWordStart(static_cast<unsigned char>(c)) ? kWord
              : IsDigit(static_cast<unsigned char>(c))   ? kDigit
                                                         : kOther;
    }
    of[static_cast<unsigned char>(' ')] = of[static_cast<unsigned char>('\t')] = kSpace;
    of[static_cast<unsigned char>('\r')] = of[static_cast<unsigned char>('\f')] = of[0] = kSpace;
    of[static_cast<unsigned char>('\n')] = kNewline;
    of[static_cast<unsigned char>('\\')] = kBackslash;
    of[static_cast<unsigned char>('#')] = kHash;
    of[static_cast<unsigned char>('"')] = of[static_cast<unsigned char>('\'')] = kQuote;
    of[static_cast<unsigned char>('(')] = of[static_cast<unsigned char>('[')] = kOpen;
    of[static_cast<unsigned char>('{')] = kOpen;
    of[static_cast<unsigned char>(')')] = of[static_cast<unsigned char>(']')] = kClose;
    of[static_cast<unsigned char>('}')] = kClose;
    of[static_cast<unsigned char>('-')] = of[static_cast<unsigned char>('+')] = kSign;
    of[static_cast<unsigned char>('~')] = of[static_cast<unsigned char>('*')] = kSign;
    of[static_cast<unsigned char>('=')] = kEquals;
  }
};
constexpr ByteClasses kClasses;

inline uint8_t ClassOf(char c) { return kClasses.of[static_cast<unsigned char>(c)]; }
inline bool InWord(char c) {
  uint8_t k = ClassOf(c);
  return k == kWord || k == kDigit;
}

}  // namespace

NestingEstimate EstimateNesting(std::string_view text) {
  NestingEstimate best;
  uint32_t brackets = 0;     // Open brackets.
  uint32_t prefix_run = 0;   // Consecutive prefix operators waiting for their operand.
  uint32_t statement = 0;    // Right-nesting operators in the current logical line.
  bool expect_operand = true;
  const size_t size = text.size();
  const char* data = text.data();
  auto note = [&](size_t at) {
    uint32_t depth = brackets + prefix_run + statement;
    if (depth > best.depth) {
      best.depth = depth;
      best.offset = static_cast<uint32_t>(at);
    }
  };
  for (size_t i = 0; i < size;) {
    char c = data[i];
    switch (ClassOf(c)) {
      case kSpace:
        ++i;
        while (i < size && ClassOf(data[i]) == kSpace) ++i;
        continue;
      case kNewline:
        if (brackets == 0) {
          statement = 0;
          prefix_run = 0;
          expect_operand = true;
        }
        ++i;
        continue;
      case kBackslash:
        i += 2;  // A line continuation (or a stray backslash): the line goes on.
        continue;
      case kHash: {
        const void* eol = std::memchr(data + i, '\n', size - i);
        i = eol == nullptr ? size : static_cast<size_t>(static_cast<const char*>(eol) - data);
        continue;
      }
      case kQuote: {
        i = vocab::StringLiteralAt(text, i).end;
        prefix_run = 0;
        expect_operand = false;
        continue;
      }
      case kOpen:
        ++brackets;
        note(i);
        expect_operand = true;
        ++i;
        continue;
      case kClose:
        if (brackets > 0) --brackets;
        prefix_run = 0;
        expect_operand = false;
        ++i;
        continue;
      case kSign:
        if (c == '*' && i + 1 < size && data[i + 1] == '*' && !expect_operand) {
          ++statement;  // `**` is right-associative.
          note(i);
          i += 2;
          expect_operand = true;
          continue;
        }
        if (expect_operand) {
          ++prefix_run;
          note(i);
        }
        expect_operand = true;
        ++i;
        continue;
      case kEquals:
        if (i + 1 < size && data[i + 1] == '=') {
          i += 2;
        } else {
          if (brackets == 0) ++statement;  // `a = b = c` nests; keyword arguments do not.
          note(i);
          ++i;
        }
        expect_operand = true;
        continue;
      case kWord: {
        size_t begin = i;
        ++i;
        while (i < size && InWord(data[i])) ++i;
        // Compared only at the keyword's length (most words are short: comparing each against
        // every keyword took a third of the scan).
        size_t n = i - begin;
        auto is = [&](const char* word) { return WordIs(text, begin, i, word); };
        if ((n == 3 && is("not")) || (n == 5 && is("await")) || (n == 6 && is("lambda"))) {
          ++prefix_run;
          note(begin);
          expect_operand = true;
        } else if ((n == 2 && is("if")) || (n == 4 && is("else"))) {
          ++statement;
          note(begin);
          expect_operand = true;
        } else if ((n == 3 && is("and")) || (n == 2 && (is("or") || is("in") || is("is")))) {
          expect_operand = true;
        } else {
          prefix_run = 0;
          expect_operand = false;
        }
        continue;
      }
      case kDigit:
        ++i;
        while (i < size && (InWord(data[i]) || data[i] == '.')) ++i;
        prefix_run = 0;
        expect_operand = false;
        continue;
      default:
        // Other punctuation: `,` `:` `.` `<` `>` `@` `/` `%` `&` `|` `^` `!` `;` ...
        expect_operand = c != '.';
        if (c == ';') statement = 0;
        ++i;
        continue;
    }
  }
  return best;
}

void NestingBound::Reset(std::string_view text) {
  exact_ = EstimateNesting(text);
  bound_ = exact_.depth;
}

void NestingBound::Update(std::string_view new_text, uint32_t begin, uint32_t new_end,
                          std::string_view removed) {
  std::string_view inserted = new_text.substr(begin, new_end - begin);
  uint64_t cost = 0;
  bool quote_or_comment = false;
  bool joins_lines = false;
  for (std::string_view part : {removed, inserted}) {
    for (char c : part) {
      if (c == '"' || c == '\'' || c == '#' || c == '\\') quote_or_comment = true;
      // Any other character adds at most one level: a bracket, an operator, a keyword, or (when
      // removed) a closing bracket.
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') ++cost;
    }
  }
  for (char c : removed) joins_lines |= c == '\n';
  // A backslash escapes the next character: one just before the edit now escapes another (a line
  // break typed after it continues the line).
  joins_lines |= begin > 0 && new_text[begin - 1] == '\\';
  // A line break typed into a line makes what follows it code even where it was comment or
  // string text; a removed one makes the next line part of this one: both, like a quote, can
  // flip the rest of a line.
  bool breaks_line = joins_lines || inserted.find('\n') != std::string_view::npos;
  if (quote_or_comment || breaks_line) {
    // The rest of the edited lines may change sides between code and string/comment, and a
    // triple quote anywhere on them can flip the rest of the file: rescan when one is there.
    auto has_triple = [](std::string_view text) {
      for (size_t i = 0; i + 2 < text.size(); ++i) {
        if ((text[i] == '"' || text[i] == '\'') && text[i + 1] == text[i] && text[i + 2] == text[i]) {
          return true;
        }
      }
      return false;
    };
    size_t line_begin = new_text.rfind('\n', begin == 0 ? 0 : begin - 1);
    line_begin = line_begin == std::string_view::npos ? 0 : line_begin;
    size_t line_end = new_text.find('\n', new_end);
    if (line_end == std::string_view::npos) line_end = new_text.size();
    std::string_view lines = new_text.substr(line_begin, line_end - line_begin);
    // The old lines: these with `removed` in place of the inserted text.
    std::string old_lines(new_text.substr(line_begin, begin - line_begin));
    old_lines.append(removed);
    old_lines.append(new_text.substr(new_end, line_end - new_end));
    if (has_triple(lines) || has_triple(old_lines)) {
      Reset(new_text);
      return;
    }
    cost += line_end - line_begin + removed.size();
    // A backslash at a line end continues the line: like joining lines. Only where the edited
    // lines, before or after the edit, hold a backslash: a quote or `#` can move it between
    // code and string or comment text. Without one the flip stays on the edited lines (typing a
    // quote doubled the bound before, and at 100k lines every few quotes rescanned the file).
    if (lines.find('\\') != std::string_view::npos || removed.find('\\') != std::string_view::npos) {
      joins_lines = true;
    }
  }
  uint64_t bound = joins_lines ? 2ull * bound_ + cost : bound_ + cost;
  if (bound > kMaxNestingDepth) {
    Reset(new_text);
  } else {
    bound_ = static_cast<uint32_t>(bound);
  }
}

}  // namespace tvmls::analysis
