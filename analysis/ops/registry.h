// The Relax operator registry: one table, one row per operator.
//
// A row (OpInfo) holds the op's spellings in both eras, its parameters with defaults, purity, the
// inference function, the per-row data that function reads (spatial rank, result dtype) and a
// one-line doc. Rows are written as data with the named setters below (ops/op_table.cc):
//
//   Op("relax.nn.conv2d").Script("nn.conv2d")
//       .Params({Tensor("data"), Tensor("weight"), Attr("strides", "(1, 1)"), ...})
//       .Pure().Infer(InferConv).Rank(2).Doc("2-D convolution."),
//
// Inference mirrors TVM's FInferStructInfo/FInferType (../shared/reference/relax_ops.md and the
// TVM source files it names): from the struct info and literal values of the arguments it
// computes the result's struct info, and reports conflicts it can prove (an error means provably
// wrong; anything unprovable returns a vaguer result, silently).
//
// The semantic model lowers a call `R.nn.conv2d(x, w, strides=2)` into ArgValues bound to the
// row's parameters (BindArguments), then runs ops::Infer(row, args, ctx), which fills in the
// defaults and calls the row's inference function with the row itself.
#ifndef TVMLS_ANALYSIS_OPS_REGISTRY_H_
#define TVMLS_ANALYSIS_OPS_REGISTRY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arith/expr.h"
#include "arith/facts.h"
#include "types/struct_info.h"

namespace tvmls::ops {

/// What a parameter takes (relax_ops.json `kind`).
enum class ParamKind {
  kTensor,  // a Relax tensor operand
  kShape,   // a shape: tuple/list of dims, R.shape([...]) or a Shape-typed value
  kPrim,    // a PrimExpr / R.prim_value
  kAttr,    // a compile-time attribute: int, float, string, bool, None, list/tuple of those
  kAny,     // anything else: tuples of tensors, callees, dtype/str values, struct info annotations
};

/// One parameter. `name` is the current-era keyword; a variadic parameter is spelled "*args" /
/// "*values" (it takes every remaining positional argument, and the parameters after it are
/// keyword-only) and "**kwargs" takes every keyword no other parameter claims. Table rows make
/// parameters with rows::Tensor / Shape / Prim / Attr / Any and the setters below.
struct Param {
  const char* name = nullptr;
  /// Python default as text ("0", "None", "'float32'"); nullptr when the parameter is required.
  const char* default_text = nullptr;
  ParamKind kind = ParamKind::kAny;
  /// The classic-era keyword when it differs (`out_sinfo` for `out_ty`, `sinfo_args` for
  /// `ty_args`); BindArguments accepts either spelling in every era.
  const char* classic_name = nullptr;
  /// The parameter exists only in the classic era (`tir_vars` of the call_tir family). It is
  /// bound like any other (a script of either era may use it), and omitted from the current-era
  /// Signature.
  bool classic_only = false;
  /// Takes struct info annotations (out_ty / ty_args): the model fills ArgValue::annotation.
  bool annotation = false;
  /// Keyword-only although no `*args` precedes it (`call_builtin_with_ctx(func, args, *,
  /// ty_args=None)`).
  bool keyword_only = false;

  // Named setters for table rows; each returns the parameter with that one field set.
  /// Sets classic_name.
  Param ClassicName(const char* classic) && {
    classic_name = classic;
    return *this;
  }
  /// Sets classic_only.
  Param ClassicOnly() && {
    classic_only = true;
    return *this;
  }
  /// Sets annotation.
  Param Annotation() && {
    annotation = true;
    return *this;
  }
  /// Sets keyword_only.
  Param KeywordOnly() && {
    keyword_only = true;
    return *this;
  }
};

/// "*args"-style (takes the remaining positional arguments).
bool IsVarPositional(const Param& param);
/// "**kwargs"-style (takes unclaimed keywords).
bool IsVarKeyword(const Param& param);

/// The literal view of an argument expression, when it is one: TVM attributes are literals.
struct Literal {
  enum class Kind { kNone, kBool, kInt, kFloat, kString, kList, kExpr, kOther };
  Kind kind = Kind::kOther;
  bool bool_value = false;
  int64_t int_value = 0;
  double float_value = 0;
  std::string string_value;    // kString; also the dtype of R.dtype("...") / R.str("...")
  std::vector<Literal> items;  // kList: a tuple or list literal, or the list inside R.shape([...])
  arith::Expr expr;            // kExpr: a symbolic integer (`n`, `n * 4`, `T.int64(3)`); also set
                               // for kInt (the same value)
  /// A lambda, as layout_transform's index_map takes it: `lambda i, j: (j, i)`, also wrapped in
  /// `T.index_map(...)`. Its parameter names and the texts of its results (one per element of a
  /// returned tuple, or the single returned expression). The kind stays kOther.
  struct Lambda {
    std::vector<std::string> params;
    std::vector<std::string> results;
  };
  std::optional<Lambda> lambda;

