// tvmls_language() (grammar/src/dense_language.c) is the generated language with every parse
// state's row dense: every value the runtime can look up is the generated one, nothing else in the
// language differs, and parses give the same trees, on clean text and on text with errors (where
// the runtime's error recovery does most of its lookups), from scratch and after an edit.
// TSLanguage's layout: the generated parser's contract with the runtime. First: it declares
// TSStateId only when tree_sitter/api.h has not been read yet.
#include "tree_sitter/parser.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/same_tree.h"
#include "syntax/document.h"
#include "tvmls/grammar.h"

namespace tvmls::testing {
namespace {

// The runtime's lookup (ts_language_lookup in tree-sitter 0.20's lib/src/language.h): a dense row
// below large_state_count, else a search of the state's (value, symbols) groups.
uint16_t RuntimeLookup(const TSLanguage* language, uint32_t state, uint16_t symbol) {
  if (state < language->large_state_count) return language->parse_table[state * language->symbol_count + symbol];
  const uint16_t* data =
      &language->small_parse_table[language->small_parse_table_map[state - language->large_state_count]];
  uint16_t groups = *data++;
  for (uint16_t g = 0; g < groups; ++g) {
    uint16_t value = *data++;
    uint16_t count = *data++;
    for (uint16_t i = 0; i < count; ++i) {
      if (*data++ == symbol) return value;
    }
  }
  return 0;
}

TEST(DenseLanguage, EveryStateIsDenseWithTheGeneratedValues) {
  const TSLanguage* generated = tree_sitter_tvmscript();
  const TSLanguage* dense = tvmls_language();
  ASSERT_NE(generated, dense);
  ASSERT_LT(generated->large_state_count, generated->state_count);  // else there is nothing to do
  ASSERT_EQ(dense->large_state_count, dense->state_count);
  size_t values = 0, differing = 0;
  for (uint32_t state = 0; state < generated->state_count; ++state) {
    for (uint16_t symbol = 0; symbol < generated->symbol_count; ++symbol) {
      uint16_t want = RuntimeLookup(generated, state, symbol);
      values += want != 0;
      if (RuntimeLookup(dense, state, symbol) != want && ++differing <= 5) {
        ADD_FAILURE() << "state " << state << " symbol " << symbol << ": " << RuntimeLookup(dense, state, symbol)
                      << " instead of " << want;
      }
    }
  }
  EXPECT_EQ(differing, 0u);
  EXPECT_GT(values, 10000u);
  // Nothing else differs: the same struct with those two fields put back.
  TSLanguage copy = *dense;
  copy.parse_table = generated->parse_table;
  copy.large_state_count = generated->large_state_count;
  EXPECT_EQ(std::memcmp(&copy, generated, sizeof(TSLanguage)), 0);
  EXPECT_EQ(tvmls_language(), dense);  // built once
}

struct Parser {
  explicit Parser(const TSLanguage* language) : parser(ts_parser_new()) { ts_parser_set_language(parser, language); }
  ~Parser() { ts_parser_delete(parser); }
  TSTree* Parse(const std::string& text, TSTree* old = nullptr) const {
    return ts_parser_parse_string(parser, old, text.data(), static_cast<uint32_t>(text.size()));
  }
  TSParser* parser;
};

// The texts: every example and fixture, and the fuzzers' kept inputs (mostly broken code).
std::vector<std::string> Texts() {
  std::vector<std::string> paths = ExampleFiles();
  for (const char* dir : {"tests/fixtures", "tests/fuzz/regressions/incremental", "tests/fuzz/regressions/query",
                          "tests/fuzz/corpus/incremental"}) {
    for (std::string& p : ListFilesRecursive(dir, "")) paths.push_back(std::move(p));
  }
  std::vector<std::string> texts;
  for (const std::string& p : paths) texts.push_back(ReadFileOrDie(p));
  return texts;
}

TEST(DenseLanguage, ParsesTheSameTreesWholeBrokenAndAfterAnEdit) {
  Parser generated(tree_sitter_tvmscript()), dense(tvmls_language());
  // Edits at 6 places of each text: a cut, an opened bracket, a stray colon, a deleted byte, an
  // indented line: each leaves a syntax error for the runtime to recover from.
  static const char* const kInserted[] = {"", "R.add(x, ", ":", "", "\n        y = (", "]"};
  size_t parses = 0, with_errors = 0;
  for (const std::string& text : Texts()) {
    TSTree* a = generated.Parse(text);
    TSTree* b = dense.Parse(text);
    EXPECT_TRUE(SameTree(ts_tree_root_node(a), ts_tree_root_node(b))) << text.substr(0, 200);
    for (size_t k = 0; k < 6; ++k) {
      uint32_t at = static_cast<uint32_t>(text.size() * (2 * k + 1) / 12);
      uint32_t end = k == 0 ? static_cast<uint32_t>(text.size()) : k == 3 ? std::min<uint32_t>(at + 1, text.size()) : at;
      std::string edited = text.substr(0, at) + kInserted[k] + text.substr(end);
      const uint32_t new_end = at + static_cast<uint32_t>(std::strlen(kInserted[k]));
      const analysis::LineIndex before(text), after(edited);
      TSInputEdit edit{at, end, new_end, analysis::PointAt(before, at), analysis::PointAt(before, end),
                       analysis::PointAt(after, new_end)};
      TSTree* fresh_a = generated.Parse(edited);
      TSTree* fresh_b = dense.Parse(edited);
      EXPECT_TRUE(SameTree(ts_tree_root_node(fresh_a), ts_tree_root_node(fresh_b))) << edited.substr(0, 200);
      with_errors += ts_node_has_error(ts_tree_root_node(fresh_b));
      TSTree* old_a = ts_tree_copy(a);
      TSTree* old_b = ts_tree_copy(b);
      ts_tree_edit(old_a, &edit);
      ts_tree_edit(old_b, &edit);
      TSTree* re_a = generated.Parse(edited, old_a);
      TSTree* re_b = dense.Parse(edited, old_b);
      EXPECT_TRUE(SameTree(ts_tree_root_node(re_a), ts_tree_root_node(re_b))) << "after an edit: " << edited.substr(0, 200);
      for (TSTree* t : {fresh_a, fresh_b, old_a, old_b, re_a, re_b}) ts_tree_delete(t);
      parses += 3;
    }
    ts_tree_delete(a);
    ts_tree_delete(b);
    ++parses;
  }
  EXPECT_GT(parses, 500u);
  EXPECT_GT(with_errors, 300u);  // error recovery is what the dense rows speed up
}

}  // namespace
}  // namespace tvmls::testing
