// The editor queries (grammar/queries/*.scm) compile against the grammar and capture what they
// promise on a real example.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "support/files.h"
#include "syntax/document.h"
#include "tvmls/grammar.h"

namespace tvmls::testing {
namespace {

struct QueryDeleter {
  void operator()(TSQuery* q) const { ts_query_delete(q); }
};
using QueryPtr = std::unique_ptr<TSQuery, QueryDeleter>;

QueryPtr Compile(const std::string& path) {
  std::string source = ReadFileOrDie(path);
  uint32_t error_offset = 0;
  TSQueryError error = TSQueryErrorNone;
  TSQuery* query = ts_query_new(tvmls_language(), source.data(),
                                static_cast<uint32_t>(source.size()), &error_offset, &error);
  EXPECT_NE(query, nullptr) << path << ": query error " << error << " at byte " << error_offset
                            << ": " << source.substr(error_offset, 40);
  return QueryPtr(query);
}

std::string NodeText(const analysis::Document& doc, TSNode node) {
  uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
  return doc.Text().substr(begin, end - begin);
}

std::string QueryString(const TSQuery* query, uint32_t id) {
  uint32_t length = 0;
  const char* s = ts_query_string_value_for_id(query, id, &length);
  return std::string(s, length);
}

// Evaluates the text predicates a highlighting host evaluates (#match?, #eq?, #any-of? and their
// #not- forms); the tree-sitter runtime leaves them to the host.
bool Satisfies(const TSQuery* query, const TSQueryMatch& match, const analysis::Document& doc) {
  uint32_t count = 0;
  const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(query, match.pattern_index, &count);
  for (uint32_t i = 0; i < count;) {
    uint32_t j = i;
    while (j < count && steps[j].type != TSQueryPredicateStepTypeDone) ++j;
    std::string op = QueryString(query, steps[i].value_id);
    bool negate = op.rfind("not-", 0) == 0;
    if (negate) op = op.substr(4);
    if ((op == "match?" || op == "eq?" || op == "any-of?") && j - i >= 3 &&
        steps[i + 1].type == TSQueryPredicateStepTypeCapture) {
      for (uint16_t k = 0; k < match.capture_count; ++k) {
        if (match.captures[k].index != steps[i + 1].value_id) continue;
        std::string text = NodeText(doc, match.captures[k].node);
        bool ok = false;
        if (op == "match?") {
          ok = std::regex_search(text, std::regex(QueryString(query, steps[i + 2].value_id)));
        } else if (op == "eq?" && steps[i + 2].type == TSQueryPredicateStepTypeCapture) {
          for (uint16_t l = 0; l < match.capture_count; ++l) {
            if (match.captures[l].index == steps[i + 2].value_id) {
              ok = text == NodeText(doc, match.captures[l].node);
            }
          }
        } else {
          for (uint32_t a = i + 2; a < j && !ok; ++a) ok = text == QueryString(query, steps[a].value_id);
        }
        if (ok == negate) return false;
      }
    }
    i = j + 1;
  }
  return true;
}

// Capture name -> captured texts, each node taking the capture of the first pattern in the file
// that matches it (tree-sitter-highlight's rule); `_`-prefixed helper captures are dropped.
std::map<std::string, std::set<std::string>> Captures(TSQuery* query, const analysis::Document& doc) {
  std::map<const void*, std::pair<uint32_t, std::string>> winner;  // node id -> (pattern, name)
  std::map<const void*, TSNode> nodes;
  TSQueryCursor* cursor = ts_query_cursor_new();
  ts_query_cursor_exec(cursor, query, doc.Root());
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor, &match)) {
    if (!Satisfies(query, match, doc)) continue;
    for (uint16_t k = 0; k < match.capture_count; ++k) {
      uint32_t length = 0;
      const char* name = ts_query_capture_name_for_id(query, match.captures[k].index, &length);
      const void* id = match.captures[k].node.id;
      auto it = winner.find(id);
      if (it == winner.end() || match.pattern_index < it->second.first) {
        winner[id] = {match.pattern_index, std::string(name, length)};
        nodes[id] = match.captures[k].node;
      }
    }
  }
  ts_query_cursor_delete(cursor);
  std::map<std::string, std::set<std::string>> out;
  for (const auto& [id, win] : winner) {
    if (!win.second.empty() && win.second[0] == '_') continue;
    out[win.second].insert(NodeText(doc, nodes[id]));
  }
  return out;
}

TEST(Queries, AllCompile) {
  auto files = ListFiles("grammar/queries", ".scm");
  ASSERT_GE(files.size(), 3u);
  for (const std::string& path : files) Compile(path);
}

TEST(Queries, HighlightsKnowTvmNamespacesOpsAndTypes) {
  QueryPtr query = Compile(SourcePath("grammar/queries/highlights.scm"));
  ASSERT_NE(query, nullptr);
  analysis::Document doc(ReadFileOrDie(SourcePath("examples/transformer_block.py")));
  auto captures = Captures(query.get(), doc);
  auto has = [&](const std::string& capture_prefix, const std::string& text) {
    for (const auto& [name, texts] : captures) {
      if (name.rfind(capture_prefix, 0) == 0 && texts.count(text)) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("module", "R"));
  EXPECT_TRUE(has("module", "T"));
  EXPECT_TRUE(has("module", "I"));
  EXPECT_TRUE(has("attribute.builtin", "prim_func"));
  EXPECT_TRUE(has("type", "Tensor"));
  EXPECT_TRUE(has("type", "Buffer"));
  EXPECT_TRUE(has("type.builtin", "\"float16\""));
  EXPECT_TRUE(has("function.builtin", "matmul"));
  EXPECT_TRUE(has("function.builtin", "call_tir"));
  EXPECT_TRUE(has("variable.builtin", "cls"));
  EXPECT_TRUE(has("keyword", "def"));
  EXPECT_FALSE(has("type", "matmul"));
}

TEST(Queries, FoldsCoverFunctions) {
  QueryPtr query = Compile(SourcePath("grammar/queries/folds.scm"));
  ASSERT_NE(query, nullptr);
  analysis::Document doc("def f():\n    return 1\n\nclass C:\n    x = 1\n");
  auto captures = Captures(query.get(), doc);
  EXPECT_GE(captures["fold"].size(), 2u);
}

}  // namespace
}  // namespace tvmls::testing
