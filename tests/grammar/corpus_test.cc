// Runs the grammar corpus (grammar/test/corpus/*.txt): parse each input, compare the
// S-expression with the expected tree. Same format as `tree-sitter test`, so CI needs no CLI.
#include <gtest/gtest.h>

#include "support/corpus_file.h"
#include "support/files.h"
#include "syntax/document.h"
#include "syntax/syntax_errors.h"

namespace tvmls::testing {
namespace {

std::vector<CorpusCase> AllCases() {
  std::vector<CorpusCase> all;
  for (const std::string& path : ListFiles("grammar/test/corpus", ".txt")) {
    for (CorpusCase& c : ParseCorpusFile(path, ReadFileOrDie(path))) all.push_back(std::move(c));
  }
  return all;
}

class CorpusTest : public ::testing::TestWithParam<CorpusCase> {};

TEST_P(CorpusTest, TreeMatches) {
  const CorpusCase& c = GetParam();
  analysis::Document doc(c.input);
  std::string actual = NormalizeSexp(analysis::ToSexp(doc.Root()));
  EXPECT_EQ(actual, c.expected) << c.file << ":" << c.line << ": " << c.name << "\ninput:\n"
                                << c.input;
}

std::string CaseName(const ::testing::TestParamInfo<CorpusCase>& info) {
  std::string file = info.param.file.substr(info.param.file.find_last_of('/') + 1);
  file = file.substr(0, file.find('.'));
  std::string name = file + "_" + std::to_string(info.param.line);
  for (char& ch : name) {
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest, ::testing::ValuesIn(AllCases()), CaseName);

TEST(Corpus, HasTests) {
  // Guards against a path mistake silently turning the suite into zero tests.
  EXPECT_GE(AllCases().size(), 20u);
}

TEST(Corpus, ExamplesParseWithoutErrors) {
  auto files = ListFiles("examples", ".py");
  ASSERT_GE(files.size(), 6u);
  for (const std::string& path : files) {
    analysis::Document doc(ReadFileOrDie(path));
    auto errors = analysis::CollectSyntaxErrors(doc.Root(), doc.Text());
    EXPECT_TRUE(errors.empty()) << path << ": " << (errors.empty() ? "" : errors[0].message);
  }
}

}  // namespace
}  // namespace tvmls::testing
