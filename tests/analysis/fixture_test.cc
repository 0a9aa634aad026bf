// Fixtures as tests: every tests/fixtures/**/*.py states its expected diagnostics in comments
// (tests/fixtures/README.md). Each fixture is checked five ways:
//   Engine      AnalyzeText's diagnostics match the expectations exactly.
//   Cli         `tvmls check --format json FILE` (in-process) reports the same, through UTF-16
//               positions, and exits 1 exactly when an error is expected.
//   Fixes       every fix of every diagnostic applies cleanly and makes things better: the fixed
//               code occurs fewer times and no code occurs more often.
//   Syntax      the fixture parses without syntax errors unless it expects `syntax-error`.
//   Queries     hover / definition / references / highlight / rename / annotate at each query
//               marker give what it states; renames and annotations applied to the text leave
//               no new diagnostic.
// The expectation parser and the comparison are unit-tested here too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "check/suppressions.h"
#include "model/model.h"
#include "query/navigation.h"
#include "query/queries.h"
#include "cli.h"
#include "support/files.h"
#include "support/fixture.h"
#include "syntax/document.h"
#include "syntax/syntax_errors.h"
#include "text/line_index.h"

namespace tvmls::testing {
namespace {

using analysis::Encoding;
using analysis::LineIndex;
using analysis::Position;

// ---------------------------------------------------------------------------------------------
// The expectation parser.

TEST(FixtureParser, CaretColumnsCountFromTheStartOfTheLine) {
  // The `#` is column 4 and the carets columns 8..12 of the comment line, so they mark columns
  // 8..12 of the code line: `R.add`.
  std::string text =
      "    y = R.add(x, w)\n"
      "    #   ^^^^^ error[unknown-op]\n";
  std::vector<Expectation> e = ParseExpectations(text);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].line, 0u);
  EXPECT_EQ(e[0].expectation_line, 1u);
  EXPECT_EQ(e[0].begin_column, 8u);
  EXPECT_EQ(e[0].end_column, 13u);
  EXPECT_FALSE(e[0].open_end);
  EXPECT_EQ(e[0].severity, "error");
  EXPECT_EQ(e[0].code, "unknown-op");
  EXPECT_EQ(e[0].message_substring, "");
}

TEST(FixtureParser, TheCommentMayBeLessIndentedThanTheCode) {
  // To point at the first token of an indented statement, the `#` goes further left.
  std::string text =
      "        R.output(y)\n"
      "      # ^^^^^^^^ error[output-outside-dataflow]\n"
      "#       ^ error[x]\n"
      "        #^ hint[y]\n";
  std::vector<Expectation> e = ParseExpectations(text);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].begin_column, 8u);
  EXPECT_EQ(e[0].end_column, 16u);
  EXPECT_EQ(e[1].begin_column, 8u);
  EXPECT_EQ(e[1].end_column, 9u);  // one caret, one character
  EXPECT_EQ(e[2].begin_column, 9u);
  EXPECT_EQ(e[2].severity, "hint");
  // All three refer to line 0: expectation lines are skipped when looking for the code line.
  for (const Expectation& x : e) EXPECT_EQ(x.line, 0u);
  EXPECT_EQ(e[2].expectation_line, 3u);
}

