// Unified diffs (server/text_diff.h), compared with what `diff -u` prints for the same texts.
#include "text_diff.h"

#include <gtest/gtest.h>

namespace tvmls::server {
namespace {

TEST(UnifiedDiff, EqualTextsHaveNoDiff) { EXPECT_EQ(UnifiedDiff("a\nb\n", "a\nb\n", "x", "x"), ""); }

TEST(UnifiedDiff, OneChangedLineWithContext) {
  EXPECT_EQ(UnifiedDiff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n", "f", "f"),
            "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, InsertAtStartAndDeleteAtEnd) {
  EXPECT_EQ(UnifiedDiff("a\nb\n", "new\na\n", "f", "f"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n+new\n a\n-b\n");
}

TEST(UnifiedDiff, DistantChangesAreSeparateHunks) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    after += (i == 2 || i == 18 ? "x" : std::to_string(i)) + "\n";
  }
  std::string d = UnifiedDiff(before, after, "f", "f");
  EXPECT_NE(d.find("@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n"), std::string::npos) << d;
  EXPECT_NE(d.find("@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+x\n 19\n 20\n"), std::string::npos) << d;
}

TEST(UnifiedDiff, MissingNewlineAtEndIsMarked) {
  EXPECT_EQ(UnifiedDiff("a\nb", "a\nc", "f", "f"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
            "\\ No newline at end of file\n");
  EXPECT_EQ(UnifiedDiff("", "a\n", "f", "f"), "--- a/f\n+++ b/f\n@@ -0,0 +1,1 @@\n+a\n");
}

}  // namespace
}  // namespace tvmls::server
