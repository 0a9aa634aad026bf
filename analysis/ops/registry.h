// The Relax operator registry: one table, one row per operator.
//
// A row holds the op's spellings in both eras, its parameters with defaults, purity, the
// inference function and a one-line doc. Inference mirrors TVM's FInferStructInfo/FInferType
// (../shared/reference/relax_ops.md and the TVM source files it names): from the struct info and
// literal values of the arguments it computes the result's struct info, and reports conflicts it
// can prove (an error means provably wrong; anything unprovable returns a vaguer result, silently).
//
// The semantic model lowers a call `R.nn.conv2d(x, w, strides=2)` into ArgValues bound to the
// row's parameters (BindArguments), then calls the row's infer function.
#ifndef TVMLS_ANALYSIS_OPS_REGISTRY_H_
#define TVMLS_ANALYSIS_OPS_REGISTRY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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
/// keyword-only) and "**kwargs" takes every keyword no other parameter claims.
struct Param {
  const char* name;
  /// Python default as text ("0", "None", "'float32'"); nullptr when the parameter is required.
  const char* default_text;
  ParamKind kind;
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
/// `prim_value(0)` (the integer), and symbolic integer expressions (arith::ParseExpr, kExpr).
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

/// args[i] is bound to op.params[i] (absent arguments have present == false). Inference reads
/// attributes from args[i].literal; the `infer` of a table row fills absent arguments with the
/// parameter's default first (it is equivalent to ops::Infer). A variadic parameter's ArgValue
/// describes only the first argument it absorbed (no op infers from `*args`).
using InferFn = InferResult (*)(const std::vector<ArgValue>& args, const InferContext& ctx);

struct OpInfo {
  /// Registry name, "relax.nn.conv2d".
  const char* name;
  /// Path after the Relax module alias in the classic era: "nn.conv2d" (spelled `R.nn.conv2d`);
  /// nullptr for ops without a TVMScript surface (relax.inspect.*).
  const char* script;
  /// The same in the current era when it differs, else nullptr.
  const char* current_script;
  std::vector<Param> params;
  bool pure;
  InferFn infer;
  const char* doc;
};

/// Every registered op, in table order.
const std::vector<OpInfo>& AllOps();

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
/// false). ctx.facts may be null (no facts). Never throws. For rows of AllOps() this is what
/// `op.infer(args, ctx)` does too.
InferResult Infer(const OpInfo& op, std::vector<ArgValue> args, const InferContext& ctx);

/// The parsed default of op.params[index] (Kind::kOther when required or out of range).
Literal DefaultOf(const OpInfo& op, size_t index);

/// Signature text for hover/signature help: `R.nn.conv2d(data, weight, strides=(1, 1), ...)`.
std::string Signature(const OpInfo& op, bool current_era);

}  // namespace tvmls::ops

#endif  // TVMLS_ANALYSIS_OPS_REGISTRY_H_