TEST(FixtureParser, ColumnsAreCharactersNotBytes) {
  // "é" is 2 bytes and "😀" 4, but one character each: `x` is column 10 of the code line.
  std::string code = "s = \"\xC3\xA9\xF0\x9F\x98\x80\" + x\n";
  std::vector<Expectation> e = ParseExpectations(code + "#         ^ error[undefined-name]\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].begin_column, 10u);
  EXPECT_EQ(e[0].end_column, 11u);
  // A tab is one character too, on both lines.
  e = ParseExpectations("\tx = y\n\t#   ^ error[undefined-name]\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].begin_column, 5u);
}

TEST(FixtureParser, OpenEndMessageAndSeveralExpectations) {
  std::string text =
      "x = f(a,\n"
      "#   ^^> warning[long-range]: spans lines\n"
      "#     ^ error[undefined-name]: `a`\n"
      "      b)\n"
      "#     ^ error[undefined-name]\n";
  std::vector<Expectation> e = ParseExpectations(text);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_TRUE(e[0].open_end);
  EXPECT_EQ(e[0].begin_column, 4u);
  EXPECT_EQ(e[0].message_substring, "spans lines");
  EXPECT_EQ(e[1].line, 0u);
  EXPECT_EQ(e[1].message_substring, "`a`");
  EXPECT_EQ(e[2].line, 3u);
  EXPECT_EQ(e[2].begin_column, 6u);
}

TEST(FixtureParser, EmptyRanges) {
  // `^!` marks an empty range, also just past the end of the line (a missing `)`).
  std::vector<Expectation> e = ParseExpectations(
      "y = f(x\n"
      "#      ^! error[syntax-error]: missing `)`\n"
      "#  ^! error[x]\n");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].begin_column, 7u);
  EXPECT_EQ(e[0].end_column, 7u);
  EXPECT_FALSE(e[0].open_end);
  EXPECT_EQ(e[0].message_substring, "missing `)`");
  EXPECT_EQ(e[1].begin_column, 3u);
  EXPECT_EQ(e[1].end_column, 3u);
  EXPECT_TRUE(Compare("f.py", e, {{0, 7, 0, 7, "error", "syntax-error", "missing `)`"},
                                  {0, 3, 0, 3, "error", "x", "m"}})
                  .empty());
  EXPECT_EQ(Compare("f.py", {e[1]}, {{0, 3, 0, 4, "error", "x", "m"}}),
            std::vector<std::string>{
                "f.py:1: expected error[x] at col 4 (empty), got error[x] at col 4: m"});
}

TEST(FixtureParser, CrlfLinesAndOrdinaryCommentsAreNotExpectations) {
  std::string text =
      "x = y\r\n"
      "#   ^ error[undefined-name]\r\n"
      "# a comment ^ with a caret later\r\n"
      "#\r\n";
  std::vector<Expectation> e = ParseExpectations(text);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].code, "undefined-name");
  EXPECT_TRUE(ParseExpectations("# a comment\nx = 1\n").empty());
  EXPECT_TRUE(IsExpectationLine("    #  ^^ error[a]"));
  EXPECT_FALSE(IsExpectationLine("    x = 1  # ^^ error[a]"));  // trailing comments are not
}

TEST(FixtureParser, MalformedLinesAreRefused) {
  for (std::string bad : {
           "x = 1\n#   ^\n",                            // no severity[code]
           "x = 1\n#   ^error[a]\n",                    // no space
           "x = 1\n#   ^ fatal[a]\n",                   // unknown severity
           "x = 1\n#   ^ error[]\n",                    // empty code
           "x = 1\n#   ^ error[Foo_Bar]\n",             // not kebab-case
           "x = 1\n#   ^ error[a\n",                    // unclosed
           "x = 1\n#   ^ error[a] trailing\n",          // junk after the code
           "x = 1\n#   ^^^ error[a]\n",                 // past the end of `x = 1`
           "x = 1\n#    ^^! error[a]\n",                // `!` after several carets
           "x = 1\n#     ^! error[a]\n",                // empty range past the end + 1
           "x = 1\n#   ^>! error[a]\n",                 // both markers
           "#   ^ error[a]\n",                          // no code line above
       }) {
    EXPECT_THROW(ParseExpectations(bad), std::runtime_error) << bad;
  }
  try {
    ParseExpectations("x = 1\n\n#   ^ fatal[a]\n");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("line 3: ", 0), 0u) << e.what();
  }
}

