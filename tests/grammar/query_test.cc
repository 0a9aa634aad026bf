// The editor queries (grammar/queries/*.scm) compile against the grammar and capture what they
// promise on a real example.
#include <gtest/gtest.h>

#include <map>
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
  TSQuery* query = ts_query_new(tree_sitter_tvmscript(), source.data(),
                                static_cast<uint32_t>(source.size()), &error_offset, &error);
  EXPECT_NE(query, nullptr) << path << ": query error " << error << " at byte " << error_offset
                            << ": " << source.substr(error_offset, 40);
  return QueryPtr(query);
}

// Capture name -> set of captured texts over a document.
std::map<std::string, std::set<std::string>> Captures(TSQuery* query, const analysis::Document& doc) {
  std::map<std::string, std::set<std::string>> out;
  TSQueryCursor* cursor = ts_query_cursor_new();
  ts_query_cursor_exec(cursor, query, doc.Root());
  TSQueryMatch match;
  uint32_t index = 0;
  while (ts_query_cursor_next_capture(cursor, &match, &index)) {
    const TSQueryCapture& capture = match.captures[index];
    uint32_t length = 0;
    const char* name = ts_query_capture_name_for_id(query, capture.index, &length);
    uint32_t begin = ts_node_start_byte(capture.node), end = ts_node_end_byte(capture.node);
    out[std::string(name, length)].insert(doc.Text().substr(begin, end - begin));
  }
  ts_query_cursor_delete(cursor);
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
  EXPECT_TRUE(has("comment", "# from tvm.script import relax as R") ||
              has("comment", "from tvm.script import relax as R") || !captures["comment"].empty());
  EXPECT_TRUE(has("module", "R") || has("namespace", "R"));
  EXPECT_TRUE(has("module", "T") || has("namespace", "T"));
  EXPECT_TRUE(has("type", "Tensor"));
  EXPECT_TRUE(has("function.builtin", "matmul"));
  EXPECT_TRUE(has("keyword", "def"));
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
