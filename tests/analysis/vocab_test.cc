// The TVMScript vocabulary (analysis/vocab/): the name table is consistent with the op registry,
// it is the one source of what completion offers under `R.`/`T.`/`I.` and of what the lowering
// takes as a non-operator, and the text scanner splits and searches as its users need.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "analysis.h"
#include "ops/registry.h"
#include "query/completion.h"
#include "vocab/script_names.h"
#include "vocab/text_scan.h"

namespace tvmls::analysis {
namespace {

using vocab::AllScriptNames;
using vocab::Dialect;
using vocab::EraTag;
using vocab::FindScriptName;
using vocab::NameKind;
using vocab::ParamText;
using vocab::ParseParams;
using vocab::ScriptName;

// ---------------------------------------------------------------- the table

// Every sub-namespace of the op table is described by the namespace table.
TEST(Namespaces, EveryOperatorSubNamespaceHasARow) {
  for (const ops::OpInfo& op : ops::AllOps()) {
    if (op.script == nullptr) continue;
    std::string path = op.script;
    size_t dot = path.find('.');
    if (dot == std::string::npos) continue;
    const ScriptName* row = FindScriptName(Dialect::kRelax, path.substr(0, dot), true, true);
    ASSERT_NE(row, nullptr) << path;
    EXPECT_EQ(row->kind, NameKind::kNamespace) << path;
  }
}

// No name is both a Relax operator and a row of the namespace table, and every row's parameter
// list parses with its dtype slot inside it.
TEST(Namespaces, RowsAreConsistent) {
  for (const ScriptName& n : AllScriptNames()) {
    if (n.dialect == Dialect::kRelax) {
      EXPECT_EQ(ops::FindOp(n.path), nullptr) << n.path;
    }
    EXPECT_NE(std::string(n.doc), "") << n.path;
    // Every proper prefix of a dotted path is a sub-namespace row.
    std::string path = n.path;
    for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1)) {
      bool ns = false;
      for (const ScriptName& m : AllScriptNames()) {
        ns = ns || (m.dialect == n.dialect && m.path == path.substr(0, dot) && m.kind == NameKind::kNamespace);
      }
      EXPECT_TRUE(ns) << path;
    }
    if (n.params == nullptr) {
      EXPECT_LT(n.dtype_arg, 0) << n.path;
      continue;
    }
    EXPECT_TRUE(vocab::SplitTopLevel(n.params).balanced) << n.path;
    std::vector<ParamText> params = ParseParams(n.params);
    EXPECT_LT(n.dtype_arg, static_cast<int>(params.size())) << n.path;
    for (const ParamText& p : params) EXPECT_FALSE(p.name.empty()) << n.path;
  }
}

// A path has at most one row per era, and every row is found.
TEST(Namespaces, OneRowPerEraAndEveryRowFound) {
  std::set<std::string> seen;
  for (const ScriptName& n : AllScriptNames()) {
    std::string key = std::to_string(static_cast<int>(n.dialect)) + n.path;
    for (EraTag era : {EraTag::kClassic, EraTag::kCurrent}) {
      if (n.era != era && n.era != EraTag::kBoth) continue;
      EXPECT_TRUE(seen.insert(key + (era == EraTag::kClassic ? "/classic" : "/current")).second)
          << n.path << " has two rows for one era";
    }
    const ScriptName* found = FindScriptName(n.dialect, n.path, true, true);
    EXPECT_NE(found, nullptr) << n.path;
  }
}

TEST(Namespaces, ParseParamsMarksDefaultsStarsAndKeywordOnly) {
  std::vector<ParamText> p = ParseParams("start, stop=None, *, annotations={\"a\": (1, 2)}");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].name, "start");
  EXPECT_FALSE(p[0].has_default);
  EXPECT_EQ(p[1].default_text, "None");
  EXPECT_TRUE(p[2].keyword_only);
  EXPECT_EQ(p[2].default_text, "{\"a\": (1, 2)}");
  p = ParseParams("*args, x=1, **kwargs");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(p[0].var_positional);
  EXPECT_FALSE(p[0].keyword_only);
  EXPECT_TRUE(p[1].keyword_only);
  EXPECT_TRUE(p[2].var_keyword);
  p = ParseParams("mesh=DeviceMesh([], Range(0, 1)), placement=\"a, b\"");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].default_text, "DeviceMesh([], Range(0, 1))");
  EXPECT_EQ(p[1].default_text, "\"a, b\"");
}