TEST(FixtureParser, QueryMarkers) {
  std::string text =
      "    lv = R.add(x, y)\n"
      "    #^ highlight: 3\n"
      "    #^ rename: lv2 -> 4\n"
      "    # ^ rename: y -> refused: already\n"
      "    #  ^ rename: class -> refused\n"
      "    #   ^ no-rename\n"
      "    #    ^ no-rename: operator\n"
      "    #^ annotate: R.Tensor((1, 64)\n"
      "    #^ no-annotate\n"
      "    #^ references: 2\n"
      "    #^ error[not-a-query]\n";
  std::vector<QueryExpectation> q = ParseQueries(text);
  ASSERT_EQ(q.size(), 9u);
  using K = QueryExpectation::Kind;
  EXPECT_EQ(q[0].kind, K::kHighlight);
  EXPECT_EQ(q[0].count, 3u);
  EXPECT_EQ(q[0].column, 5u);
  EXPECT_EQ(q[1].kind, K::kRename);
  EXPECT_EQ(q[1].new_name, "lv2");
  EXPECT_EQ(q[1].count, 4u);
  EXPECT_FALSE(q[1].refused);
  EXPECT_EQ(q[2].kind, K::kRename);
  EXPECT_EQ(q[2].new_name, "y");
  EXPECT_TRUE(q[2].refused);
  EXPECT_EQ(q[2].text, "already");
  EXPECT_EQ(q[2].column, 6u);
  EXPECT_TRUE(q[3].refused);
  EXPECT_EQ(q[3].text, "");
  EXPECT_EQ(q[4].kind, K::kNoRename);
  EXPECT_EQ(q[4].text, "");
  EXPECT_EQ(q[5].kind, K::kNoRename);
  EXPECT_EQ(q[5].text, "operator");
  EXPECT_EQ(q[6].kind, K::kAnnotate);
  EXPECT_EQ(q[6].text, "R.Tensor((1, 64)");
  EXPECT_EQ(q[7].kind, K::kNoAnnotate);
  EXPECT_EQ(q[8].kind, K::kReferences);
  for (const QueryExpectation& e : q) EXPECT_EQ(e.line, 0u);
  // Query markers are not diagnostic expectations, and the other way round.
  EXPECT_EQ(ParseExpectations(text).size(), 1u);
}

TEST(FixtureParser, MalformedQueryMarkersAreRefused) {
  for (std::string bad : {
           "x = 1\n#^ highlight:\n",             // no count
           "x = 1\n#^ highlight: many\n",        // not a count
           "x = 1\n#^ rename: y\n",              // no arrow
           "x = 1\n#^ rename: -> 2\n",           // no new name
           "x = 1\n#^ rename: y -> some\n",      // neither a count nor refused
           "x = 1\n#^ rename: y -> refused:\n",  // a reason that says nothing
           "x = 1\n#^ rename: y -> refused it\n",
           "x = 1\n#^ no-rename:\n",             // empty reason
           "x = 1\n#^ no-rename now\n",          // junk
           "x = 1\n#^ no-annotate: R.Tensor\n",  // takes no argument
           "x = 1\n#^ annotate:\n",              // no text
           "x = 1\n#     ^ highlight: 1\n",      // past the end of the line
       }) {
    EXPECT_THROW(ParseQueries(bad), std::runtime_error) << bad;
  }
}

// ---------------------------------------------------------------------------------------------
// The comparison.

ActualDiagnostic Actual(uint32_t line, uint32_t begin, uint32_t end, std::string severity,
                        std::string code, std::string message = "msg") {
  return {line, begin, line, end, std::move(severity), std::move(code), std::move(message)};
}

TEST(FixtureCompare, ExactMatchIsSilent) {
  std::vector<Expectation> e = ParseExpectations(
      "y = R.add(x, w)\n"
      "#   ^^^^^ error[unknown-op]: R.add\n"
      "#         ^ warning[w]\n");
  EXPECT_EQ(Compare("f.py", e,
                    {Actual(0, 10, 11, "warning", "w"),
                     Actual(0, 4, 9, "error", "unknown-op", "no op R.add here")}),
            std::vector<std::string>{});
}

TEST(FixtureCompare, ReportsMissingUnexpectedAndNearMisses) {
  std::vector<Expectation> e = ParseExpectations(
      "y = R.add(x, w)\n"
      "#   ^^^^^ error[unknown-op]\n"
      "#         ^ warning[w]\n"
      "#            ^ error[m]: needle\n");
  std::vector<std::string> problems =
      Compare("tests/fixtures/x.py", e,
              {Actual(0, 4, 8, "error", "unknown-op"), Actual(0, 13, 14, "error", "m", "hay"),
               Actual(6, 2, 9, "error", "foo", "what")});
  EXPECT_EQ(problems,
            (std::vector<std::string>{
                "tests/fixtures/x.py:1: expected error[unknown-op] at col 5-9, got "
                "error[unknown-op] at col 5-8: msg",
                "tests/fixtures/x.py:1: expected warning[w] at col 11, got nothing",
                "tests/fixtures/x.py:1: expected error[m] at col 14 with message containing "
                "\"needle\", got error[m] at col 14: hay",
                "tests/fixtures/x.py:7: unexpected error[foo] at col 3-9: what",
            }));
}