  /// The integer value of kInt, or of kExpr when constant.
  std::optional<int64_t> AsInt() const;
  /// kInt or kExpr as an expression.
  std::optional<arith::Expr> AsExpr() const;
  /// kList of integers/expressions (or a single int/expr treated as a one-element list when
  /// `allow_scalar`).
  std::optional<std::vector<arith::Expr>> AsExprList(bool allow_scalar = false) const;
  std::optional<std::vector<int64_t>> AsIntList(bool allow_scalar = false) const;
  /// kString's value, or nullopt.
  std::optional<std::string> AsString() const;
  bool IsNone() const { return kind == Kind::kNone; }

  static Literal None();
  static Literal Bool(bool value);
  static Literal Int(int64_t value);
  static Literal Float(double value);
  static Literal String(std::string value);
  static Literal List(std::vector<Literal> items);
  /// A symbolic integer; a constant expression becomes kInt.
  static Literal FromExpr(arith::Expr expr);
};

/// Parses the Python literal syntax of parameter defaults and simple attribute values: None,
/// True/False, integers, floats (`1e-05`, `-0.75`), quoted strings, tuples and lists of those,
/// `prim_value(0)` (the integer), symbolic integer expressions (arith::ParseExpr, kExpr), and
/// lambdas (`lambda i: (i // 4, i % 4)`, `T.index_map(lambda ...)`: kOther with `lambda` set).
/// Anything else gives Kind::kOther.
Literal ParseLiteral(std::string_view text);

/// One argument as inference sees it.
struct ArgValue {
  /// False when the argument was not given (the default applies).
  bool present = false;
  /// Struct info of the argument expression (kUnknown when tvmls does not know).
  types::StructInfo info;
  /// The literal view (Literal::Kind::kOther when the argument is not a literal).
  Literal literal;
  /// The Relax variable's name when the argument is a plain variable reference (`s` in
  /// `R.zeros(s, "float32")`); empty otherwise. TVM keeps a Shape-typed variable as the shape of
  /// the result (`R.Tensor(s, dtype="float32")`).
  std::string var;
  /// For parameters that take struct info annotations (out_sinfo/out_ty, sinfo_args/ty_args): the
  /// annotation as struct info (a list of annotations becomes a Tuple); nullopt otherwise.
  std::optional<types::StructInfo> annotation;
};

/// An error inference can prove. `param` is the index of the parameter at fault (the diagnostic
/// points at that argument), -1 for the call as a whole.
struct InferError {
  int param = -1;
  std::string message;
};

struct InferResult {
  types::StructInfo info;
  std::vector<InferError> errors;
};

struct InferContext {
  const arith::Facts* facts = nullptr;
};

struct OpInfo;

/// An inference function: the result of calling `op` with `args`. args[i] is bound to
/// op.params[i] (absent arguments have present == false; `args` may be shorter or longer than
/// op.params, and reading past its end reads an absent argument). Inference reads attributes from
/// args[i].literal, and per-row data (op.rank, op.result_dtype, which parameter takes annotations)
/// from `op`; a row whose data the function needs but lacks gives an unknown result. It does not
/// apply parameter defaults: ops::Infer does that, then calls op.infer(op, args, ctx). A variadic
/// parameter's ArgValue describes only the first argument it absorbed (no op infers from
/// `*args`). Never throws; unknown inputs never give errors.
using InferFn = InferResult (*)(const OpInfo& op, const std::vector<ArgValue>& args,
                                const InferContext& ctx);

/// One operator. Table rows start with rows::Op(name) and set the other fields through the named
/// setters below; a field a row does not set keeps its default.
struct OpInfo {
  /// Registry name, "relax.nn.conv2d".
  const char* name = nullptr;
  /// Path after the Relax module alias in the classic era: "nn.conv2d" (spelled `R.nn.conv2d`);
  /// nullptr for ops without a TVMScript surface (relax.inspect.*).
  const char* script = nullptr;
  /// The same in the current era when it differs, else nullptr.
  const char* current_script = nullptr;
  std::vector<Param> params;
  /// Free of side effects (callable inside a dataflow block). Every table row says Pure() or
  /// Impure().
  bool pure = false;
  /// ops::Infer treats nullptr like InferUnknown; every table row names a function (InferUnknown
  /// when tvmls does not infer the op).
  InferFn infer = nullptr;
  /// Per-row data of inference functions shared by several rows. `rank`: the number of spatial
  /// dims of a convolution or pooling row, 1, 2 or 3 (it also picks the layout family NCW /
  /// NCHW / NCDHW); 0 for other rows.
  int rank = 0;
  /// The result dtype of rows whose inference function returns a fixed one (InferInspect:
  /// "uint8" for inspect.tensor_dtype_bits); nullptr for other rows.
  const char* result_dtype = nullptr;
  /// One-line description for hover and completion.
  const char* doc = nullptr;

