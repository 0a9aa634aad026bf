// Data-driven inference tests: tests/ops/infer.txt (and any tests/ops/infer_*.txt) holds one
// case per row,
//
//   op | arguments | expected
//
// `op` is the path after `R.` (either era's keywords work in the arguments), `arguments` are
// positional values then `name=value` keywords (syntax in row_parser.h), and `expected` is the
// exact printer spelling of the inferred struct info, `unknown` (silent, no errors), or
// `error[i] text` (an error at parameter i whose message contains text). An argument written as
// struct info is a variable named `a<k>` by its position k in the row (`R.zeros(a0, ...)` with
// `a0: R.Shape([2, 3])` infers `R.Tensor(a0, dtype=...)`). Symbolic variables of
// a row are non-negative, as TVM assumes for variables from parameter annotations. `#` starts a
// comment line. A failing row reports its file and line.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "ops/registry.h"
#include "ops/row_parser.h"
#include "support/files.h"

namespace tvmls::ops {
namespace {

using testing::ops_rows::CollectVars;
using testing::ops_rows::ParseArg;
using testing::ops_rows::RowArg;
using testing::ops_rows::SplitTop;
using testing::ops_rows::Trim;

struct Outcome {
  bool ok = false;
  std::string problem;  // why the row could not be run
  InferResult result;
};

Outcome RunRow(std::string_view op_path, std::string_view arg_text) {
  Outcome out;
  const OpInfo* op = FindOp(op_path);
  if (!op) {
    out.problem = "no op R." + std::string(op_path);
    return out;
  }
  std::vector<RowArg> row_args;
  for (std::string_view item : SplitTop(arg_text, ',')) {
    auto arg = ParseArg(item);
    if (!arg) {
      out.problem = "cannot parse argument `" + std::string(item) + "`";
      return out;
    }
    row_args.push_back(*arg);
  }
  int positional = 0;
  std::vector<std::string> keywords;
  for (const RowArg& a : row_args) {
    if (a.keyword) {
      keywords.push_back(*a.keyword);
    } else if (!keywords.empty()) {
      out.problem = "positional argument after a keyword";
      return out;
    } else {
      ++positional;
    }
  }
  Binding binding = BindArguments(*op, positional, keywords, false);
  if (!binding.problems.empty()) {
    out.problem = "binding: " + binding.problems[0].message;
    return out;
  }
  std::vector<ArgValue> args(op->params.size());
  std::set<std::string> vars;
  for (size_t i = 0; i < op->params.size(); ++i) {
    int index = binding.arg_of_param[i];
    if (index < 0) continue;
    const RowArg& a = row_args[static_cast<size_t>(index)];
    args[i] = a.value;
    // A struct info argument is a variable `a<k>` (k: its position in the row), as in the
    // function tests/analysis/infer_rows_test.cc makes of the row: TVM keeps a Shape-typed
    // variable as the shape of a result (`R.Tensor(a1, dtype="float32")`).
    if (a.variable) args[i].var = "a" + std::to_string(index);
    if (!op->params[i].annotation) {
      args[i].annotation.reset();
      if (a.info_list) args[i].literal = Literal();
    }
    CollectVars(args[i].literal, &vars);
    CollectVars(args[i].info, &vars);
  }
  arith::Facts facts;
  for (const std::string& v : vars) facts.AddNonNegative(v);
  InferContext ctx;
  ctx.facts = &facts;
  out.result = Infer(*op, args, ctx);
  out.ok = true;
  return out;
}

std::string Show(const InferResult& r) {
  std::string s = r.info.IsUnknown() ? "unknown" : types::Print(r.info);
  for (const InferError& e : r.errors)
    s += "\n  error[" + std::to_string(e.param) + "] " + e.message;
  return s;
}

void CheckTable(const std::string& path, int* rows) {
  std::string relative = path.substr(path.find_last_of('/') + 1);
  std::istringstream in(testing::ReadFileOrDie(path));
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::string_view text = Trim(line);
    if (text.empty() || text[0] == '#') continue;
    std::string where = relative + ":" + std::to_string(line_no) + ": ";
    std::vector<std::string_view> cols = SplitTop(text, '|');
    if (cols.size() != 3) {
      ADD_FAILURE() << where << "expected `op | arguments | expected`";
      continue;
    }
    ++*rows;
    Outcome o = RunRow(cols[0], cols[1]);
    if (!o.ok) {
      ADD_FAILURE() << where << o.problem;
      continue;
    }
    std::string_view expected = cols[2];
    if (expected.substr(0, 6) == "error[") {
      size_t close = expected.find(']');
      int param = std::stoi(std::string(expected.substr(6, close - 6)));
      std::string_view needle = Trim(expected.substr(close + 1));
      bool found = false;
      for (const InferError& e : o.result.errors) {
        found = found || (e.param == param && e.message.find(needle) != std::string::npos);
      }
      EXPECT_TRUE(found) << where << "expected error[" << param << "] containing `" << needle
                         << "`, got " << Show(o.result);
    } else if (expected == "unknown") {
      EXPECT_TRUE(o.result.info.IsUnknown() && o.result.errors.empty())
          << where << "expected unknown, got " << Show(o.result);
    } else {
      EXPECT_TRUE(o.result.errors.empty() && types::Print(o.result.info) == expected)
          << where << "\n  expected " << expected << "\n  got      " << Show(o.result);
    }
  }
}

TEST(InferTables, AllRows) {
  int rows = 0;
  int files = 0;
  for (const std::string& f : testing::ListFiles("tests/ops", ".txt")) {
    std::string name = f.substr(f.find_last_of('/') + 1);
    if (name.rfind("infer", 0) != 0) continue;
    ++files;
    CheckTable(f, &rows);
  }
  EXPECT_GE(files, 1);
  EXPECT_GE(rows, 250);
}

// Every operator with inference and a TVMScript spelling has at least three rows (issue 13: the
// static, symbolic/unknown and error cases of each); relax.inspect.* have no spelling to write.
TEST(InferTables, EveryInferredOpHasThreeRows) {
  std::map<std::string, int> rows_of;
  for (const std::string& f : testing::ListFiles("tests/ops", ".txt")) {
    std::string name = f.substr(f.find_last_of('/') + 1);
    if (name.rfind("infer", 0) != 0) continue;
    std::istringstream in(testing::ReadFileOrDie(f));
    std::string line;
    while (std::getline(in, line)) {
      std::string_view text = Trim(line);
      if (text.empty() || text[0] == '#') continue;
      std::vector<std::string_view> cols = SplitTop(text, '|');
      if (cols.size() == 3) ++rows_of[std::string(Trim(cols[0]))];
    }
  }
  int ops = 0;
  for (const OpInfo& op : AllOps()) {
    if (!HasInference(op) || op.script == nullptr) continue;
    ++ops;
    int n = rows_of[op.script] + (op.current_script ? rows_of[op.current_script] : 0);
    EXPECT_GE(n, 3) << op.name << " has " << n << " inference row(s)";
  }
  EXPECT_GE(ops, 200);
}

TEST(InferTables, RowParserReadsPrinterSyntax) {
  using testing::ops_rows::ParseStructInfo;
  for (const char* text :
       {"R.Tensor((2, 3), dtype=\"float32\")", "R.Tensor((n,), dtype=\"float32\")",
        "R.Tensor(dtype=\"float32\", ndim=2)", "R.Shape([1, n])", "R.Shape(ndim=3)",
        "R.Prim(\"int64\")", "R.Object", "R.Tuple(R.Tensor((2,), dtype=\"int64\"), R.Object)",
        "R.Tensor((n * 2, m + 1), dtype=\"float16\")", "R.Tuple"}) {
    auto info = ParseStructInfo(text);
    ASSERT_TRUE(info) << text;
    EXPECT_EQ(types::Print(*info), text);
  }
  EXPECT_FALSE(ParseStructInfo("R.Tensor((2, 3), bogus=1)"));
  EXPECT_FALSE(ParseStructInfo("x"));
}

}  // namespace
}  // namespace tvmls::ops