TEST(FixtureCompare, SeverityAndOpenEnds) {
  std::vector<Expectation> e = ParseExpectations("f(a,\n#^^> error[c]\n  b)\n");
  // Same range, other severity: a mismatch.
  EXPECT_EQ(Compare("f.py", e, {{0, 1, 2, 2, "warning", "c", "m"}}).size(), 1u);
  // Open end: any end on a later line matches; an end on the same line does not.
  EXPECT_TRUE(Compare("f.py", e, {{0, 1, 2, 3, "error", "c", "m"}}).empty());
  EXPECT_EQ(Compare("f.py", e, {{0, 1, 0, 4, "error", "c", "m"}}).size(), 1u);
  // Each actual diagnostic satisfies one expectation only.
  std::vector<Expectation> twice = ParseExpectations("xy\n#^ error[c]\n#^ error[c]\n");
  EXPECT_EQ(Compare("f.py", twice, {Actual(0, 1, 2, "error", "c")}).size(), 1u);
  // No expectations: every diagnostic is unexpected.
  EXPECT_EQ(Compare("f.py", {}, {Actual(0, 0, 0, "hint", "h")}),
            std::vector<std::string>{"f.py:1: unexpected hint[h] at col 1 (empty): msg"});
}

// ---------------------------------------------------------------------------------------------
// The fixtures.

std::string RelativePath(const std::string& absolute) {
  std::string root = SourcePath("");
  return absolute.rfind(root, 0) == 0 ? absolute.substr(root.size()) : absolute;
}

std::vector<std::string> Fixtures() { return ListFilesRecursive("tests/fixtures", ".py"); }

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = RelativePath(info.param);
  const std::string prefix = "tests/fixtures/";
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".py") == 0) name.resize(name.size() - 3);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

ActualDiagnostic ToActual(const std::string& text, const LineIndex& lines,
                          const analysis::Diagnostic& d) {
  Position b = lines.ToPosition(text, d.range.begin, Encoding::kUtf32);
  Position e = lines.ToPosition(text, d.range.end, Encoding::kUtf32);
  return {b.line, b.column, e.line, e.column, analysis::SeverityName(d.severity), d.code,
          d.message};
}

std::vector<ActualDiagnostic> ToActual(const std::string& text,
                                       const std::vector<analysis::Diagnostic>& diagnostics) {
  LineIndex lines(text);
  std::vector<ActualDiagnostic> out;
  for (const analysis::Diagnostic& d : diagnostics) out.push_back(ToActual(text, lines, d));
  return out;
}

std::map<std::string, int> CountCodes(const std::vector<analysis::Diagnostic>& diagnostics) {
  std::map<std::string, int> counts;
  for (const analysis::Diagnostic& d : diagnostics) ++counts[d.code];
  return counts;
}

class Fixture : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    path_ = RelativePath(GetParam());
    text_ = ReadFileOrDie(GetParam());
    try {
      expectations_ = ParseExpectations(text_);
    } catch (const std::runtime_error& e) {
      FAIL() << path_ << ": malformed expectation: " << e.what();
    }
  }

  bool ExpectsCode(const std::string& code) const {
    return std::any_of(expectations_.begin(), expectations_.end(),
                       [&](const Expectation& e) { return e.code == code; });
  }

  void CheckRename(const analysis::Document& doc, const analysis::FileModel& model, uint32_t offset,
                   const QueryExpectation& q, const std::string& at);
  void CheckAnnotate(const analysis::FileModel& model, uint32_t offset, const QueryExpectation& q,
                     const std::string& at);

  std::string path_;
  std::string text_;
  std::vector<Expectation> expectations_;
};

TEST_P(Fixture, Engine) {
  std::vector<ActualDiagnostic> actual = ToActual(text_, analysis::AnalyzeText(text_));
  for (const std::string& problem : Compare(path_, expectations_, actual)) ADD_FAILURE() << problem;
}