  // Named setters for table rows; each returns the row with that one field set.
  /// Sets script.
  OpInfo Script(const char* path) && {
    script = path;
    return std::move(*this);
  }
  /// Sets current_script.
  OpInfo CurrentScript(const char* path) && {
    current_script = path;
    return std::move(*this);
  }
  /// Sets params, in Python order.
  OpInfo Params(std::vector<Param> list) && {
    params = std::move(list);
    return std::move(*this);
  }
  /// Sets pure to true.
  OpInfo Pure() && {
    pure = true;
    return std::move(*this);
  }
  /// Sets pure to false.
  OpInfo Impure() && {
    pure = false;
    return std::move(*this);
  }
  /// Sets infer.
  OpInfo Infer(InferFn fn) && {
    infer = fn;
    return std::move(*this);
  }
  /// Sets rank.
  OpInfo Rank(int spatial_dims) && {
    rank = spatial_dims;
    return std::move(*this);
  }
  /// Sets result_dtype.
  OpInfo ResultDType(const char* dtype) && {
    result_dtype = dtype;
    return std::move(*this);
  }
  /// Sets doc.
  OpInfo Doc(const char* text) && {
    doc = text;
    return std::move(*this);
  }
};

/// The makers table rows start from.
namespace rows {
/// An op row with only its registry name set.
inline OpInfo Op(const char* name) {
  OpInfo op;
  op.name = name;
  return op;
}
/// A parameter of the given kind; `default_text` is its Python default (nullptr: required).
inline Param Tensor(const char* name, const char* default_text = nullptr) {
  return Param{name, default_text, ParamKind::kTensor};
}
inline Param Shape(const char* name, const char* default_text = nullptr) {
  return Param{name, default_text, ParamKind::kShape};
}
inline Param Prim(const char* name, const char* default_text = nullptr) {
  return Param{name, default_text, ParamKind::kPrim};
}
inline Param Attr(const char* name, const char* default_text = nullptr) {
  return Param{name, default_text, ParamKind::kAttr};
}
inline Param Any(const char* name, const char* default_text = nullptr) {
  return Param{name, default_text, ParamKind::kAny};
}
}  // namespace rows

/// Every registered op, in table order.
const std::vector<OpInfo>& AllOps();
/// Whether tvmls infers the op's result (its row names an inference function other than
/// InferUnknown).
bool HasInference(const OpInfo& op);

/// The op spelled `R.<path>` (path "add", "nn.conv2d", "memory.alloc_tensor"), either era.
/// Script-only helpers (`call_packed`, `const`, `shape`, `linear`, `nn.relu6`, ...) have rows
/// too; their `name` is "script.<path>". Ops without a TVMScript surface (relax.inspect.*) are
/// in AllOps but FindOp does not find them.
const OpInfo* FindOp(std::string_view path);

/// Binding of a call's arguments to an op's parameters, as Python would do it.
struct Binding {
  /// For each parameter: the index into the call's arguments (positional ones first, then
  /// keywords in call order), or -1 when absent.
  std::vector<int> arg_of_param;
  /// Problems: too many positional arguments, unknown keyword, a parameter given twice, a
  /// required parameter missing. `arg` is the call argument at fault (-1: the call itself).
  struct Problem {
    int arg = -1;
    std::string message;
  };
  std::vector<Problem> problems;
  /// Call arguments absorbed by a `*args` parameter, in order (arg_of_param holds the first).
  std::vector<int> rest_args;
  /// Keyword arguments absorbed by a `**kwargs` parameter (arg_of_param holds the first).
  std::vector<int> extra_keywords;
};

/// `positional` arguments come first; `keywords` are the keyword names in call order (their
/// argument indices are positional + i). A `*args`/`**kwargs` splat makes the binding unknowable:
/// pass has_splat and no problems are reported.
Binding BindArguments(const OpInfo& op, int positional, const std::vector<std::string>& keywords,
                      bool has_splat);

/// Runs the op's inference after completing `args`: missing trailing entries are added, and every
/// absent argument whose literal is kOther gets the parameter's parsed default (present stays
/// false); then returns op.infer(op, args, ctx), or an unknown result without errors when
/// op.infer is null. Works for any OpInfo, table row or not (defaults of table rows are parsed
/// once). ctx.facts may be null (no facts). Never throws.
InferResult Infer(const OpInfo& op, std::vector<ArgValue> args, const InferContext& ctx);

/// The parsed default of op.params[index] (Kind::kOther when required or out of range).
Literal DefaultOf(const OpInfo& op, size_t index);

/// Signature text for hover/signature help: `R.nn.conv2d(data, weight, strides=(1, 1), ...)`.
std::string Signature(const OpInfo& op, bool current_era);

}  // namespace tvmls::ops

#endif  // TVMLS_ANALYSIS_OPS_REGISTRY_H_