// ---------------------------------------------------------------- one source

// Where the lowering's decision comes from: a Relax row is a non-operator exactly when it is not
// a sub-namespace, and no operator of the registry is one.
TEST(OneSource, NonOperatorsAreTheTableRows) {
  for (const ScriptName& n : AllScriptNames()) {
    if (n.dialect != Dialect::kRelax) continue;
    EXPECT_EQ(vocab::IsRelaxNonOperator(n.path), n.kind != NameKind::kNamespace) << n.path;
  }
  for (const ops::OpInfo& op : ops::AllOps()) {
    for (const char* path : {op.script, op.current_script}) {
      if (path != nullptr) {
        EXPECT_FALSE(vocab::IsRelaxNonOperator(path)) << path;
      }
    }
  }
  EXPECT_TRUE(vocab::IsRelaxNonOperator("Tensor.anything_below"));
  EXPECT_FALSE(vocab::IsRelaxNonOperator("no_such_name"));
  EXPECT_FALSE(vocab::IsRelaxNonOperator("nn.no_such_op"));
  EXPECT_FALSE(vocab::IsRelaxNonOperator("dist.no_such_name"));
}

// A Relax function calling `R.<path>(x)`, analysed; returns the unknown-op diagnostics.
std::vector<std::string> UnknownOps(const std::string& call) {
  std::string text =
      "from tvm.script import relax as R\n"
      "\n"
      "@R.function\n"
      "def f(x: R.Tensor((4,), \"float32\")):\n"
      "    y = " + call + "\n"
      "    return x\n";
  std::vector<std::string> out;
  for (const Diagnostic& d : AnalyzeText(text)) {
    if (d.code == "unknown-op") out.push_back(d.message);
  }
  return out;
}

// The lowering takes exactly the table's names as non-operators: a call of any Relax row (every
// era) is not reported unknown; a name neither in the table nor the registry is.
TEST(OneSource, LoweringAcceptsEveryTableNameAndNothingElse) {
  int names = 0;
  for (const ScriptName& n : AllScriptNames()) {
    if (n.dialect != Dialect::kRelax || n.kind == NameKind::kNamespace) continue;
    ++names;
    EXPECT_EQ(UnknownOps(std::string("R.") + n.path + "(x)"), std::vector<std::string>{}) << n.path;
  }
  EXPECT_GT(names, 50);
  EXPECT_EQ(UnknownOps("R.no_such_name(x)").size(), 1u);
  EXPECT_EQ(UnknownOps("R.nn.no_such_op(x)").size(), 1u);
  EXPECT_EQ(UnknownOps("R.dist.no_such_name(x)").size(), 1u);
  // Names no TVM version has in its Relax namespace are unknown (tvmls once let them through).
  EXPECT_EQ(UnknownOps("R.seq_expr(x)").size(), 1u);
  EXPECT_EQ(UnknownOps("R.func_is_pure(x)").size(), 1u);
  EXPECT_EQ(UnknownOps("R.add(x, x)"), std::vector<std::string>{});
  EXPECT_EQ(UnknownOps("R.dist.redistribute(x, \"mesh[0]\", \"R\")"), std::vector<std::string>{});
}

