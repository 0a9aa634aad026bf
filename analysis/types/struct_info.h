// Relax struct info (TVM's StructInfo / Type): what is statically known about a Relax value.
//
// Kinds follow TVM: Tensor (shape?, ndim?, dtype?), Shape (values?, ndim?), Tuple (fields), Prim
// (dtype, value?), Object (`R.Object`, `R.Any` in the current era: the top type) and Callable.
// tvmls adds kUnknown: "tvmls could not infer this". It is not a TVM type; every check treats it
// as silent (never an error, never a warning), and it prints as nothing.
//
// Printing follows TVM's printer exactly: `R.Tensor((1, 64, 56, 56), dtype="float32")`,
// `R.Tensor((n,), dtype="float32")`, `R.Tensor(dtype="float32", ndim=2)`, `R.Shape([1, n])`,
// `R.Shape(ndim=3)`, `R.Tuple(R.Tensor(...), R.Object)`, `R.Prim("int64")`, `R.Prim(value=n)`.
#ifndef TVMLS_ANALYSIS_TYPES_STRUCT_INFO_H_
#define TVMLS_ANALYSIS_TYPES_STRUCT_INFO_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arith/expr.h"
#include "arith/facts.h"

namespace tvmls::types {

enum class Kind { kUnknown, kObject, kTensor, kShape, kTuple, kPrim, kCallable };

struct StructInfo {
  Kind kind = Kind::kUnknown;

  // --- Tensor and Shape ---
  /// Known dims (Tensor shape or Shape values). When set, ndim == values->size().
  std::optional<std::vector<arith::Expr>> values;
  /// -1 when unknown.
  int ndim = -1;
  /// Tensor only: the shape is given by a Shape-typed variable (`R.Tensor(s, "float32")`); empty
  /// otherwise. Two tensors with the same non-empty shape_var have the same shape.
  std::string shape_var;
  /// Tensor only: `vdevice="cuda:0"` spelling, empty when absent.
  std::string vdevice;

  // --- Tensor and Prim ---
  /// "float32", "int64", "bool", ...; empty when unknown. For kPrim a "" dtype is unknown.
  std::string dtype;

  // --- Prim ---
  /// `R.Prim(value=n)`: the known value.
  std::optional<arith::Expr> prim_value;

  // --- Tuple ---
  std::vector<StructInfo> fields;

  // --- Callable ---
  /// nullopt = opaque parameters.
  std::optional<std::vector<StructInfo>> params;
  std::shared_ptr<StructInfo> ret;  // null = unknown return
  bool pure = true;

  // Constructors for the common shapes.
  static StructInfo Unknown();
  static StructInfo Object();
  static StructInfo Void();  // R.Tuple()
  static StructInfo Tensor(std::vector<arith::Expr> shape, std::string dtype);
  static StructInfo TensorNdim(int ndim, std::string dtype);
  static StructInfo Shape(std::vector<arith::Expr> values);
  static StructInfo ShapeNdim(int ndim);
  static StructInfo Tuple(std::vector<StructInfo> fields);
  static StructInfo Prim(std::string dtype);
  static StructInfo Callable(std::optional<std::vector<StructInfo>> params, StructInfo ret,
                             bool pure);