TEST_P(Fixture, Cli) {
  std::ostringstream out, err;
  int code = server::RunCli({"check", "--format", "json", "--hints", GetParam()}, out, err);
  bool expects_error = std::any_of(expectations_.begin(), expectations_.end(),
                                   [](const Expectation& e) { return e.severity == "error"; });
  EXPECT_EQ(code, expects_error ? 1 : 0) << err.str();

  nlohmann::json array;
  try {
    array = nlohmann::json::parse(out.str());
  } catch (const nlohmann::json::exception& e) {
    FAIL() << "tvmls check printed no JSON (" << e.what() << "): " << out.str();
  }
  ASSERT_TRUE(array.is_array()) << out.str();
  // Positions are UTF-16 in the JSON: convert them back through the line index and compare in
  // code points, like the engine test.
  LineIndex lines(text_);
  auto column = [&](const nlohmann::json& position) {
    Position p{position.at("line").get<uint32_t>(), position.at("character").get<uint32_t>()};
    std::optional<uint32_t> offset = lines.ToOffset(text_, p, Encoding::kUtf16);
    EXPECT_TRUE(offset.has_value()) << position.dump();
    return lines.ToPosition(text_, offset.value_or(0), Encoding::kUtf32);
  };
  std::vector<ActualDiagnostic> actual;
  for (const nlohmann::json& d : array) {
    EXPECT_EQ(d.at("file"), GetParam());
    Position b = column(d.at("range").at("start"));
    Position e = column(d.at("range").at("end"));
    actual.push_back({b.line, b.column, e.line, e.column, d.at("severity").get<std::string>(),
                      d.at("code").get<std::string>(), d.at("message").get<std::string>()});
  }
  for (const std::string& problem : Compare(path_, expectations_, actual)) ADD_FAILURE() << problem;
}

TEST_P(Fixture, Queries) {
  std::vector<QueryExpectation> queries;
  try {
    queries = ParseQueries(text_);
  } catch (const std::runtime_error& e) {
    FAIL() << path_ << ": malformed query: " << e.what();
  }
  if (queries.empty()) return;
  analysis::Document doc(text_);
  analysis::Analyzer analyzer;
  analyzer.Run(doc);
  const analysis::FileModel& model = *analyzer.Model();
  LineIndex lines(text_);
  auto where = [&](uint32_t offset) {
    Position p = lines.ToPosition(text_, offset, Encoding::kUtf32);
    return std::to_string(p.line + 1) + ":" + std::to_string(p.column + 1);
  };
  for (const QueryExpectation& q : queries) {
    std::string at = path_ + ":" + std::to_string(q.expectation_line + 1) + ": ";
    std::optional<uint32_t> offset = lines.ToOffset(text_, Position{q.line, q.column}, Encoding::kUtf32);
    ASSERT_TRUE(offset.has_value()) << at;
    switch (q.kind) {
      case QueryExpectation::Kind::kHover: {
        auto hover = analysis::HoverAt(model, *offset);
        if (!hover) {
          ADD_FAILURE() << at << "expected a hover containing `" << q.text << "`, got none";
        } else {
          std::string shown = hover->text + (hover->doc.empty() ? "" : "\n\n" + hover->doc);
          EXPECT_NE(shown.find(q.text), std::string::npos) << at << "hover is `" << shown << "`";
        }
        break;
      }
      case QueryExpectation::Kind::kNoHover: {
        auto hover = analysis::HoverAt(model, *offset);
        EXPECT_FALSE(hover.has_value()) << at << "unexpected hover `" << (hover ? hover->text : "") << "`";
        break;
      }
      case QueryExpectation::Kind::kDefinition: {
        std::vector<analysis::TextRange> defs = analysis::DefinitionAt(model, *offset);
        std::string want = std::to_string(q.target_line + 1) + ":" + std::to_string(q.target_column + 1);
        std::string got;
        for (const analysis::TextRange& r : defs) got += (got.empty() ? "" : ", ") + where(r.begin);
        EXPECT_TRUE(defs.size() == 1 && got == want) << at << "expected the definition at " << want << ", got ["
                                                    << got << "]";
        break;
      }
      case QueryExpectation::Kind::kReferences: {
        std::vector<analysis::TextRange> refs = analysis::ReferencesAt(model, *offset, /*include_definition=*/true);
        std::string got;
        for (const analysis::TextRange& r : refs) got += (got.empty() ? "" : ", ") + where(r.begin);
        EXPECT_EQ(refs.size(), q.count) << at << "references at [" << got << "]";
        break;
      }
      case QueryExpectation::Kind::kHighlight: {
        std::vector<analysis::Highlight> highlights = analysis::HighlightsAt(model, *offset);
        std::string got;
        for (const analysis::Highlight& h : highlights) {
          got += (got.empty() ? "" : ", ") + where(h.range.begin) + (h.write ? " (write)" : "");
        }
        EXPECT_EQ(highlights.size(), q.count) << at << "highlights at [" << got << "]";
        break;
      }
      case QueryExpectation::Kind::kRename:
        CheckRename(doc, model, *offset, q, at);
        break;
      case QueryExpectation::Kind::kNoRename: {
        analysis::PrepareRenameResult p = analysis::PrepareRenameAt(doc, model, *offset);
        EXPECT_FALSE(p.ok()) << at << "prepareRename accepts `" << p.placeholder << "`";
        EXPECT_NE(p.error.find(q.text), std::string::npos) << at << "the reason is `" << p.error << "`";
        break;
      }
      case QueryExpectation::Kind::kAnnotate:
        CheckAnnotate(model, *offset, q, at);
        break;
      case QueryExpectation::Kind::kNoAnnotate: {
        std::optional<analysis::Fix> fix = analysis::AnnotateAt(model, *offset);
        EXPECT_FALSE(fix.has_value()) << at << "unexpected action \"" << (fix ? fix->title : "") << "\"";
        break;
      }
    }
  }
}

