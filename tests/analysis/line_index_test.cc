// LineIndex: offsets <-> positions in every encoding, CRLF, non-ASCII, invalid UTF-8, edits.
#include "text/line_index.h"

#include <gtest/gtest.h>

#include <random>

namespace tvmls::analysis {
namespace {

struct Row {
  const char* text;
  uint32_t offset;
  Encoding encoding;
  Position position;
};

// Each row: the byte offset and the position it maps to (both directions must agree).
const Row kRows[] = {
    {"abc\ndef", 0, Encoding::kUtf16, {0, 0}},
    {"abc\ndef", 3, Encoding::kUtf16, {0, 3}},
    {"abc\ndef", 4, Encoding::kUtf16, {1, 0}},
    {"abc\ndef", 7, Encoding::kUtf16, {1, 3}},
    {"abc\r\ndef", 3, Encoding::kUtf16, {0, 3}},
    {"abc\r\ndef", 5, Encoding::kUtf16, {1, 0}},
    // é is 2 bytes, 1 UTF-16 unit, 1 code point.
    {"x = \"\xC3\xA9\"", 7, Encoding::kUtf8, {0, 7}},
    {"x = \"\xC3\xA9\"", 7, Encoding::kUtf16, {0, 6}},
    {"x = \"\xC3\xA9\"", 7, Encoding::kUtf32, {0, 6}},
    // 𝛼 (U+1D6FC) is 4 bytes, 2 UTF-16 units (a surrogate pair), 1 code point.
    {"a\xF0\x9D\x9B\xBC" "b", 5, Encoding::kUtf8, {0, 5}},
    {"a\xF0\x9D\x9B\xBC" "b", 5, Encoding::kUtf16, {0, 3}},
    {"a\xF0\x9D\x9B\xBC" "b", 5, Encoding::kUtf32, {0, 2}},
    // 中 is 3 bytes, 1 unit in UTF-16.
    {"\xE4\xB8\xAD\xE4\xB8\xAD\nx", 6, Encoding::kUtf16, {0, 2}},
    {"\xE4\xB8\xAD\xE4\xB8\xAD\nx", 7, Encoding::kUtf16, {1, 0}},
    // Invalid bytes count one unit each.
    {"\xFF\xFEz", 2, Encoding::kUtf16, {0, 2}},
    {"\xC3(", 1, Encoding::kUtf16, {0, 1}},
};

TEST(LineIndex, RowsRoundTrip) {
  for (const Row& row : kRows) {
    std::string_view text(row.text);
    LineIndex index(text);
    Position p = index.ToPosition(text, row.offset, row.encoding);
    EXPECT_EQ(p.line, row.position.line) << row.text << " @" << row.offset;
    EXPECT_EQ(p.column, row.position.column) << row.text << " @" << row.offset;
    auto offset = index.ToOffset(text, row.position, row.encoding);
    ASSERT_TRUE(offset.has_value()) << row.text;
    EXPECT_EQ(*offset, row.offset) << row.text;
  }
}

TEST(LineIndex, LineCountAndStarts) {
  EXPECT_EQ(LineIndex("").LineCount(), 1u);
  EXPECT_EQ(LineIndex("a").LineCount(), 1u);
  EXPECT_EQ(LineIndex("a\n").LineCount(), 2u);
  EXPECT_EQ(LineIndex("a\r\nb\r\n").LineCount(), 3u);
  // A lone CR is not a line break (the parser agrees).
  EXPECT_EQ(LineIndex("a\rb").LineCount(), 1u);
  LineIndex index("ab\ncd\n\nef");
  EXPECT_EQ(index.LineStart(1), 3u);
  EXPECT_EQ(index.LineStart(3), 7u);
  EXPECT_EQ(index.LineOf(0), 0u);
  EXPECT_EQ(index.LineOf(5), 1u);
  EXPECT_EQ(index.LineOf(6), 2u);
  EXPECT_EQ(index.LineOf(100), 3u);
}

TEST(LineIndex, RefusesMissingLinesAndSplitCodePoints) {
  std::string text = "a\xF0\x9D\x9B\xBC" "b\n\xC3\xA9";
  LineIndex index(text);
  EXPECT_FALSE(index.ToOffset(text, {2, 0}, Encoding::kUtf16).has_value());
  // Column 2 in UTF-16 is between the two surrogates of 𝛼.
  EXPECT_FALSE(index.ToOffset(text, {0, 2}, Encoding::kUtf16).has_value());
  // Byte column 2 is inside the 4-byte sequence.
  EXPECT_FALSE(index.ToOffset(text, {0, 2}, Encoding::kUtf8).has_value());
  EXPECT_FALSE(index.ToOffset(text, {1, 1}, Encoding::kUtf8).has_value());
  EXPECT_EQ(*index.ToOffset(text, {1, 1}, Encoding::kUtf16), 9u);
}

TEST(LineIndex, ColumnsPastTheLineClampToItsEnd) {
  std::string text = "ab\r\ncd";
  LineIndex index(text);
  // LSP: a column past the end of the line means the end of the line (before the CRLF).
  EXPECT_EQ(*index.ToOffset(text, {0, 99}, Encoding::kUtf16), 2u);
  EXPECT_EQ(*index.ToOffset(text, {1, 99}, Encoding::kUtf16), 6u);
  // An offset inside the line break maps to the end of the line's content.
  EXPECT_EQ(index.ToPosition(text, 3, Encoding::kUtf16), (Position{0, 2}));
}

TEST(Utf8, SequenceLengthAndBoundaries) {
  EXPECT_EQ(Utf8SequenceLength("a", 0), 1);
  EXPECT_EQ(Utf8SequenceLength("\xC3\xA9", 0), 2);
  EXPECT_EQ(Utf8SequenceLength("\xC3", 0), 0);              // Truncated.
  EXPECT_EQ(Utf8SequenceLength("\xC0\x80", 0), 0);          // Overlong.
  EXPECT_EQ(Utf8SequenceLength("\xED\xA0\x80", 0), 0);      // Surrogate.
  EXPECT_EQ(Utf8SequenceLength("\xF4\x90\x80\x80", 0), 0);  // Above U+10FFFF.
  std::string text = "a\xE4\xB8\xAD" "b";
  EXPECT_TRUE(IsCodePointBoundary(text, 1));
  EXPECT_FALSE(IsCodePointBoundary(text, 2));
  EXPECT_FALSE(IsCodePointBoundary(text, 3));
  EXPECT_TRUE(IsCodePointBoundary(text, 4));
  // Stray continuation bytes are code points of their own.
  EXPECT_TRUE(IsCodePointBoundary("a\x80\x80", 2));
}

// Random edits: the incrementally updated index equals one built from scratch.
TEST(LineIndex, RandomEditsMatchFromScratch) {
  std::mt19937 rng(1234);
  const std::string pieces[] = {"\n", "\r\n", "abc", "  ", "\n\n", "x\ny\nz", ""};
  std::string text = "def f():\n    return 1\n";
  LineIndex index(text);
  for (int step = 0; step < 2000; ++step) {
    uint32_t a = static_cast<uint32_t>(rng() % (text.size() + 1));
    uint32_t b = static_cast<uint32_t>(rng() % (text.size() + 1));
    if (a > b) std::swap(a, b);
    if (b - a > 8) b = a + 8;
    const std::string& insert = pieces[rng() % std::size(pieces)];
    text.replace(a, b - a, insert);
    index.ApplyEdit(a, b, insert);
    ASSERT_EQ(index, LineIndex(text)) << "step " << step;
  }
}

// A hinted lookup answers what the plain one does, from any hint: before, on or after the
// offset's line, past the last line; and carried along sorted offsets as the server does.
TEST(LineIndex, HintedLookupIsThePlainOne) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += std::string(static_cast<size_t>(i % 7), 'x') + (i % 5 ? "\n" : "\r\n");
  text += "tail";
  LineIndex index(text);
  const uint32_t hints[] = {0, 1, 2, 37, 150, 298, 299, 300, 301, 5000, UINT32_MAX};
  for (uint32_t offset = 0; offset <= text.size() + 2; ++offset) {
    for (uint32_t hint : hints) {
      ASSERT_EQ(index.LineOf(offset, hint), index.LineOf(offset)) << offset << " from " << hint;
    }
  }
  uint32_t carried = 0;
  for (uint32_t offset = 0; offset <= text.size(); offset += 3) {
    Position p = index.ToPosition(text, offset, Encoding::kUtf16, &carried);
    ASSERT_EQ(p, index.ToPosition(text, offset, Encoding::kUtf16)) << offset;
    ASSERT_EQ(carried, p.line);
  }
}

}  // namespace
}  // namespace tvmls::analysis
