// StructInfo: printing, TVM's base check, Join and dtypes, driven by struct_info.txt and
// dtype.txt. StructInfo values are written in TVM printer syntax and read by a small test-only
// parser (SinfoParser below), so printing round trips are checked on every row.
#include "types/struct_info.h"

#include <gtest/gtest.h>

#include <cctype>

#include "arith/fact_syntax.h"
#include "arith/table.h"
#include "vocab/dtype.h"

namespace tvmls::types {
namespace {

using arith::Expr;
using arith::Facts;
using testing::AddFacts;
using testing::ReadTable;

// Reads `R.Tensor((n, 4), dtype="float32")`, `R.Tensor("float32", ndim=2)`, `R.Tensor(s)`,
// `R.Shape([1, n])`, `R.Shape(ndim=2)`, `R.Tuple(...)`, `R.Object`, `R.Any`, `R.Prim("int64")`,
// `R.Prim(value=n)`, `R.Callable((A, B), R, True)`, `R.Callable(ret=R, purity=False)`, and `?`
// for kUnknown. Shape entries may be quoted shape strings (`"n * 2"`).
class SinfoParser {
 public:
  explicit SinfoParser(std::string_view text) : text_(text) {}

  std::optional<StructInfo> ParseAll() {
    std::optional<StructInfo> s = ParseOne();
    Space();
    if (!s || pos_ != text_.size()) return std::nullopt;
    return s;
  }