// Edits are sorted, do not overlap, and each replaces exactly `old_text`.
void CheckEdits(const std::string& text, const std::vector<analysis::TextEdit>& edits,
                const std::string& old_text, const std::string& at) {
  for (size_t i = 0; i < edits.size(); ++i) {
    const analysis::TextRange& r = edits[i].range;
    ASSERT_LE(r.end, text.size()) << at << "edit past the end of the text";
    EXPECT_EQ(text.substr(r.begin, r.size()), old_text) << at << "edit " << i << " replaces the wrong text";
    if (i > 0) {
      EXPECT_LE(edits[i - 1].range.end, r.begin) << at << "edits unsorted or overlapping";
    }
  }
}

// Applying a rename or an annotation must not make anything new reported.
void ExpectNothingNew(const std::string& before, const std::string& after, const std::string& at) {
  std::map<std::string, int> was = CountCodes(analysis::AnalyzeText(before));
  std::map<std::string, int> now = CountCodes(analysis::AnalyzeText(after));
  for (const auto& [code, n] : now) {
    EXPECT_LE(n, was.count(code) ? was.at(code) : 0) << at << "the edit makes " << code << " appear";
  }
}

void Fixture::CheckRename(const analysis::Document& doc, const analysis::FileModel& model, uint32_t offset,
                          const QueryExpectation& q, const std::string& at) {
  analysis::PrepareRenameResult p = analysis::PrepareRenameAt(doc, model, offset);
  ASSERT_TRUE(p.ok()) << at << "prepareRename refuses: " << p.error;
  EXPECT_TRUE(p.range.begin <= offset && offset <= p.range.end) << at << "prepareRename's range misses the caret";
  EXPECT_EQ(text_.substr(p.range.begin, p.range.size()), p.placeholder) << at;
  analysis::RenameResult r = analysis::RenameAt(doc, model, offset, q.new_name);
  if (q.refused) {
    EXPECT_FALSE(r.ok()) << at << "renaming to `" << q.new_name << "` is accepted (" << r.edits.size() << " edits)";
    EXPECT_NE(r.error.find(q.text), std::string::npos) << at << "the reason is `" << r.error << "`";
    return;
  }
  ASSERT_TRUE(r.ok()) << at << "rename refused: " << r.error;
  EXPECT_EQ(r.edits.size(), q.count) << at << "rename edits";
  CheckEdits(text_, r.edits, p.placeholder, at);
  std::string renamed = text_;
  ASSERT_TRUE(analysis::ApplyFix(analysis::Fix{"rename", false, r.edits}, &renamed)) << at;
  // The exact multiset of codes: a rename changes no meaning.
  EXPECT_EQ(CountCodes(analysis::AnalyzeText(renamed)), CountCodes(analysis::AnalyzeText(text_)))
      << at << "renaming `" << p.placeholder << "` to `" << q.new_name << "` changes the diagnostics";
}