// Completion under every alias and sub-namespace offers nothing but table rows of the file's era
// and registry operators (or sub-namespaces of them), in both eras.
TEST(OneSource, CompletionItemsComeFromTheTableOrTheRegistry) {
  struct Era {
    const char* tir_module;
    bool classic;
    bool current;
  };
  std::set<std::string> op_paths, op_namespaces;
  for (const ops::OpInfo& op : ops::AllOps()) {
    for (const char* path : {op.script, op.current_script}) {
      if (path == nullptr) continue;
      std::string p = path;
      op_paths.insert(p);
      for (size_t dot = p.find('.'); dot != std::string::npos; dot = p.find('.', dot + 1)) {
        op_namespaces.insert(p.substr(0, dot));
      }
    }
  }
  // The namespaces to complete in: each dialect's top level and every sub-namespace row.
  std::vector<std::pair<Dialect, std::string>> prefixes = {
      {Dialect::kRelax, ""}, {Dialect::kTir, ""}, {Dialect::kIr, ""}};
  for (const ScriptName& n : AllScriptNames()) {
    if (n.kind == NameKind::kNamespace) prefixes.push_back({n.dialect, std::string(n.path) + "."});
  }
  int items = 0;
  for (const Era& era : {Era{"tir", true, false}, Era{"tirx", false, true}}) {
    for (const auto& [dialect, prefix] : prefixes) {
      const char* alias = dialect == Dialect::kRelax ? "R" : dialect == Dialect::kTir ? "T" : "I";
      std::string head = std::string(alias) + "." + prefix;
      std::string text = std::string("from tvm.script import ir as I\nfrom tvm.script import relax as R\n") +
                         "from tvm.script import " + era.tir_module + " as T\n\n@I.ir_module\nclass M:\n" +
                         "    @R.function\n    def f(x: R.Tensor((4,), \"float32\")):\n        y = " + head;
      uint32_t cursor = static_cast<uint32_t>(text.size());
      text += "\n        return x\n";
      Document doc(text);
      Analyzer analyzer;
      analyzer.Run(doc);
      CompletionResult result = CompleteAt(doc, *analyzer.Model(), cursor);
      // A namespace whose members the table does not describe (`T.ptx`, registered by TVM's
      // backends) offers nothing rather than guesses.
      bool described = prefix.empty() || dialect == Dialect::kRelax;
      for (const ScriptName& m : AllScriptNames()) {
        described = described || (m.dialect == dialect && std::string(m.path).rfind(prefix, 0) == 0);
      }
      EXPECT_EQ(result.items.empty(), !described) << head;
      for (const CompletionItem& item : result.items) {
        ++items;
        std::string path = prefix + item.label;
        const ScriptName* row = FindScriptName(dialect, path, era.classic, era.current);
        bool from_registry = dialect == Dialect::kRelax && (op_paths.count(path) || op_namespaces.count(path));
        EXPECT_TRUE(row != nullptr || from_registry) << head << item.label << " comes from neither source";
      }
    }
  }
  EXPECT_GT(items, 500);
}

// ---------------------------------------------------------------- T. names

// A PrimFunc of the given era whose body is `T.evaluate(<expr>)`, analysed; the messages of the
// diagnostics with `code`.
std::vector<std::string> TirDiagnostics(const std::string& expr, bool current, const char* code) {
  std::string text = std::string("from tvm.script import ") + (current ? "tirx" : "tir") +
                     " as T\n\n@T.prim_func\ndef f(x: T.int32):\n    T.evaluate(" + expr + ")\n";
  std::vector<std::string> out;
  for (const Diagnostic& d : AnalyzeText(text)) {
    if (d.code == code) out.push_back(d.message);
  }
  return out;
}

// The check judges `T.` names by the table alone: every row's name is known in its era(s); a name
// of no row is unknown-op, named with the other era when only that era has a row.
TEST(TirNames, EveryRowIsKnownInItsEraAndOnlyThere) {
  int names = 0;
  for (const ScriptName& n : AllScriptNames()) {
    if (n.dialect != Dialect::kTir) continue;
    for (bool current : {false, true}) {
      if (!vocab::InEra(n.era, !current, current)) {
        if (FindScriptName(Dialect::kTir, n.path, !current, current) == nullptr) {
          std::vector<std::string> m = TirDiagnostics(std::string("T.") + n.path, current, "unknown-op");
          ASSERT_EQ(m.size(), 1u) << n.path;
          EXPECT_NE(m[0].find(current ? "classic (`tir`)" : "current (`tirx`)"), std::string::npos) << m[0];
        }
        continue;
      }
      ++names;
      EXPECT_EQ(TirDiagnostics(std::string("T.") + n.path, current, "unknown-op"), std::vector<std::string>{})
          << n.path;
    }
  }
  EXPECT_GT(names, 800);
  EXPECT_EQ(TirDiagnostics("T.no_such_name(x)", false, "unknown-op").size(), 1u);
  EXPECT_EQ(TirDiagnostics("T.axis.no_such_kind(x)", true, "unknown-op").size(), 1u);
  EXPECT_EQ(TirDiagnostics("T.float32x8(x)", true, "unknown-op"), std::vector<std::string>{});
  EXPECT_EQ(TirDiagnostics("T.ptx.any.chain.below(x)", true, "unknown-op"), std::vector<std::string>{});
}