 private:
  void Space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Eat(std::string_view token) {
    Space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  bool Peek(char c) {
    Space();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  std::string Ident() {
    Space();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }
  std::optional<std::string> String() {
    if (!Eat("\"")) return std::nullopt;
    size_t end = text_.find('"', pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string s(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return s;
  }
  // Text up to the next `,` or closing bracket at depth 0.
  std::string_view RawItem() {
    Space();
    size_t start = pos_;
    int depth = 0;
    for (; pos_ < text_.size(); ++pos_) {
      char c = text_[pos_];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') {
        if (depth == 0) break;
        --depth;
      }
      if (c == ',' && depth == 0) break;
    }
    return text_.substr(start, pos_ - start);
  }
  std::optional<Expr> Dim() {
    if (Peek('"')) {
      std::optional<std::string> s = String();
      return s ? arith::ParseExpr(*s) : std::nullopt;
    }
    return arith::ParseExpr(RawItem());
  }
  // `(a, b,)` or `[a, b]`.
  std::optional<std::vector<Expr>> Dims() {
    char close = Eat("(") ? ')' : (Eat("[") ? ']' : 0);
    if (close == 0) return std::nullopt;
    std::vector<Expr> dims;
    while (!Eat(std::string_view(&close, 1))) {
      std::optional<Expr> e = Dim();
      if (!e) return std::nullopt;
      dims.push_back(*e);
      if (!Eat(",") && !Peek(close)) return std::nullopt;
    }
    return dims;
  }
  std::optional<int> Int() {
    std::string_view raw = RawItem();
    std::optional<Expr> e = arith::ParseExpr(raw);
    if (!e || !e->AsConst()) return std::nullopt;
    return static_cast<int>(*e->AsConst());
  }
  std::optional<bool> Bool() {
    std::string id = Ident();
    if (id == "True") return true;
    if (id == "False") return false;
    return std::nullopt;
  }
  // `key=` when the next thing is a keyword argument.
  std::optional<std::string> Keyword() {
    Space();
    size_t save = pos_;
    std::string id = Ident();
    if (!id.empty() && Eat("=")) return id;
    pos_ = save;
    return std::nullopt;
  }

  std::optional<StructInfo> ParseOne() {
    if (Eat("?")) return StructInfo::Unknown();
    if (!Eat("R.")) return std::nullopt;
    std::string name = Ident();
    if (name == "Object" || name == "Any") return StructInfo::Object();
    bool call = Eat("(");
    StructInfo s;
    if (name == "Tensor") {
      s.kind = Kind::kTensor;
      if (call && !Tensor(&s)) return std::nullopt;
      return s;
    }
    if (name == "Shape") {
      s.kind = Kind::kShape;
      if (!call) return s;
      if (auto kw = Keyword()) {
        std::optional<int> n = Int();
        if (*kw != "ndim" || !n) return std::nullopt;
        s.ndim = *n;
      } else {
        auto dims = Dims();
        if (!dims) return std::nullopt;
        s = StructInfo::Shape(*dims);
      }
      return Eat(")") ? std::optional<StructInfo>(s) : std::nullopt;
    }
    if (name == "Tuple") {
      s.kind = Kind::kTuple;
      if (!call) return s;
      while (!Eat(")")) {
        auto f = ParseOne();
        if (!f) return std::nullopt;
        s.fields.push_back(*f);
        if (!Eat(",") && !Peek(')')) return std::nullopt;
      }
      return s;
    }
    if (name == "Prim") {
      s.kind = Kind::kPrim;
      if (!call) return s;
      if (auto kw = Keyword()) {
        if (*kw != "value") return std::nullopt;
        s.prim_value = Dim();
        if (!s.prim_value) return std::nullopt;
        s.dtype = "int64";
      } else {
        auto dtype = String();
        if (!dtype) return std::nullopt;
        s.dtype = *dtype;
      }
      return Eat(")") ? std::optional<StructInfo>(s) : std::nullopt;
    }
    if (name == "Callable" && call) return Callable();
    return std::nullopt;
  }

  bool Tensor(StructInfo* s) {
    for (int positional = 0; !Eat(")"); ++positional) {
      if (auto kw = Keyword()) {
        if (*kw == "dtype") {
          auto d = String();
          if (!d) return false;
          s->dtype = *d;
        } else if (*kw == "ndim") {
          auto n = Int();
          if (!n) return false;
          s->ndim = *n;
        } else if (*kw == "vdevice") {
          auto d = String();
          if (!d) return false;
          s->vdevice = *d;
        } else {
          return false;
        }
      } else if (Peek('"')) {
        auto d = String();  // R.Tensor("float32") or R.Tensor(shape, "float32")
        if (!d) return false;
        s->dtype = *d;
      } else if (positional == 0 && (Peek('(') || Peek('['))) {
        auto dims = Dims();
        if (!dims) return false;
        s->ndim = static_cast<int>(dims->size());
        s->values = *dims;
      } else if (positional == 0) {
        s->shape_var = Ident();
        if (s->shape_var.empty()) return false;
      } else {
        return false;
      }
      if (!Eat(",") && !Peek(')')) return false;
    }
    return true;
  }

  std::optional<StructInfo> Callable() {
    StructInfo s;
    s.kind = Kind::kCallable;
    if (Peek('(')) {  // (params), ret, purity
      Eat("(");
      std::vector<StructInfo> params;
      while (!Eat(")")) {
        auto p = ParseOne();
        if (!p) return std::nullopt;
        params.push_back(*p);
        if (!Eat(",") && !Peek(')')) return std::nullopt;
      }
      s.params = params;
      if (!Eat(",")) return std::nullopt;
      auto ret = ParseOne();
      if (!ret || !Eat(",")) return std::nullopt;
      s.ret = std::make_shared<StructInfo>(*ret);
      auto pure = Bool();
      if (!pure || !Eat(")")) return std::nullopt;
      s.pure = *pure;
      return s;
    }
    s.pure = false;  // opaque callables default to impure
    s.ret = std::make_shared<StructInfo>(StructInfo::Object());
    while (!Eat(")")) {
      auto kw = Keyword();
      if (!kw) return std::nullopt;
      if (*kw == "ret") {
        auto ret = ParseOne();
        if (!ret) return std::nullopt;
        s.ret = std::make_shared<StructInfo>(*ret);
      } else if (*kw == "purity") {
        auto pure = Bool();
        if (!pure) return std::nullopt;
        s.pure = *pure;
      } else {
        return std::nullopt;
      }
      if (!Eat(",") && !Peek(')')) return std::nullopt;
    }
    return s;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<StructInfo> ParseSinfo(std::string_view text) { return SinfoParser(text).ParseAll(); }

const char* CheckName(BaseCheck r) {
  switch (r) {
    case BaseCheck::kPass:
      return "kPass";
    case BaseCheck::kFailL2:
      return "kFailL2";
    case BaseCheck::kFailL1:
      return "kFailL1";
    case BaseCheck::kFailL0:
      return "kFailL0";
  }
  return "?";
}

// `field 1.0: reason` (the field path, then the reason) as struct_info.txt writes details.
std::string DetailString(const BaseCheckDetail& d) {
  std::string path;
  for (size_t i = 0; i < d.field_path.size(); ++i)
    path += (i ? "." : "") + std::to_string(d.field_path[i]);
  return path.empty() ? d.reason : "field " + path + ": " + d.reason;
}

TEST(StructInfoTable, Rows) {
  auto rows = ReadTable("struct_info.txt");
  ASSERT_GE(rows.size(), 60u);
  for (const auto& row : rows) {
    const auto& c = row.cells;
    ASSERT_GE(c.size(), 3u) << row.where;
    const std::string& op = c[0];
    if (op == "print" || op == "print-any") {
      // print | text | expected (empty cell: the text itself; `<empty>`: prints nothing)
      ASSERT_EQ(c.size(), 3u) << row.where;
      auto s = ParseSinfo(c[1]);
      ASSERT_TRUE(s) << row.where << ": cannot parse " << c[1];
      std::string want = c[2].empty() ? c[1] : (c[2] == "<empty>" ? "" : c[2]);
      std::string got = Print(*s, PrintOptions{op == "print-any"});
      EXPECT_EQ(got, want) << row.where;
      if (got.empty()) continue;
      auto again = ParseSinfo(got);
      ASSERT_TRUE(again) << row.where << ": printed form does not parse: " << got;
      EXPECT_EQ(Print(*again, PrintOptions{op == "print-any"}), got) << row.where;
      EXPECT_EQ(CheckBase(*s, *again, Facts()).result, BaseCheck::kPass) << row.where;
      EXPECT_EQ(CheckBase(*again, *s, Facts()).result, BaseCheck::kPass) << row.where;
    } else if (op == "check") {
      // check | facts | base | derived | level [| detail]
      ASSERT_GE(c.size(), 5u) << row.where;
      Facts facts;
      ASSERT_TRUE(AddFacts(c[1], &facts)) << row.where;
      auto base = ParseSinfo(c[2]);
      auto derived = ParseSinfo(c[3]);
      ASSERT_TRUE(base && derived) << row.where << ": cannot parse";
      BaseCheckDetail d = CheckBase(*base, *derived, facts);
      EXPECT_EQ(CheckName(d.result), c[4]) << row.where << ": " << DetailString(d);
      if (c.size() > 5) {
        EXPECT_EQ(DetailString(d), c[5]) << row.where;
      }
      if (d.result == BaseCheck::kPass) {
        EXPECT_TRUE(d.reason.empty() && d.field_path.empty() && d.dim == -1) << row.where;
      } else {
        EXPECT_FALSE(d.reason.empty()) << row.where;
      }
      // The dim index agrees with the reason text.
      if (d.dim >= 0) {
        EXPECT_NE(d.reason.find("dim " + std::to_string(d.dim) + ":"), std::string::npos)
            << row.where;
      }
    } else if (op == "join") {
      // join | facts | a | b | expected
      ASSERT_EQ(c.size(), 5u) << row.where;
      Facts facts;
      ASSERT_TRUE(AddFacts(c[1], &facts)) << row.where;
      auto a = ParseSinfo(c[2]);
      auto b = ParseSinfo(c[3]);
      ASSERT_TRUE(a && b) << row.where << ": cannot parse";
      StructInfo j = Join(*a, *b, facts);
      EXPECT_EQ(Print(j), c[4] == "?" ? "" : c[4]) << row.where;
      EXPECT_EQ(Print(Join(*b, *a, facts)).empty(), Print(j).empty()) << row.where;
      // The join is a base of both sides (an upper bound in the lattice).
      EXPECT_NE(CheckBase(j, *a, facts).result, BaseCheck::kFailL0) << row.where;
      EXPECT_NE(CheckBase(j, *b, facts).result, BaseCheck::kFailL0) << row.where;
    } else {
      ADD_FAILURE() << row.where << ": unknown row kind " << op;
    }
  }
}

TEST(DTypeTable, Rows) {
  auto rows = ReadTable("dtype.txt");
  ASSERT_GE(rows.size(), 60u);
  for (const auto& row : rows) {
    // dtype | bytes or none | float / int / other / invalid | printed or -
    ASSERT_EQ(row.cells.size(), 4u) << row.where;
    auto text = [](const std::string& cell) { return cell == "<empty>" ? std::string() : cell; };
    const std::string dtype = text(row.cells[0]);
    std::optional<int64_t> bytes = vocab::DTypeBytes(dtype);
    EXPECT_EQ(bytes ? std::to_string(*bytes) : "none", row.cells[1]) << row.where;
    std::optional<vocab::DType> parsed = vocab::ParseDType(dtype);
    std::string cls = !parsed                      ? "invalid"
                      : vocab::IsFloatDType(dtype) ? "float"
                      : vocab::IsIntDType(dtype)   ? "int"
                                                   : "other";
    EXPECT_EQ(cls, row.cells[2]) << row.where;
    EXPECT_EQ(parsed ? vocab::DTypeToString(*parsed) : "-", text(row.cells[3])) << row.where;
    bool known = parsed && parsed->code != vocab::DTypeCode::kVoid && text(row.cells[3]) == dtype;
    EXPECT_EQ(vocab::IsKnownDType(dtype), known) << row.where;
    // Whatever TVM prints, it reads back as the same dtype.
    if (parsed && parsed->code != vocab::DTypeCode::kVoid) {
      std::optional<vocab::DType> again = vocab::ParseDType(vocab::DTypeToString(*parsed));
      ASSERT_TRUE(again.has_value()) << row.where;
      EXPECT_EQ(vocab::DTypeToString(*again), vocab::DTypeToString(*parsed)) << row.where;
    }
  }
}

TEST(DTypeTable, Descriptions) {
  EXPECT_EQ(vocab::DescribeDType("float32"), "32-bit floating point; 4 bytes per element");
  EXPECT_EQ(vocab::DescribeDType("int8x4"), "8-bit signed integer, a vector of 4 lanes; 4 bytes per element");
  EXPECT_EQ(vocab::DescribeDType("uint8"), "8-bit unsigned integer; 1 byte per element");
  EXPECT_EQ(vocab::DescribeDType("bool"), "8-bit boolean; 1 byte per element");
  EXPECT_EQ(vocab::DescribeDType("handle"), "64-bit value; 8 bytes per element");
  EXPECT_EQ(vocab::DescribeDType("int4"), "4-bit signed integer");
  EXPECT_EQ(vocab::DescribeDType("float32xvscalex4"), "32-bit floating point, a scalable vector of vscale x 4 lanes");
  EXPECT_EQ(vocab::DescribeDType("void"), "");
  EXPECT_EQ(vocab::DescribeDType("float31x"), "");
}

// The dtypes completion offers are ones tvmls knows.
TEST(DTypeTable, CompletionDTypesAreKnown) {
  for (const char* name : vocab::CompletionDTypes()) EXPECT_TRUE(vocab::IsKnownDType(name)) << name;
}

TEST(StructInfo, Constructors) {
  Expr n = Expr::Var("n");
  StructInfo t = StructInfo::Tensor({n, 4}, "float32");
  EXPECT_TRUE(t.IsTensor());
  EXPECT_EQ(t.ndim, 2);
  ASSERT_NE(t.Shape(), nullptr);
  EXPECT_EQ(t.Shape()->size(), 2u);
  EXPECT_EQ(Print(t), "R.Tensor((n, 4), dtype=\"float32\")");
  EXPECT_EQ(Print(StructInfo::TensorNdim(3, "")), "R.Tensor(ndim=3)");
  EXPECT_EQ(Print(StructInfo::TensorNdim(-1, "")), "R.Tensor");
  EXPECT_EQ(StructInfo::TensorNdim(2, "int8").Shape(), nullptr);
  EXPECT_EQ(Print(StructInfo::Shape({1, n})), "R.Shape([1, n])");
  EXPECT_EQ(Print(StructInfo::ShapeNdim(3)), "R.Shape(ndim=3)");
  EXPECT_TRUE(StructInfo::Void().IsVoid());
  EXPECT_EQ(Print(StructInfo::Void()), "R.Tuple");
  EXPECT_EQ(Print(StructInfo::Prim("int64")), "R.Prim(\"int64\")");
  EXPECT_EQ(Print(StructInfo::Object()), "R.Object");
  EXPECT_EQ(Print(StructInfo::Object(), PrintOptions{true}), "R.Any");
  EXPECT_TRUE(StructInfo::Unknown().IsUnknown());
  EXPECT_EQ(Print(StructInfo::Unknown()), "");
  StructInfo f = StructInfo::Callable(std::vector<StructInfo>{t}, t, true);
  EXPECT_EQ(Print(f),
            "R.Callable((R.Tensor((n, 4), dtype=\"float32\"),), R.Tensor((n, 4), "
            "dtype=\"float32\"), True)");
  EXPECT_EQ(Print(StructInfo::Callable(std::nullopt, StructInfo::Object(), false)), "R.Callable()");
  EXPECT_EQ(PrintShape({}), "()");
  EXPECT_EQ(PrintShape({n}), "(n,)");
  EXPECT_EQ(PrintShape({n, n * 2}), "(n, n * 2)");
}

TEST(StructInfo, VarsSubstituteErase) {
  auto s = ParseSinfo(
      "R.Tuple(R.Tensor((n, m * 2), dtype=\"float32\"), R.Shape([k]), R.Prim(value=p), "
      "R.Tensor((4,), dtype=\"int8\"))");
  ASSERT_TRUE(s);
  std::set<std::string> vars;
  s->CollectVars(&vars);
  EXPECT_EQ(vars, (std::set<std::string>{"k", "m", "n", "p"}));

  StructInfo sub = s->Substitute({{"n", 8}, {"m", Expr::Var("q") + 1}, {"p", 3}});
  EXPECT_EQ(Print(sub),
            "R.Tuple(R.Tensor((8, q * 2 + 2), dtype=\"float32\"), R.Shape([k]), R.Prim(value=3), "
            "R.Tensor((4,), dtype=\"int8\"))");

  StructInfo erased = s->EraseVarsNotIn({"n", "k"});
  EXPECT_EQ(Print(erased),
            "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Shape([k]), R.Prim(\"int64\"), "
            "R.Tensor((4,), dtype=\"int8\"))");
  EXPECT_EQ(Print(s->EraseVarsNotIn({"n", "m", "k", "p"})), Print(*s));

  auto f = ParseSinfo(
      "R.Callable((R.Tensor((n,), dtype=\"float32\"),), R.Tensor((n,), dtype=\"float32\"), True)");
  ASSERT_TRUE(f);
  EXPECT_EQ(Print(f->EraseVarsNotIn({})), Print(*f));
  std::set<std::string> fvars;
  f->CollectVars(&fvars);
  EXPECT_EQ(fvars, (std::set<std::string>{"n"}));
}

}  // namespace
}  // namespace tvmls::types