void Fixture::CheckAnnotate(const analysis::FileModel& model, uint32_t offset, const QueryExpectation& q,
                            const std::string& at) {
  std::optional<analysis::Fix> fix = analysis::AnnotateAt(model, offset);
  ASSERT_TRUE(fix.has_value()) << at << "no annotate action";
  ASSERT_EQ(fix->edits.size(), 1u) << at;
  const analysis::TextEdit& e = fix->edits[0];
  EXPECT_TRUE(e.range.empty()) << at << "the annotation replaces text";
  EXPECT_NE(e.new_text.find(q.text), std::string::npos) << at << "inserts `" << e.new_text << "`";
  std::string annotated = text_;
  ASSERT_TRUE(analysis::ApplyFix(*fix, &annotated)) << at;
  ExpectNothingNew(text_, annotated, at);
}

TEST_P(Fixture, FixesApplyAndHelp) {
  std::vector<analysis::Diagnostic> before = analysis::AnalyzeText(text_);
  std::map<std::string, int> before_counts = CountCodes(before);
  LineIndex lines(text_);
  for (const analysis::Diagnostic& d : before) {
    for (const analysis::Fix& fix : d.fixes) {
      std::string where = path_ + ":" + std::to_string(lines.LineOf(d.range.begin) + 1) + ": " +
                          d.code + ", fix \"" + fix.title + "\": ";
      EXPECT_FALSE(fix.edits.empty()) << where << "no edits";
      // Edits lie inside the text, on code point boundaries, and do not overlap.
      std::vector<analysis::TextEdit> edits = fix.edits;
      std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) {
        return a.range.begin < b.range.begin;
      });
      bool valid = true;
      for (size_t i = 0; i < edits.size(); ++i) {
        const analysis::TextRange& r = edits[i].range;
        if (r.begin > r.end || r.end > text_.size() ||
            !analysis::IsCodePointBoundary(text_, r.begin) ||
            !analysis::IsCodePointBoundary(text_, r.end)) {
          ADD_FAILURE() << where << "edit " << r.begin << "-" << r.end << " is outside the text ("
                        << text_.size() << " bytes) or splits a character";
          valid = false;
        }
        if (i > 0 && edits[i - 1].range.end > r.begin) {
          ADD_FAILURE() << where << "edits " << edits[i - 1].range.begin << "-"
                        << edits[i - 1].range.end << " and " << r.begin << "-" << r.end
                        << " overlap";
          valid = false;
        }
      }
      if (!valid) continue;
      std::string fixed = text_;
      if (!analysis::ApplyFix(fix, &fixed)) {
        ADD_FAILURE() << where << "ApplyFix refused the edits";
        continue;
      }
      std::map<std::string, int> after_counts = CountCodes(analysis::AnalyzeText(fixed));
      EXPECT_LT(after_counts[d.code], before_counts[d.code])
          << where << "the fixed code still occurs " << after_counts[d.code] << " times";
      for (const auto& [code, n] : after_counts) {
        int was = before_counts.count(code) ? before_counts.at(code) : 0;
        EXPECT_LE(n, was) << where << "the fix introduces " << code << " (" << was << " -> " << n
                          << ")";
      }
    }
  }
}

