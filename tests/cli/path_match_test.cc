// Glob patterns of .gitignore files and the include/exclude lists (server/path_match.h), and the
// quick test for a [tool.tvmls] table in pyproject.toml.
#include "path_match.h"

#include <gtest/gtest.h>

#include "project_config.h"

namespace tvmls::server {
namespace {

struct GlobCase {
  const char* pattern;
  const char* text;
  bool matches;
};

TEST(PathMatch, Globs) {
  const GlobCase kCases[] = {
      {"*.py", "a.py", true},          {"*.py", "dir/a.py", false},
      {"*.py", ".py", true},           {"a?c", "abc", true},
      {"a?c", "a/c", false},           {"**/*.py", "a.py", true},
      {"**/*.py", "x/y/a.py", true},   {"a/**/b", "a/b", true},
      {"a/**/b", "a/x/y/b", true},     {"a/**", "a/x/y", true},
      {"a/**", "b/x", false},          {"[abc].py", "b.py", true},
      {"[!abc].py", "b.py", false},    {"[a-c]x", "cx", true},
      {"[a-c]x", "dx", false},         {"[^a]", "b", true},
      {"\\*.py", "*.py", true},        {"\\*.py", "a.py", false},
      {"[unclosed", "[unclosed", true}, {"", "", true},
      {"*", "", true},                 {"*", "a/b", false},
      {"sub/deep/**", "sub/deep/x.py", true},
  };
  for (const GlobCase& c : kCases) {
    EXPECT_EQ(GlobMatch(c.pattern, c.text), c.matches) << c.pattern << " vs " << c.text;
  }
}

TEST(PathMatch, PatternLines) {
  PathPattern p;
  EXPECT_FALSE(ParsePathPattern("", &p));
  EXPECT_FALSE(ParsePathPattern("# comment", &p));
  EXPECT_FALSE(ParsePathPattern("   ", &p));
  ASSERT_TRUE(ParsePathPattern("build/", &p));
  EXPECT_EQ(p.glob, "build");
  EXPECT_TRUE(p.directory_only);
  EXPECT_FALSE(p.anchored);
  ASSERT_TRUE(ParsePathPattern("!/docs/*.py", &p));
  EXPECT_TRUE(p.negated);
  EXPECT_TRUE(p.anchored);
  EXPECT_EQ(p.glob, "docs/*.py");
  ASSERT_TRUE(ParsePathPattern("a/b\r", &p));
  EXPECT_EQ(p.glob, "a/b");
  EXPECT_TRUE(p.anchored);
}

TEST(PathMatch, LastMatchingPatternWins) {
  auto set = [](std::string base, std::vector<const char*> lines) {
    PatternSet s;
    s.base = std::move(base);
    for (const char* l : lines) {
      PathPattern p;
      if (ParsePathPattern(l, &p)) s.patterns.push_back(p);
    }
    return s;
  };
  std::vector<PatternSet> sets = {set("/r", {"*.py", "!keep.py", "build/"}),
                                  set("/r/sub", {"/only_here.py"})};
  EXPECT_EQ(MatchPatterns(sets, "/r/a.py", false), 1);
  EXPECT_EQ(MatchPatterns(sets, "/r/x/keep.py", false), -1);
  EXPECT_EQ(MatchPatterns(sets, "/r/build", true), 1);
  EXPECT_EQ(MatchPatterns(sets, "/r/build", false), 0);  // a file named build
  EXPECT_EQ(MatchPatterns(sets, "/r/sub/only_here.txt", false), 0);
  EXPECT_EQ(MatchPatterns(sets, "/r/sub/x/only_here.py", false), 1);  // *.py from /r
  EXPECT_EQ(MatchPatterns(sets, "/other/a.py", false), 0);
}

TEST(ProjectConfigFile, PyprojectNeedsATvmlsTable) {
  EXPECT_TRUE(PyprojectHasTvmls("[project]\nname='x'\n[tool.tvmls]\nera='auto'\n"));
  EXPECT_TRUE(PyprojectHasTvmls("[tool.tvmls.severity]\nunknown-op='off'\n"));
  EXPECT_TRUE(PyprojectHasTvmls("  [ tool.tvmls ]\n"));
  EXPECT_FALSE(PyprojectHasTvmls("[tool.ruff]\n# tool.tvmls is not here\n"));
  EXPECT_FALSE(PyprojectHasTvmls("[tool.tvmlsx]\n"));
  EXPECT_FALSE(PyprojectHasTvmls("x = '[tool.tvmls]'\n"));
}

TEST(ProjectConfigFile, NeverThrowsOnBrokenText) {
  for (const char* text : {"[", "era = ", "\xff\xfe", "[severity]\n= 1", "a = [1, [2, [3"}) {
    ProjectConfig c = ParseConfig("/x/tvmls.toml", text);
    EXPECT_FALSE(c.problems.empty()) << text;
    EXPECT_GE(c.problems[0].line, 1u);
  }
  ProjectConfig ok = ParseConfig("/x/pyproject.toml", "[project]\nname = 'x'\n");
  EXPECT_TRUE(ok.problems.empty());
}

}  // namespace
}  // namespace tvmls::server
