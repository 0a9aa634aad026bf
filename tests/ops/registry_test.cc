// The op table against relax_ops.json (via the checked-in relax_ops_list.txt), the rows' data
// form (setters, per-row data agreeing with the inference functions), FindOp in both eras,
// argument binding, signatures, literal parsing, ops::Infer, and robustness on odd input.
#include "ops/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "ops/infer_common.h"
#include "support/files.h"
#include "vocab/dtype.h"

namespace tvmls::ops {
namespace {

std::string Trimmed(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

const OpInfo* ByName(const std::string& name) {
  for (const OpInfo& op : AllOps()) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

const char* KindText(ParamKind kind) {
  switch (kind) {
    case ParamKind::kTensor:
      return "tensor";
    case ParamKind::kShape:
      return "shape";
    case ParamKind::kPrim:
      return "prim";
    case ParamKind::kAttr:
      return "attr";
    case ParamKind::kAny:
      return "any";
  }
  return "?";
}

TEST(OpRegistry, EveryJsonOpIsInTheTableWithItsParameters) {
  std::istringstream in(
      testing::ReadFileOrDie(testing::SourcePath("tests/ops/relax_ops_list.txt")));
  std::string line;
  int line_no = 0, count = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    SCOPED_TRACE("relax_ops_list.txt:" + std::to_string(line_no));
    std::vector<std::string> cols;
    std::istringstream row(line);
    for (std::string col; std::getline(row, col, '|');) cols.push_back(Trimmed(col));
    ASSERT_EQ(cols.size(), 4u);
    ++count;
    const OpInfo* op = ByName(cols[0]);
    ASSERT_NE(op, nullptr) << cols[0] << " is missing from the table";
    if (cols[1] == "-") {
      EXPECT_EQ(op->script, nullptr);
    } else {
      ASSERT_NE(op->script, nullptr);
      EXPECT_EQ("R." + std::string(op->script), cols[1]);
      EXPECT_EQ(FindOp(op->script), op);
    }
    EXPECT_EQ(op->pure, cols[2] == "pure") << cols[0];
    std::string params;
    for (const Param& p : op->params) {
      if (p.classic_only) continue;
      std::string def = p.default_text ? p.default_text : "-";
      def.erase(std::remove(def.begin(), def.end(), ' '), def.end());
      if (!params.empty()) params += " ";
      params += std::string(p.name) + "=" + def + ":" + KindText(p.kind);
    }
    EXPECT_EQ(params, cols[3]) << cols[0];
    EXPECT_NE(op->infer, nullptr);
    EXPECT_NE(op->doc, nullptr);
    EXPECT_GT(std::string(op->doc).size(), 5u);
  }
  EXPECT_EQ(count, 230);
}

TEST(OpRegistry, NamesAreUnique) {
  std::map<std::string, int> seen;
  for (const OpInfo& op : AllOps()) EXPECT_EQ(seen[op.name]++, 0) << op.name;
  EXPECT_EQ(AllOps().size(), 240u);  // 230 registered ops + 10 script helpers
}

TEST(OpRegistry, FindOpBothEras) {
  ASSERT_NE(FindOp("add"), nullptr);
  EXPECT_STREQ(FindOp("add")->name, "relax.add");
  EXPECT_STREQ(FindOp("nn.conv2d")->name, "relax.nn.conv2d");
  EXPECT_STREQ(FindOp("memory.alloc_tensor")->name, "relax.memory.alloc_tensor");
  EXPECT_STREQ(FindOp("call_packed")->name, "script.call_packed");
  EXPECT_STREQ(FindOp("nn.relu6")->name, "script.nn.relu6");
  EXPECT_FALSE(FindOp("call_packed")->pure);
  EXPECT_EQ(FindOp("inspect.tensor_ndim"), nullptr);
  EXPECT_EQ(FindOp("Tensor"), nullptr);
  EXPECT_EQ(FindOp("match_cast"), nullptr);
  EXPECT_EQ(FindOp(""), nullptr);
  EXPECT_EQ(FindOp("nn"), nullptr);
}

std::vector<std::string> Messages(const Binding& b) {
  std::vector<std::string> out;
  for (const auto& p : b.problems) out.push_back(std::to_string(p.arg) + ": " + p.message);
  return out;
}

TEST(BindArguments, ClassicAndCurrentKeywordsBindTheSameParameter) {
  const OpInfo& op = *FindOp("call_tir");
  Binding classic = BindArguments(op, 2, {"out_sinfo"}, false);
  Binding current = BindArguments(op, 2, {"out_ty"}, false);
  EXPECT_TRUE(classic.problems.empty()) << ::testing::PrintToString(Messages(classic));
  EXPECT_TRUE(current.problems.empty());
  EXPECT_EQ(classic.arg_of_param, (std::vector<int>{0, 1, 2, -1}));
  EXPECT_EQ(current.arg_of_param, classic.arg_of_param);
  Binding tir_vars = BindArguments(op, 2, {"out_sinfo", "tir_vars"}, false);
  EXPECT_TRUE(tir_vars.problems.empty());
  EXPECT_EQ(tir_vars.arg_of_param[3], 3);
  Binding both = BindArguments(op, 2, {"out_sinfo", "out_ty"}, false);
  ASSERT_EQ(both.problems.size(), 1u);
  EXPECT_EQ(both.problems[0].arg, 3);
  EXPECT_NE(both.problems[0].message.find("multiple values"), std::string::npos);
}

TEST(BindArguments, Problems) {
  const OpInfo& add = *FindOp("add");
  EXPECT_EQ(Messages(BindArguments(add, 3, {}, false)),
            (std::vector<std::string>{"2: takes 2 positional arguments but 3 were given"}));
  EXPECT_EQ(Messages(BindArguments(add, 1, {}, false)),
            (std::vector<std::string>{"-1: missing required argument 'x2'"}));
  EXPECT_EQ(Messages(BindArguments(add, 1, {"x3"}, false)),
            (std::vector<std::string>{"1: unexpected keyword argument 'x3'",
                                      "-1: missing required argument 'x2'"}));
  EXPECT_EQ(Messages(BindArguments(add, 1, {"x1"}, false)),
            (std::vector<std::string>{"1: got multiple values for argument 'x1'",
                                      "-1: missing required argument 'x2'"}));
  Binding ok = BindArguments(add, 0, {"x2", "x1"}, false);
  EXPECT_TRUE(ok.problems.empty());
  EXPECT_EQ(ok.arg_of_param, (std::vector<int>{1, 0}));
  // A splat hides everything.
  EXPECT_TRUE(BindArguments(add, 5, {"x9"}, true).problems.empty());
  // Defaults make parameters optional.
  const OpInfo& conv = *FindOp("nn.conv2d");
  Binding c = BindArguments(conv, 2, {"strides", "padding", "data_layout"}, false);
  EXPECT_TRUE(c.problems.empty());
  EXPECT_EQ(c.arg_of_param[2], 2);
  EXPECT_EQ(c.arg_of_param[6], 4);
  EXPECT_EQ(c.arg_of_param[9], -1);
}

TEST(BindArguments, Variadics) {
  const OpInfo& packed = *FindOp("call_packed");
  Binding b = BindArguments(packed, 3, {"sinfo_args", "some_attr"}, false);
  EXPECT_TRUE(b.problems.empty()) << ::testing::PrintToString(Messages(b));
  EXPECT_EQ(b.arg_of_param, (std::vector<int>{0, 1, 3, 4}));
  EXPECT_EQ(b.rest_args, (std::vector<int>{1, 2}));
  EXPECT_EQ(b.extra_keywords, (std::vector<int>{4}));

  const OpInfo& pure = *FindOp("call_pure_packed");
  Binding p = BindArguments(pure, 1, {}, false);
  EXPECT_EQ(Messages(p), (std::vector<std::string>{"-1: missing required argument 'ty_args'"}));
  Binding p2 = BindArguments(pure, 4, {"ty_args"}, false);
  EXPECT_TRUE(p2.problems.empty());
  EXPECT_EQ(p2.rest_args, (std::vector<int>{1, 2, 3}));

  const OpInfo& print = *FindOp("print");
  EXPECT_TRUE(BindArguments(print, 0, {"format"}, false).problems.empty());
  EXPECT_TRUE(BindArguments(print, 5, {}, false).problems.empty());

  // Keyword-only without a star: call_builtin_with_ctx(func, args, *, ty_args=None).
  const OpInfo& builtin = *FindOp("call_builtin_with_ctx");
  EXPECT_EQ(BindArguments(builtin, 3, {}, false).problems.size(), 1u);
  EXPECT_TRUE(BindArguments(builtin, 2, {"sinfo_args"}, false).problems.empty());
}

TEST(Signature, BothEras) {
  EXPECT_EQ(Signature(*FindOp("call_tir"), false),
            "R.call_tir(gvar, args, out_sinfo, tir_vars=None)");
  EXPECT_EQ(Signature(*FindOp("call_tir"), true), "R.call_tir(gvar, args, out_ty)");
  EXPECT_EQ(Signature(*FindOp("call_pure_packed"), false),
            "R.call_pure_packed(func, *args, sinfo_args)");
  EXPECT_EQ(Signature(*FindOp("call_builtin_with_ctx"), true),
            "R.call_builtin_with_ctx(func, args, *, ty_args=None)");
  EXPECT_EQ(Signature(*FindOp("nn.conv2d"), true),
            "R.nn.conv2d(data, weight, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1, "
            "data_layout='NCHW', kernel_layout='OIHW', out_layout=None, out_dtype=None)");
  EXPECT_EQ(Signature(*ByName("relax.inspect.tensor_ndim"), true),
            "relax.inspect.tensor_ndim(tensor)");
}

TEST(Literal, Parse) {
  using K = Literal::Kind;
  EXPECT_EQ(ParseLiteral("None").kind, K::kNone);
  EXPECT_EQ(ParseLiteral("True").bool_value, true);
  EXPECT_EQ(ParseLiteral("-100").int_value, -100);
  EXPECT_EQ(ParseLiteral("-100").AsExpr(), arith::Expr(-100));
  EXPECT_DOUBLE_EQ(ParseLiteral("1e-05").float_value, 1e-05);
  EXPECT_DOUBLE_EQ(ParseLiteral("-0.75").float_value, -0.75);
  EXPECT_EQ(ParseLiteral("'NCHW'").string_value, "NCHW");
  EXPECT_EQ(ParseLiteral("\"float32\"").string_value, "float32");
  EXPECT_EQ(ParseLiteral("prim_value(0)").AsInt(), 0);
  EXPECT_EQ(ParseLiteral("(1, 1)").AsIntList(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(ParseLiteral("(1,)").AsIntList(), (std::vector<int64_t>{1}));
  EXPECT_EQ(ParseLiteral("()").AsIntList(), (std::vector<int64_t>{}));
  EXPECT_EQ(ParseLiteral("(3)").AsInt(), 3);
  EXPECT_EQ(ParseLiteral("[[1, 2], [3]]").items.size(), 2u);
  EXPECT_EQ(ParseLiteral("3").AsIntList(true), (std::vector<int64_t>{3}));
  EXPECT_FALSE(ParseLiteral("3").AsIntList(false));
  Literal n = ParseLiteral("n * 2");
  EXPECT_EQ(n.kind, K::kExpr);
  EXPECT_EQ(n.AsExpr(), arith::Expr::Var("n") * 2);
  EXPECT_EQ(ParseLiteral("[n, 4]").AsExprList()->size(), 2u);
  EXPECT_EQ(ParseLiteral("99999999999999999999999").kind, K::kOther);
  EXPECT_EQ(ParseLiteral("(1, 2").kind, K::kOther);
  EXPECT_EQ(ParseLiteral("").kind, K::kOther);
  EXPECT_EQ(ParseLiteral("((((").kind, K::kOther);
  EXPECT_EQ(ParseLiteral("'a").kind, K::kOther);
  EXPECT_EQ(ParseLiteral("(1,,2)").kind, K::kOther);
  EXPECT_EQ(ParseLiteral(std::string(200, '(') + std::string(200, ')')).kind, K::kOther);
}

TEST(Defaults, ParsedFromTheTable) {
  const OpInfo& conv = *FindOp("nn.conv2d");
  EXPECT_EQ(DefaultOf(conv, 2).AsIntList(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(DefaultOf(conv, 6).string_value, "NCHW");
  EXPECT_EQ(DefaultOf(conv, 8).kind, Literal::Kind::kNone);
  EXPECT_EQ(DefaultOf(conv, 0).kind, Literal::Kind::kOther);
  EXPECT_EQ(DefaultOf(conv, 99).kind, Literal::Kind::kOther);
  EXPECT_EQ(DefaultOf(*FindOp("memory.alloc_tensor"), 4).AsInt(), 0);
  // Every default of the table parses.
  for (const OpInfo& op : AllOps()) {
    for (size_t i = 0; i < op.params.size(); ++i) {
      if (!op.params[i].default_text) continue;
      EXPECT_NE(DefaultOf(op, i).kind, Literal::Kind::kOther)
          << op.name << " " << op.params[i].name << "=" << op.params[i].default_text;
    }
  }
}

TEST(Infer, AppliesDefaultsAndPassesTheRow) {
  const OpInfo& conv = *FindOp("nn.conv2d");
  std::vector<ArgValue> args(2);
  args[0].present = args[1].present = true;
  args[0].info = types::StructInfo::Tensor({1, 3, 8, 8}, "float32");
  args[1].info = types::StructInfo::Tensor({4, 3, 3, 3}, "float32");
  EXPECT_EQ(types::Print(Infer(conv, args, {}).info), "R.Tensor((1, 4, 6, 6), dtype=\"float32\")");
  // The row's function without defaults cannot read the layouts: a vaguer result, no errors.
  InferResult raw = conv.infer(conv, args, {});
  EXPECT_TRUE(raw.errors.empty());
  EXPECT_EQ(types::Print(raw.info), "R.Tensor(dtype=\"float32\")");
  // The same function serves every rank through the row's data.
  OpInfo conv1d = conv;
  conv1d.rank = 1;
  EXPECT_FALSE(Infer(conv1d, args, {}).errors.empty());  // 'NCHW' is not a 1-d layout
  // A row without the data its function reads gives unknown, silently.
  OpInfo no_rank = conv;
  no_rank.rank = 0;
  InferResult unknown = Infer(no_rank, args, {});
  EXPECT_TRUE(unknown.info.IsUnknown());
  EXPECT_TRUE(unknown.errors.empty());
  // An OpInfo that is not a table row is run as is, with its own defaults, and gets itself.
  OpInfo custom = rows::Op("test.custom")
                      .Params({rows::Tensor("x"), rows::Attr("dtype", "'int8'")})
                      .Pure()
                      .Infer([](const OpInfo& op, const std::vector<ArgValue>& a,
                                const InferContext&) {
                        return InferResult{
                            types::StructInfo::Prim(std::string(op.result_dtype) +
                                                    a.at(1).literal.AsString().value_or("?")),
                            {}};
                      })
                      .ResultDType("u")
                      .Doc("test");
  EXPECT_EQ(types::Print(Infer(custom, {}, {}).info), "R.Prim(\"uint8\")");
  custom.infer = nullptr;
  EXPECT_TRUE(Infer(custom, {}, {}).info.IsUnknown());
}

TEST(OpRow, SettersSetOneFieldEach) {
  using namespace rows;  // NOLINT
  OpInfo op = Op("relax.x")
                  .Script("x")
                  .CurrentScript("y")
                  .Params({Tensor("a"), Shape("b", "None"), Prim("c").KeywordOnly(),
                           Attr("d", "1").ClassicName("e").ClassicOnly(), Any("f").Annotation()})
                  .Impure()
                  .Infer(InferUnknown)
                  .Rank(3)
                  .ResultDType("int8")
                  .Doc("doc");
  EXPECT_STREQ(op.name, "relax.x");
  EXPECT_STREQ(op.script, "x");
  EXPECT_STREQ(op.current_script, "y");
  EXPECT_FALSE(op.pure);
  EXPECT_EQ(op.infer, &InferUnknown);
  EXPECT_EQ(op.rank, 3);
  EXPECT_STREQ(op.result_dtype, "int8");
  EXPECT_STREQ(op.doc, "doc");
  ASSERT_EQ(op.params.size(), 5u);
  const Param& a = op.params[0];
  EXPECT_EQ(a.kind, ParamKind::kTensor);
  EXPECT_EQ(a.default_text, nullptr);
  EXPECT_FALSE(a.classic_only || a.annotation || a.keyword_only || a.classic_name);
  EXPECT_EQ(op.params[1].kind, ParamKind::kShape);
  EXPECT_STREQ(op.params[1].default_text, "None");
  EXPECT_EQ(op.params[2].kind, ParamKind::kPrim);
  EXPECT_TRUE(op.params[2].keyword_only);
  EXPECT_EQ(op.params[3].kind, ParamKind::kAttr);
  EXPECT_STREQ(op.params[3].classic_name, "e");
  EXPECT_TRUE(op.params[3].classic_only);
  EXPECT_FALSE(op.params[3].keyword_only);
  EXPECT_EQ(op.params[4].kind, ParamKind::kAny);
  EXPECT_TRUE(op.params[4].annotation);
  // Unset fields keep their defaults.
  OpInfo bare = Op("relax.y");
  EXPECT_EQ(bare.script, nullptr);
  EXPECT_FALSE(bare.pure);
  EXPECT_EQ(bare.infer, nullptr);
  EXPECT_EQ(bare.rank, 0);
  EXPECT_EQ(bare.result_dtype, nullptr);
  EXPECT_TRUE(Op("relax.z").Pure().pure);
}

// "1d" / "2d" / "3d" in an op name ("nn.conv2d_transpose", "nn.adaptive_avg_pool3d"), or 0.
int RankInName(const std::string& name) {
  for (int rank = 1; rank <= 3; ++rank) {
    if (name.find(std::to_string(rank) + "d") != std::string::npos) return rank;
  }
  return 0;
}

// The per-row data agrees with the inference functions that read it.
TEST(OpRegistry, RowDataMatchesTheInferenceFunctions) {
  const InferFn by_rank[] = {InferConv, InferConvTranspose, InferPool, InferAdaptivePool};
  const InferFn by_annotation[] = {InferCallTir, InferCallTirInplace, InferCallDpsPacked,
                                   InferTyArgs, InferCallBuiltinWithCtx};
  auto among = [](InferFn fn, const auto& list) {
    return std::find(std::begin(list), std::end(list), fn) != std::end(list);
  };
  int ranked = 0, inspect = 0, annotated = 0;
  for (const OpInfo& op : AllOps()) {
    SCOPED_TRACE(op.name);
    // Every row names its inference; InferUnknown is the explicit "tvmls does not infer this".
    ASSERT_NE(op.infer, nullptr);
    if (among(op.infer, by_rank)) {
      ++ranked;
      // The rank is the one in the name, and the layout default has rank + 2 letters ('NCHW').
      EXPECT_EQ(op.rank, RankInName(op.name));
      bool has_layout = false;
      for (size_t i = 0; i < op.params.size(); ++i) {
        std::string name = op.params[i].name;
        if (name != "layout" && name != "data_layout") continue;
        has_layout = true;
        EXPECT_EQ(DefaultOf(op, i).AsString().value_or("").size(),
                  static_cast<size_t>(op.rank) + 2);
      }
      EXPECT_TRUE(has_layout);
    } else {
      EXPECT_EQ(op.rank, 0) << "rank set on a row whose inference does not read it";
    }
    if (op.infer == InferInspect) {
      ++inspect;
      ASSERT_NE(op.result_dtype, nullptr);
      EXPECT_TRUE(vocab::DTypeBytes(op.result_dtype).has_value()) << op.result_dtype;
    } else {
      EXPECT_EQ(op.result_dtype, nullptr) << "result_dtype set on a row that does not read it";
    }
    int annotation_params = 0;
    for (const Param& p : op.params) annotation_params += p.annotation ? 1 : 0;
    EXPECT_LE(annotation_params, 1);
    if (among(op.infer, by_annotation)) {
      ++annotated;
      EXPECT_EQ(annotation_params, 1) << "the inference reads the annotation parameter";
    }
  }
  EXPECT_EQ(ranked, 15);     // conv, conv_transpose, avg/max/adaptive pooling, each 1-3d
  EXPECT_EQ(inspect, 8);     // inspect.*
  EXPECT_EQ(annotated, 12);  // the call family and call_packed
}

TEST(OpRegistry, EveryScriptPathFindsItsRow) {
  for (const OpInfo& op : AllOps()) {
    SCOPED_TRACE(op.name);
    for (const char* path : {op.script, op.current_script}) {
      if (path) {
        EXPECT_EQ(FindOp(path), &op) << path << " is spelled by two rows";
      }
    }
    EXPECT_NE(op.doc, nullptr);
  }
}

// Odd inputs never crash and unknown inputs never produce errors.
TEST(Infer, RobustOnOddInput) {
  using types::StructInfo;
  std::vector<ArgValue> samples;
  auto add = [&](StructInfo info, Literal lit) {
    ArgValue v;
    v.present = true;
    v.info = std::move(info);
    v.literal = std::move(lit);
    samples.push_back(v);
  };
  add(StructInfo::Unknown(), Literal());
  add(StructInfo::Tensor({2, 3}, "float32"), Literal());
  add(StructInfo::Tensor({}, "int32"), Literal());
  add(StructInfo::Tensor({arith::Expr::Var("n"), 0}, "bool"), Literal());
  add(StructInfo::TensorNdim(-1, ""), Literal());
  add(StructInfo::TensorNdim(7, "float16"), Literal());
  add(StructInfo::Shape({1, 2}), ParseLiteral("[1, 2]"));
  add(StructInfo::ShapeNdim(-1), Literal());
  add(StructInfo::Prim("int64"), Literal::Int(3));
  add(StructInfo::Object(), Literal());
  add(StructInfo::Void(), Literal());
  add(StructInfo::Tuple({StructInfo::Tensor({2}, "float32"), StructInfo::Unknown()}), Literal());
  add(StructInfo::Unknown(), Literal::Int(INT64_MAX));
  add(StructInfo::Unknown(), Literal::Int(INT64_MIN));
  add(StructInfo::Unknown(), Literal::Int(-1));
  add(StructInfo::Unknown(), Literal::Int(0));
  add(StructInfo::Unknown(), ParseLiteral("[]"));
  add(StructInfo::Unknown(), ParseLiteral("[-1, -1]"));
  add(StructInfo::Unknown(), ParseLiteral("[0, 0, 0, 0, 0, 0, 0, 0, 0]"));
  add(StructInfo::Unknown(), ParseLiteral("[[1], [2, 3]]"));
  add(StructInfo::Unknown(), ParseLiteral("[9223372036854775807, 2]"));
  add(StructInfo::Unknown(), Literal::String(""));
  add(StructInfo::Unknown(), Literal::String("NCHW4c"));
  add(StructInfo::Unknown(), Literal::String("QQQ"));
  add(StructInfo::Unknown(), Literal::None());
  add(StructInfo::Unknown(), Literal::Float(1e300));
  add(StructInfo::Unknown(), Literal::Bool(true));
  ArgValue with_ann;
  with_ann.present = true;
  with_ann.annotation = StructInfo::TensorNdim(2, "float32");
  samples.push_back(with_ann);
  with_ann.annotation = StructInfo::Tuple({});
  with_ann.literal.kind = Literal::Kind::kList;
  samples.push_back(with_ann);

  for (const OpInfo& op : AllOps()) {
    SCOPED_TRACE(op.name);
    // Nothing given.
    InferResult none = Infer(op, {}, {});
    (void)none;
    // All unknown: silent.
    std::vector<ArgValue> unknown(op.params.size());
    for (ArgValue& a : unknown) a.present = true;
    InferResult silent = Infer(op, unknown, {});
    EXPECT_TRUE(silent.errors.empty()) << silent.errors[0].message;
    // Every sample in every position, the others unknown or the same sample.
    for (size_t p = 0; p < op.params.size() + 1; ++p) {
      for (const ArgValue& s : samples) {
        std::vector<ArgValue> args(op.params.size() + 1);
        args[p] = s;
        Infer(op, args, {});
        std::vector<ArgValue> all(op.params.size(), s);
        Infer(op, all, {});
        // Direct calls without defaults too.
        op.infer(op, args, {});
      }
    }
  }
}

}  // namespace
}  // namespace tvmls::ops