// "Suppress on this line" (check/suppressions.h), offered on every diagnostic that can be
// suppressed: applied, it removes that diagnostic and makes nothing appear (no unused
// suppression either); it is never preferred.
TEST_P(Fixture, SuppressionFixSilencesItsDiagnostic) {
  analysis::Document doc(text_);
  analysis::Analyzer analyzer;
  analyzer.Run(doc);
  std::vector<analysis::Diagnostic> before;
  for (const analysis::Diagnostic* d : analyzer.Diagnostics()) before.push_back(*d);
  std::map<std::string, int> before_counts = CountCodes(before);
  LineIndex lines(text_);
  int offered = 0;
  for (const analysis::Diagnostic& d : before) {
    std::optional<analysis::Fix> fix = analysis::SuppressionFix(doc, d);
    if (!fix) continue;
    ++offered;
    std::string where = path_ + ":" + std::to_string(lines.LineOf(d.range.begin) + 1) + ": " +
                        d.code + ": ";
    EXPECT_FALSE(fix->preferred) << where << "a suppression must never be the preferred fix";
    std::string fixed = text_;
    ASSERT_TRUE(analysis::ApplyFix(*fix, &fixed)) << where;
    std::map<std::string, int> after = CountCodes(analysis::AnalyzeText(fixed));
    EXPECT_LT(after[d.code], before_counts[d.code]) << where << "still reported after suppressing";
    for (const auto& [code, n] : after) {
      int was = before_counts.count(code) ? before_counts.at(code) : 0;
      EXPECT_LE(n, was) << where << "suppressing makes " << code << " appear (" << was << " -> "
                        << n << ")";
    }
  }
  int suppressible = 0;
  for (const analysis::Diagnostic& d : before) {
    suppressible += d.code != "syntax-error" && d.code != "unused-suppression" ? 1 : 0;
  }
  // Only lines ending inside a multi-line string or after a backslash get no suppression fix.
  EXPECT_GE(offered * 10, suppressible * 9) << path_ << ": " << offered << " of " << suppressible;
}

// An editor's "auto fix" applies the preferred fix at the cursor: across every diagnostic at one
// position there is at most one.
TEST_P(Fixture, AtMostOnePreferredFixPerPosition) {
  std::map<uint32_t, std::vector<std::string>> preferred;  // range start -> titles
  for (const analysis::Diagnostic& d : analysis::AnalyzeText(text_)) {
    for (const analysis::Fix& fix : d.fixes) {
      if (fix.preferred) preferred[d.range.begin].push_back(d.code + ": " + fix.title);
    }
  }
  LineIndex lines(text_);
  for (const auto& [offset, titles] : preferred) {
    if (titles.size() <= 1) continue;
    std::string all;
    for (const std::string& t : titles) all += "\n  " + t;
    ADD_FAILURE() << path_ << ":" << lines.LineOf(offset) + 1 << ": " << titles.size()
                  << " preferred fixes at one position:" << all;
  }
}

TEST_P(Fixture, ParsesUnlessItExpectsSyntaxErrors) {
  if (ExpectsCode("syntax-error")) return;
  analysis::Document doc(text_);
  EXPECT_EQ(doc.Refusal(), "");
  LineIndex lines(text_);
  for (const analysis::SyntaxError& e : analysis::CollectSyntaxErrors(doc.Root(), doc.Text())) {
    ADD_FAILURE() << path_ << ":" << lines.LineOf(e.range.begin) + 1
                  << ": syntax error: " << e.message;
  }
}

INSTANTIATE_TEST_SUITE_P(All, Fixture, ::testing::ValuesIn(Fixtures()), TestName);

// A fixture that is a copy of an example (first line `# Copy of examples/NAME ...`) is the example
// plus expectation lines: the two cannot drift apart.
TEST(Fixtures, CopiesOfExamplesMatchTheExamples) {
  const std::regex expectation(R"(^\s*#\s*\^+[>!]? (error|warning|information|hint)\[.*)");
  int copies = 0;
  for (const std::string& path : ListFilesRecursive("tests/fixtures", ".py")) {
    std::string text = ReadFileOrDie(path);
    const std::string marker = "# Copy of examples/";
    if (text.rfind(marker, 0) != 0) continue;
    size_t end = text.find_first_of(" \n", marker.size());
    std::string example = text.substr(marker.size(), end - marker.size());
    std::istringstream lines(text);
    std::string line, stripped;
    std::getline(lines, line);  // the "Copy of" line
    while (std::getline(lines, line)) {
      if (!std::regex_match(line, expectation)) stripped += line + "\n";
    }
    EXPECT_EQ(stripped, ReadFileOrDie(SourcePath("examples/" + example))) << path << " differs from examples/" << example;
    ++copies;
  }
  EXPECT_GE(copies, 6);
}

TEST(Fixtures, ExistInEveryDirectory) {
  for (const char* dir : {"seeds", "clean", "checks", "queries"}) {
    EXPECT_FALSE(ListFilesRecursive(std::string("tests/fixtures/") + dir, ".py").empty()) << dir;
  }
}

}  // namespace
}  // namespace tvmls::testing
