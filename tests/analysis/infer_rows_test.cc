// Every row of the op inference tables (tests/ops/infer*.txt), run once more the way a user meets
// it: as a Relax function `y = R.<op>(...)` in a TVMScript file, analysed, with the binding's
// struct info read as `tvmls infer` prints it (query/inferred.h). The tables' own runner
// (tests/ops/infer_test.cc) calls inference directly; this checks that lowering hands the op
// the same arguments (parameters, literals, keywords, symbolic dims) and that errors surface as
// invalid-op-call diagnostics.
//
// A row becomes:
//   from tvm.script import relax as R / tir as T
//   @R.function
//   def f(a0: <struct info argument>, ...):
//       n = T.int64()                        # each symbolic variable of the row
//       y = R.<op>(a0, <literal>, key=<literal>, ...)
//       return y
// Struct info arguments become parameters (except for parameters that take annotations, like
// out_sinfo); everything else is written inline. Rows a TVMScript file cannot express are listed
// in kNotExpressible with the reason.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "analysis.h"
#include "model/model.h"
#include "ops/registry.h"
#include "ops/row_parser.h"
#include "query/inferred.h"
#include "support/files.h"
#include "syntax/document.h"

namespace tvmls::analysis {
namespace {

using testing::ops_rows::CollectVars;
using testing::ops_rows::KeywordOf;
using testing::ops_rows::ParseArg;
using testing::ops_rows::RowArg;
using testing::ops_rows::SplitTop;
using testing::ops_rows::Trim;

bool IsStructInfoText(std::string_view v) {
  for (const char* k : {"R.Tensor", "R.Shape", "R.Tuple", "R.Prim", "R.Object", "R.Any", "R.Callable"}) {
    if (v.substr(0, std::string_view(k).size()) == k) return true;
  }
  return false;
}

struct Module {
  bool ok = false;
  std::string problem;
  std::string text;
};

// The TVMScript function for one row.
Module ModuleOf(std::string_view op_path, std::string_view arg_text) {
  Module m;
  const ops::OpInfo* op = ops::FindOp(op_path);
  if (op == nullptr) {
    m.problem = "no op";
    return m;
  }
  std::vector<std::string_view> items = SplitTop(arg_text, ',');
  std::vector<RowArg> parsed;
  int positional = 0;
  std::vector<std::string> keywords;
  for (std::string_view item : items) {
    auto arg = ParseArg(item);
    if (!arg) {
      m.problem = "cannot parse";
      return m;
    }
    if (arg->keyword) keywords.push_back(*arg->keyword);
    else ++positional;
    parsed.push_back(*arg);
  }
  ops::Binding binding = ops::BindArguments(*op, positional, keywords, false);
  std::vector<bool> takes_annotation(items.size(), false);
  for (size_t i = 0; i < op->params.size(); ++i) {
    int a = binding.arg_of_param[i];
    if (a >= 0 && op->params[i].annotation) takes_annotation[static_cast<size_t>(a)] = true;
  }
  std::string params, call, declarations;
  std::set<std::string> vars;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string_view value = Trim(items[i]);
    std::optional<std::string> keyword = KeywordOf(value, &value);
    std::string arg(Trim(value));
    CollectVars(parsed[i].value.info, &vars);
    CollectVars(parsed[i].value.literal, &vars);
    if (takes_annotation[i]) {
      // out_sinfo and the like take struct info as written.
    } else if (IsStructInfoText(arg)) {
      std::string name = "a" + std::to_string(i);
      params += (params.empty() ? "" : ", ") + name + ": " + arg;
      arg = name;
    } else if (arg.size() >= 2 && (arg[0] == '(' || arg[0] == '[')) {
      // A tuple of tensors (concat, stack): each struct info field becomes a parameter.
      std::vector<std::string_view> fields = SplitTop(std::string_view(arg).substr(1, arg.size() - 2), ',');
      std::string rebuilt;
      size_t k = 0;
      for (std::string_view f : fields) {
        std::string field(Trim(f));
        if (field.empty()) continue;
        if (IsStructInfoText(field)) {
          std::string name = "a" + std::to_string(i) + "_" + std::to_string(k);
          params += (params.empty() ? "" : ", ") + name + ": " + field;
          field = name;
        }
        rebuilt += (k++ ? ", " : "") + field;
      }
      arg = std::string(1, arg[0]) + rebuilt + (k == 1 && arg[0] == '(' ? ",)" : std::string(1, arg.back()));
    }
    call += (call.empty() ? "" : ", ") + (keyword ? *keyword + "=" : std::string()) + arg;
  }
  for (const std::string& v : vars) declarations += "    " + v + " = T.int64()\n";
  m.text = "from tvm.script import relax as R\nfrom tvm.script import tir as T\n\n\n@R.function\ndef f(" + params +
           "):\n" + declarations + "    y = R." + std::string(op_path) + "(" + call + ")\n    return y\n";
  m.ok = true;
  return m;
}

struct Seen {
  std::string struct_info;            // of `y`; "" unknown
  std::vector<std::string> op_errors;  // invalid-op-call messages
  std::vector<std::string> others;     // other error diagnostics
};

Seen Analyze(const std::string& text) {
  Document doc(text);
  Analyzer analyzer;
  analyzer.Run(doc);
  Seen s;
  if (const FileModel* model = analyzer.Model()) {
    for (const Inferred& i : InferredStructInfo(*model)) {
      if (i.kind == Inferred::Kind::kBinding && i.name == "y") s.struct_info = i.struct_info;
    }
  }
  for (const Diagnostic* d : analyzer.Diagnostics()) {
    if (d->code == "invalid-op-call") s.op_errors.push_back(d->message);
    else if (d->severity == Severity::kError) s.others.push_back(d->code + ": " + d->message);
  }
  return s;
}

// Rows whose arguments a TVMScript file cannot pass as the table does, by `op | arguments`.
const std::map<std::string, const char*> kNotExpressible = {
    {"add | R.Tensor((2, 3), \"float32\"), 1",
     "in a file the parser turns the literal 1 into an int64 constant (R.const), a dtype conflict; "
     "the row is about a non-tensor operand"},
    {"call_tir_inplace | cls.f, (R.Tensor((2, 3), \"float32\"),), inplace_indices=0, out_sinfo=R.Tensor((3, 2), \"float32\")",
     "needs a module with the PrimFunc `f`; the call_tir fixtures cover it in a file"},
    {"invoke_pure_closure | c, (x,), []", "the closure `c` and `x` are names the row does not define"},
    {"dist.annotate_sharding | R.Tensor((2, 3), \"float32\"), m, p",
     "the device mesh `m` and placement `p` are names the row does not define"},
};

TEST(InferRows, EveryRowThroughTheAnalyzer) {
  int rows = 0, compared = 0, skipped = 0;
  std::vector<std::string> files = testing::ListFilesRecursive("tests/ops", ".txt");
  for (const std::string& path : files) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (name.rfind("infer", 0) != 0) continue;
    std::istringstream in(testing::ReadFileOrDie(path));
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      std::string_view text = Trim(line);
      if (text.empty() || text[0] == '#') continue;
      std::vector<std::string_view> cols = SplitTop(text, '|');
      if (cols.size() != 3) continue;
      ++rows;
      std::string where = name + ":" + std::to_string(line_no) + ": ";
      std::string key = std::string(Trim(cols[0])) + " | " + std::string(Trim(cols[1]));
      if (kNotExpressible.count(key)) {
        ++skipped;
        continue;
      }
      Module m = ModuleOf(Trim(cols[0]), Trim(cols[1]));
      ASSERT_TRUE(m.ok) << where << m.problem;
      Seen seen = Analyze(m.text);
      std::string_view expected = Trim(cols[2]);
      ++compared;
      if (expected.substr(0, 6) == "error[") {
        std::string needle(Trim(expected.substr(expected.find(']') + 1)));
        bool found = false;
        for (const std::string& e : seen.op_errors) found = found || e.find(needle) != std::string::npos;
        EXPECT_TRUE(found) << where << "expected an invalid-op-call containing `" << needle << "`\n" << m.text;
      } else if (expected == "unknown") {
        EXPECT_TRUE(seen.struct_info.empty() && seen.op_errors.empty())
            << where << "expected unknown, got `" << seen.struct_info << "`\n" << m.text;
      } else {
        EXPECT_EQ(seen.struct_info, expected) << where << "\n" << m.text;
        EXPECT_TRUE(seen.op_errors.empty()) << where << seen.op_errors[0];
      }
    }
  }
  EXPECT_GT(rows, 400);
  EXPECT_EQ(compared + skipped, rows);
  EXPECT_EQ(skipped, static_cast<int>(kNotExpressible.size())) << "a kNotExpressible row is gone";
}

}  // namespace
}  // namespace tvmls::analysis