  bool IsUnknown() const { return kind == Kind::kUnknown; }
  bool IsTensor() const { return kind == Kind::kTensor; }
  bool IsVoid() const { return kind == Kind::kTuple && fields.empty(); }
  /// Tensor/Shape: the shape values when known.
  const std::vector<arith::Expr>* Shape() const { return values ? &*values : nullptr; }
  /// Every symbolic variable that occurs in the shape values, dims of fields, prim value.
  void CollectVars(std::set<std::string>* out) const;
  /// Substitutes variables in every shape/prim expression.
  StructInfo Substitute(const std::map<std::string, arith::Expr>& values) const;
  /// Replaces by "unknown" every dim that mentions a variable not in `keep` (TVM's erasure when a
  /// variable goes out of scope): the shape becomes unknown but ndim is kept. A prim value is
  /// dropped the same way (dtype kept); tuple fields recurse; callables are returned unchanged
  /// (their parameters define their own variables).
  StructInfo EraseVarsNotIn(const std::set<std::string>& keep) const;
};

/// Printer options: the era decides `R.Object` (classic) or `R.Any` (current).
struct PrintOptions {
  bool current_era = false;
};

/// Some dim is an opaque value (an expression tvmls does not interpret).
bool HasOpaque(const std::vector<arith::Expr>& dims);
/// Everything about `info` is known (every dim non-opaque, every dtype and field), so it can be
/// written as an annotation.
bool FullyKnown(const StructInfo& info);

/// TVM printer spelling; kUnknown prints as "" (callers must not show it). A kUnknown nested
/// in a tuple field or callable parameter/return prints as `R.Object` (`R.Any`), the top type.
std::string Print(const StructInfo& info, const PrintOptions& options = {});
/// A shape as the printer writes it inside R.Tensor: `(1, 64, 56, 56)`, `(n,)`, `()`.
std::string PrintShape(const std::vector<arith::Expr>& dims);

/// TVM's TypeBaseCheck(base, derived) levels (include/tvm/relax/analysis.h, BaseCheckResult):
/// kPass: base provably a supertype of derived; kFailL2: not provable because of symbolic values;
/// kFailL1: static information missing on the derived side; kFailL0: disjoint (provably wrong).
/// kUnknown on either side (tvmls does not know) gives kPass: silence.
///
/// Checks return at the first failing property in TVM's order (Tensor: dtype, ndim, vdevice,
/// shape), so `R.Tensor((2, 3), "float32")` vs `R.Tensor(ndim=3)` is kFailL1 (dtype), not kFailL0.
/// One deliberate difference from TVM: a symbolic dim (or prim value) pair the facts *disprove*
/// (`n + 1` vs `n`) is kFailL0; TVM's TypeBaseChecker says kFailL2 for every non-literal pair it
/// cannot prove equal. Literal pairs and everything else follow TVM. Shape variables: the same
/// name passes, anything else against a shape variable is kFailL2. Prim: base dtype known and
/// derived unknown is kFailL1 (a "" dtype is tvmls-unknown).
enum class BaseCheck { kPass, kFailL2, kFailL1, kFailL0 };

/// Where a check failed, for messages: which tuple field and which dim (-1 when not a dim).
struct BaseCheckDetail {
  BaseCheck result = BaseCheck::kPass;
  std::vector<int> field_path;  // tuple field indices down to the failing value
  int dim = -1;                 // the failing dim index, or -1
  /// Always `<base> vs <derived>`: "dtype float16 vs float32", "dim 0: 64 vs 1", "ndim 3 vs
  /// unknown", "Shape vs Tensor", "shape (n, 4) vs unknown", "vdevice cuda:0 vs none",
  /// "value n vs m", "fields 2 vs 1", "purity: pure vs impure"; callable parts are prefixed
  /// ("param 0: ...", "ret: ..."). Empty on kPass.
  std::string reason;
};

BaseCheckDetail CheckBase(const StructInfo& base, const StructInfo& derived,
                          const arith::Facts& facts);

/// TVM's TypeLCA for if/else results: same dtype or unknown, same ndim or unknown, shape kept
/// only if provably equal (or the same shape variable), vdevice kept only if equal; different
/// kinds give Object. Shapes keep values only when provably equal, else `R.Shape(ndim=k)` (ndim
/// -1 if different). Prims need the same dtype (else Object) and keep a provably equal value.
/// Tuples join fieldwise when of equal length, else Object. Callables: pure only if both are;
/// params kept when both have identical params (same printed form), else opaque; returns joined.
/// kUnknown on either side gives kUnknown.
StructInfo Join(const StructInfo& a, const StructInfo& b, const arith::Facts& facts);

}  // namespace tvmls::types

#endif  // TVMLS_ANALYSIS_TYPES_STRUCT_INFO_H_
