// The tree helpers of model/syntax_util.h against tree-sitter's own answers, on every node of the
// examples, the fixtures and broken variants of them: they replace tree-sitter calls for speed
// (a symbol name table, a field id table, reused cursors, pruned walks) and must answer alike.
#include "model/syntax_util.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/files.h"
#include "syntax/document.h"

namespace tvmls::analysis {
namespace {

using testing::ExampleFiles;
using testing::ListFilesRecursive;
using testing::ReadFileOrDie;
using testing::SourcePath;

// The examples and fixtures, each also cut in half (an unclosed construct, ERROR nodes) and with
// a `(` put into its middle line.
std::vector<std::string> Texts() {
  std::vector<std::string> paths = ExampleFiles();
  for (const std::string& p : ListFilesRecursive("tests/fixtures", ".py")) paths.push_back(p);
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::string text = ReadFileOrDie(p);
    out.push_back(text);
    out.push_back(text.substr(0, text.size() / 2));
    std::string broken = text;
    size_t mid = broken.find('\n', broken.size() / 2);
    if (mid != std::string::npos) broken.insert(mid, "(");
    out.push_back(broken);
  }
  return out;
}

template <typename Visit>
void EveryNode(TSNode root, Visit&& visit) {
  ForEachNode(root, [&](TSNode n) {
    visit(n);
    return true;
  });
}

TEST(SyntaxUtil, TypeOfAndIsAgreeWithTreeSitter) {
  size_t nodes = 0, errors = 0;
  for (const std::string& text : Texts()) {
    Document doc(text);
    EveryNode(doc.Root(), [&](TSNode n) {
      ++nodes;
      errors += std::strcmp(ts_node_type(n), "ERROR") == 0;
      ASSERT_STREQ(TypeOf(n), ts_node_type(n));
      ASSERT_TRUE(Is(n, ts_node_type(n)));
      ASSERT_FALSE(Is(n, "no_such_type"));
    });
  }
  EXPECT_FALSE(Is(TSNode{}, "identifier"));
  EXPECT_GT(nodes, 10000u);
  EXPECT_GT(errors, 10u);  // the broken variants do have ERROR nodes
}

TEST(SyntaxUtil, FieldMatchesTreeSitterForEveryFieldName) {
  Document doc("def f(x: int) -> int:\n    return x\n");
  const TSLanguage* language = ts_tree_language(doc.Root().tree);
  const uint32_t count = ts_language_field_count(language);
  ASSERT_GT(count, 5u);
  for (uint32_t id = 1; id <= count; ++id) {
    const char* name = ts_language_field_name_for_id(language, static_cast<TSFieldId>(id));
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(FieldId(language, name), ts_language_field_id_for_name(language, name, std::strlen(name))) << name;
  }
  EXPECT_EQ(FieldId(language, "no_such_field"), 0);
  EXPECT_TRUE(ts_node_is_null(Field(TSNode{}, "body")));  // a null node has no fields
  size_t compared = 0;
  for (const std::string& text : Texts()) {
    Document d(text);
    EveryNode(d.Root(), [&](TSNode n) {
      for (const char* f : {"body", "left", "right", "function", "arguments", "value", "name", "object"}) {
        ASSERT_TRUE(ts_node_eq(Field(n, f), ts_node_child_by_field_name(n, f, std::strlen(f))));
        ++compared;
      }
    });
  }
  EXPECT_GT(compared, 10000u);
}

TEST(SyntaxUtil, ChildListsMatchTreeSitter) {
  for (const std::string& text : Texts()) {
    Document doc(text);
    EveryNode(doc.Root(), [&](TSNode n) {
      std::vector<TSNode> named = NamedChildren(n), all = Children(n);
      ASSERT_EQ(named.size(), ts_node_named_child_count(n));
      ASSERT_EQ(all.size(), ts_node_child_count(n));
      for (uint32_t i = 0; i < named.size(); ++i) ASSERT_TRUE(ts_node_eq(named[i], ts_node_named_child(n, i)));
      for (uint32_t i = 0; i < all.size(); ++i) ASSERT_TRUE(ts_node_eq(all[i], ts_node_child(n, i)));
    });
  }
}

// A walk that descends only where MayHoldStatements says finds every statement a full walk finds.
TEST(SyntaxUtil, PrunedWalkFindsEveryStatement) {
  auto is_statement = [](TSNode n) {
    const std::string t = ts_node_type(n);
    return t.size() > 10 && t.compare(t.size() - 10, 10, "_statement") == 0;
  };
  size_t statements = 0;
  for (const std::string& text : Texts()) {
    Document doc(text);
    std::vector<uint32_t> full, pruned;
    EveryNode(doc.Root(), [&](TSNode n) {
      // Statements below an expression: only inside ERROR (`assignment` nests in `assignment`).
      if (is_statement(n)) full.push_back(ts_node_start_byte(n));
    });
    ForEachNode(doc.Root(), [&](TSNode n) {
      if (is_statement(n)) pruned.push_back(ts_node_start_byte(n));
      return MayHoldStatements(n) || ts_node_has_error(n);
    });
    ASSERT_EQ(full, pruned) << text.substr(0, 200);
    statements += full.size();
  }
  EXPECT_GT(statements, 1000u);
}

}  // namespace
}  // namespace tvmls::analysis