// A call with the row's required positional arguments binds; one more than a signature without
// `*args` takes is bad-op-arguments, and so is one fewer than it requires.
TEST(TirNames, ArityFollowsEachRowsParameters) {
  int checked = 0;
  for (const ScriptName& n : AllScriptNames()) {
    if (n.dialect != Dialect::kTir || n.params == nullptr || n.kind == NameKind::kNamespace) continue;
    for (bool current : {false, true}) {
      if (FindScriptName(Dialect::kTir, n.path, !current, current) != &n) continue;
      size_t required = 0, capacity = 0;
      bool var_positional = false, required_keyword = false;
      for (const ParamText& p : ParseParams(n.params)) {
        var_positional = var_positional || p.var_positional;
        if (p.keyword_only && !p.has_default && !p.var_keyword) required_keyword = true;
        if (p.var_positional || p.var_keyword || p.keyword_only) continue;
        ++capacity;
        if (!p.has_default) required = capacity;
      }
      auto call = [&](size_t count) {
        std::string args;
        for (size_t i = 0; i < count; ++i) args += (i ? ", x" : "x");
        return std::string("T.") + n.path + "(" + args + ")";
      };
      if (!required_keyword) {
        EXPECT_EQ(TirDiagnostics(call(required), current, "bad-op-arguments"), std::vector<std::string>{})
            << call(required);
      }
      if (!var_positional) {
        EXPECT_EQ(TirDiagnostics(call(capacity + 1), current, "bad-op-arguments").size(), 1u) << call(capacity + 1);
      }
      if (required > 0) {
        EXPECT_FALSE(TirDiagnostics(call(required - 1), current, "bad-op-arguments").empty()) << call(required - 1);
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 700);
  // Splats and keywords bind as Python binds them.
  EXPECT_EQ(TirDiagnostics("T.if_then_else(*x)", false, "bad-op-arguments"), std::vector<std::string>{});
  EXPECT_EQ(TirDiagnostics("T.if_then_else(x, f=x, t=x)", false, "bad-op-arguments"), std::vector<std::string>{});
}

// ---------------------------------------------------------------- the text scanner

std::vector<std::string> Pieces(std::string_view text, char separator = ',') {
  std::vector<std::string> out;
  for (std::string_view piece : vocab::SplitTopLevel(text, separator).pieces) out.emplace_back(piece);
  return out;
}

TEST(TextScan, SplitsAtTopLevelOnly) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Pieces("a, (b, c), [d, {e: f}], 'g, h', \"i, \\\" j\""),
            (V{"a", " (b, c)", " [d, {e: f}]", " 'g, h'", " \"i, \\\" j\""}));
  EXPECT_EQ(Pieces(""), V{""});
  EXPECT_EQ(Pieces("a,"), (V{"a", ""}));
  EXPECT_EQ(Pieces("x | (y | z)", '|'), (V{"x ", " (y | z)"}));
  EXPECT_TRUE(vocab::SplitTopLevel("(a, [b])").balanced);
  EXPECT_FALSE(vocab::SplitTopLevel("(a").balanced);
  EXPECT_FALSE(vocab::SplitTopLevel("a)(").balanced);
  EXPECT_FALSE(vocab::SplitTopLevel("'a").balanced);
}

TEST(TextScan, MatchingCloseAndSearch) {
  EXPECT_EQ(vocab::MatchingClose("(a, (b), ')') + 1"), 12u);
  EXPECT_EQ(vocab::MatchingClose("[1, [2]]"), 7u);
  EXPECT_EQ(vocab::MatchingClose("((1)"), std::string_view::npos);
  EXPECT_EQ(vocab::MatchingClose("a()"), std::string_view::npos);
  EXPECT_EQ(vocab::MatchingClose(""), std::string_view::npos);
  EXPECT_EQ(vocab::FindOutsideStrings("x = '#' + \"\\\"#\"  # c", '#'), 17u);
  EXPECT_EQ(vocab::FindOutsideStrings("x = '#'", '#'), std::string_view::npos);
  // An escape at the very end does not read past it.
  EXPECT_EQ(vocab::FindOutsideStrings("'\\", '#'), std::string_view::npos);
}

}  // namespace
}  // namespace tvmls::analysis
