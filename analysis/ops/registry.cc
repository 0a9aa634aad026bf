// The operator table, argument binding, signatures and the Literal helpers.
//
// Rows were first generated from ../shared/reference/relax_ops.json (spelling, parameters with
// their defaults and kinds, purity) and then edited by hand: classic-era keyword spellings,
// `tir_vars`, the inference functions and the docs. Script-level helpers that are not
// registered ops (`R.call_packed`, `R.const`, ...) come last, named "script.<path>".
#include "ops/registry.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <utility>

#include "ops/infer_common.h"

namespace tvmls::ops {

// ---- Literal ------------------------------------------------------------------------------

std::optional<int64_t> Literal::AsInt() const {
  if (kind == Kind::kInt) return int_value;
  if (kind == Kind::kExpr) return expr.AsConst();
  return std::nullopt;
}

std::optional<arith::Expr> Literal::AsExpr() const {
  if (kind == Kind::kInt) return arith::Expr(int_value);
  if (kind == Kind::kExpr) return expr;
  return std::nullopt;
}

std::optional<std::vector<arith::Expr>> Literal::AsExprList(bool allow_scalar) const {
  if (kind != Kind::kList) {
    if (!allow_scalar) return std::nullopt;
    auto single = AsExpr();
    if (!single) return std::nullopt;
    return std::vector<arith::Expr>{*single};
  }
  std::vector<arith::Expr> out;
  out.reserve(items.size());
  for (const Literal& item : items) {
    auto e = item.AsExpr();
    if (!e) return std::nullopt;
    out.push_back(*e);
  }
  return out;
}

std::optional<std::vector<int64_t>> Literal::AsIntList(bool allow_scalar) const {
  if (kind != Kind::kList) {
    if (!allow_scalar) return std::nullopt;
    auto single = AsInt();
    if (!single) return std::nullopt;
    return std::vector<int64_t>{*single};
  }
  std::vector<int64_t> out;
  out.reserve(items.size());
  for (const Literal& item : items) {
    auto v = item.AsInt();
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<std::string> Literal::AsString() const {
  if (kind == Kind::kString) return string_value;
  return std::nullopt;
}

Literal Literal::None() {
  Literal l;
  l.kind = Kind::kNone;
  return l;
}

Literal Literal::Bool(bool value) {
  Literal l;
  l.kind = Kind::kBool;
  l.bool_value = value;
  return l;
}

Literal Literal::Int(int64_t value) {
  Literal l;
  l.kind = Kind::kInt;
  l.int_value = value;
  l.expr = arith::Expr(value);
  return l;
}

Literal Literal::Float(double value) {
  Literal l;
  l.kind = Kind::kFloat;
  l.float_value = value;
  return l;
}

Literal Literal::String(std::string value) {
  Literal l;
  l.kind = Kind::kString;
  l.string_value = std::move(value);
  return l;
}

Literal Literal::List(std::vector<Literal> items) {
  Literal l;
  l.kind = Kind::kList;
  l.items = std::move(items);
  return l;
}

Literal Literal::FromExpr(arith::Expr expr) {
  if (auto c = expr.AsConst()) return Int(*c);
  Literal l;
  l.kind = Kind::kExpr;
  l.expr = std::move(expr);
  return l;
}

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

// Splits the inside of a bracket at top-level commas; nullopt when brackets or quotes do not
// balance. A trailing comma leaves no empty last item; `(1,)` is one item.
std::optional<std::vector<std::string_view>> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return std::nullopt;
    } else if (c == ',' && depth == 0) {
      parts.push_back(Trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (quote || depth != 0) return std::nullopt;
  std::string_view last = Trim(s.substr(start));
  if (!last.empty()) parts.push_back(last);
  for (std::string_view part : parts) {
    if (part.empty()) return std::nullopt;  // `(1,,2)`
  }
  return parts;
}

bool IsNumberText(std::string_view s) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    bool ok = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
    if (!ok) return false;
  }
  return true;
}

// The closing bracket matching s[0], or npos.
size_t MatchingClose(std::string_view s) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']') {
      if (--depth == 0) return i;
    }
  }
  return std::string_view::npos;
}

Literal ParseValue(std::string_view s, int depth) {
  s = Trim(s);
  Literal other;
  if (s.empty() || depth > 32) return other;
  if (s == "None") return Literal::None();
  if (s == "True") return Literal::Bool(true);
  if (s == "False") return Literal::Bool(false);
  if ((s.front() == '\'' || s.front() == '"') && s.size() >= 2 && s.back() == s.front()) {
    std::string_view body = s.substr(1, s.size() - 2);
    if (body.find(s.front()) != std::string_view::npos) return other;
    return Literal::String(std::string(body));
  }
  if ((s.front() == '(' || s.front() == '[') && MatchingClose(s) == s.size() - 1) {
    auto parts = SplitTopLevel(s.substr(1, s.size() - 2));
    if (!parts) return other;
    // `(x)` without a comma is a parenthesized value, not a tuple.
    if (s.front() == '(' && parts->size() == 1 &&
        s.substr(1, s.size() - 2).find(',') == std::string_view::npos) {
      return ParseValue((*parts)[0], depth + 1);
    }
    std::vector<Literal> items;
    for (std::string_view part : *parts) items.push_back(ParseValue(part, depth + 1));
    return Literal::List(std::move(items));
  }
  constexpr std::string_view kPrimValue = "prim_value(";
  if (s.substr(0, kPrimValue.size()) == kPrimValue && s.back() == ')') {
    return ParseValue(s.substr(kPrimValue.size(), s.size() - kPrimValue.size() - 1), depth + 1);
  }
  if (IsNumberText(s)) {
    std::string text(s);
    bool is_float = text.find_first_of(".eE") != std::string::npos;
    char* end = nullptr;
    errno = 0;
    if (!is_float) {
      long long v = std::strtoll(text.c_str(), &end, 10);
      if (errno == 0 && end == text.c_str() + text.size()) return Literal::Int(v);
      return other;
    }
    double v = std::strtod(text.c_str(), &end);
    if (errno == 0 && end == text.c_str() + text.size()) return Literal::Float(v);
    return other;
  }
  if (auto e = arith::ParseExpr(s)) return Literal::FromExpr(*e);
  return other;
}

}  // namespace

Literal ParseLiteral(std::string_view text) { return ParseValue(text, 0); }

bool IsVarPositional(const Param& param) { return param.name[0] == '*' && param.name[1] != '*'; }

bool IsVarKeyword(const Param& param) { return param.name[0] == '*' && param.name[1] == '*'; }

// ---- The table ----------------------------------------------------------------------------

namespace {

using K = ParamKind;

// clang-format off
std::vector<OpInfo> BuildTable() {
  return {
    {"relax.builtin.alloc_tensor", "builtin.alloc_tensor", nullptr,
     {{"shape", nullptr, K::kShape}, {"dtype", nullptr, K::kAny},
      {"runtime_device_index", nullptr, K::kPrim}, {"storage_scope", "'global'", K::kAny}},
     true, InferBuiltinAllocTensor, "High-level tensor allocation emitted by CallTIRRewrite."},
    {"relax.builtin.stop_lift_params", "builtin.stop_lift_params", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferIdentity, "Marks where parameter lifting stops; identity."},
    {"relax.call_builtin_with_ctx", "call_builtin_with_ctx", nullptr,
     {{"func", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"ty_args", "None", K::kAny, "sinfo_args", false, true, true}},
     false, InferCallBuiltinWithCtx, "Calls a VM builtin with the VM context; impure."},
    {"relax.call_dps_packed", "call_dps_packed", nullptr,
     {{"func", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"out_ty", nullptr, K::kAny, "out_sinfo", false, true}},
     true, InferCallDpsPacked,
     "Calls a packed function in destination-passing style; result given by out_ty."},
    {"relax.call_inplace_packed", "call_inplace_packed", nullptr,
     {{"func", nullptr, K::kAny}, {"*args", nullptr, K::kAny},
      {"inplace_indices", nullptr, K::kAttr},
      {"ty_args", nullptr, K::kAny, "sinfo_args", false, true}},
     true, InferCallInplacePacked,
     "Calls a packed function that writes some results into its arguments."},
    {"relax.call_pure_packed", "call_pure_packed", nullptr,
     {{"func", nullptr, K::kAny}, {"*args", nullptr, K::kAny},
      {"ty_args", nullptr, K::kAny, "sinfo_args", false, true}},
     true, InferCallPurePacked,
     "Calls a packed function treated as pure; result given by ty_args."},
    {"relax.call_py_func", "call_py_func", nullptr,
     {{"py_func_name", nullptr, K::kAttr}, {"*args", nullptr, K::kAny},
      {"out_ty", nullptr, K::kAny, "out_sinfo", false, true}},
     true, InferCallDpsPacked, "Calls a Python function of the module; result given by out_ty."},
    {"relax.call_tir", "call_tir", nullptr,
     {{"gvar", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"out_ty", nullptr, K::kAny, "out_sinfo", false, true},
      {"tir_vars", "None", K::kShape, nullptr, true}},
     true, InferCallTir, "Calls a PrimFunc in destination-passing style; result given by out_ty."},
    {"relax.call_tir_inplace", "call_tir_inplace", nullptr,
     {{"gvar", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"inplace_indices", nullptr, K::kAttr},
      {"out_ty", nullptr, K::kAny, "out_sinfo", false, true},
      {"tir_vars", "None", K::kShape, nullptr, true}},
     true, InferCallTirInplace, "call_tir whose outputs may alias inputs (inplace_indices)."},
    {"relax.call_tir_with_grad", "call_tir_with_grad", nullptr,
     {{"gvar", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"out_ty", nullptr, K::kAny, "out_sinfo", false, true}, {"te_grad_name", nullptr, K::kAttr},
      {"te_grad_kwargs", "None", K::kAttr}, {"tir_vars", "None", K::kShape, nullptr, true}},
     true, InferCallTir, "call_tir with a registered TE gradient function."},
    {"relax.invoke_closure", "invoke_closure", nullptr,
     {{"closure", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"ty_args", nullptr, K::kAny, "sinfo_args", false, true}},
     false, InferInvokeClosure, "Invokes a closure; impure."},
    {"relax.invoke_pure_closure", "invoke_pure_closure", nullptr,
     {{"closure", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"ty_args", nullptr, K::kAny, "sinfo_args", false, true}},
     true, InferInvokeClosure, "Invokes a closure treated as pure."},
    {"relax.make_closure", "make_closure", nullptr,
     {{"func", nullptr, K::kAny}, {"args", nullptr, K::kAny}},
     true, InferObject, "Builds a closure from a function and captured values."},
    {"relax.ccl.allgather", "ccl.allgather", nullptr,
     {{"x", nullptr, K::kTensor}, {"num_workers", nullptr, K::kAttr},
      {"in_group", "True", K::kAttr}},
     true, InferAllgather, "Gathers data from all workers along dim 0."},
    {"relax.ccl.allreduce", "ccl.allreduce", nullptr,
     {{"x", nullptr, K::kTensor}, {"op_type", "'sum'", K::kAttr}, {"in_group", "True", K::kAttr}},
     true, InferIdentity, "Reduces data across all workers."},
    {"relax.ccl.broadcast_from_worker0", "ccl.broadcast_from_worker0", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferIdentity, "Broadcasts worker 0's data to all workers."},
    {"relax.ccl.scatter_from_worker0", "ccl.scatter_from_worker0", nullptr,
     {{"x", nullptr, K::kTensor}, {"num_workers", nullptr, K::kAttr}, {"axis", "0", K::kAttr}},
     true, InferScatterFromWorker0, "Scatters worker 0's data along an axis."},
    {"relax.equal", "equal", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryCompare, "Broadcasting elementwise x1 == x2; bool result."},
    {"relax.greater", "greater", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryCompare, "Broadcasting elementwise x1 > x2; bool result."},
    {"relax.greater_equal", "greater_equal", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryCompare, "Broadcasting elementwise x1 >= x2; bool result."},
    {"relax.less", "less", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryCompare, "Broadcasting elementwise x1 < x2; bool result."},
    {"relax.less_equal", "less_equal", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryCompare, "Broadcasting elementwise x1 <= x2; bool result."},
    {"relax.not_equal", "not_equal", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryCompare, "Broadcasting elementwise x1 != x2; bool result."},
    {"relax.arange", "arange", nullptr,
     {{"start", nullptr, K::kPrim}, {"end", "None", K::kPrim}, {"step", "1", K::kPrim},
      {"dtype", "None", K::kAttr}},
     true, InferArange, "Evenly spaced values in [start, end) with the given step, 1-D."},
    {"relax.eye", "eye", nullptr,
     {{"n", nullptr, K::kPrim}, {"m", "None", K::kPrim}, {"k", "0", K::kPrim},
      {"dtype", "'float32'", K::kAttr}},
     true, InferEye, "A 2-D (n, m) tensor with ones on the k-th diagonal."},
    {"relax.eye_like", "eye_like", nullptr,
     {{"x", nullptr, K::kTensor}, {"k", "0", K::kPrim}, {"dtype", "None", K::kAttr}},
     true, InferEyeLike, "Like eye, with the shape (and default dtype) of a 2-D tensor."},
    {"relax.full", "full", nullptr,
     {{"shape", nullptr, K::kShape}, {"fill_value", nullptr, K::kTensor},
      {"dtype", "None", K::kAttr}},
     true, InferFull, "A tensor of the given shape filled with a 0-d fill value."},
    {"relax.full_like", "full_like", nullptr,
     {{"x", nullptr, K::kTensor}, {"fill_value", nullptr, K::kTensor}, {"dtype", "None", K::kAttr}},
     true, InferFullLike, "A tensor shaped like x filled with a 0-d fill value."},
    {"relax.hamming_window", "hamming_window", nullptr,
     {{"window_size", nullptr, K::kPrim}, {"periodic", nullptr, K::kPrim},
      {"alpha", nullptr, K::kPrim}, {"beta", nullptr, K::kPrim}, {"dtype", nullptr, K::kAttr}},
     true, InferHammingWindow, "A 1-D Hamming window of window_size float values."},
    {"relax.ones", "ones", nullptr,
     {{"shape", nullptr, K::kShape}, {"dtype", nullptr, K::kAttr}},
     true, InferZerosOnes, "A tensor of the given shape and dtype filled with ones."},
    {"relax.ones_like", "ones_like", nullptr,
     {{"x", nullptr, K::kTensor}, {"dtype", "None", K::kAttr}},
     true, InferZerosOnesLike, "Ones shaped like x (dtype optional)."},
    {"relax.tril", "tril", nullptr,
     {{"x", nullptr, K::kTensor}, {"k", "0", K::kPrim}},
     true, InferTrilTriu, "Keeps the lower triangle (below diagonal k) of the last two dims."},
    {"relax.triu", "triu", nullptr,
     {{"x", nullptr, K::kTensor}, {"k", "0", K::kPrim}},
     true, InferTrilTriu, "Keeps the upper triangle (above diagonal k) of the last two dims."},
    {"relax.zeros", "zeros", nullptr,
     {{"shape", nullptr, K::kShape}, {"dtype", nullptr, K::kAttr}},
     true, InferZerosOnes, "A tensor of the given shape and dtype filled with zeros."},
    {"relax.zeros_like", "zeros_like", nullptr,
     {{"x", nullptr, K::kTensor}, {"dtype", "None", K::kAttr}},
     true, InferZerosOnesLike, "Zeros shaped like x (dtype optional)."},
    {"relax.astype", "astype", nullptr,
     {{"x", nullptr, K::kTensor}, {"dtype", nullptr, K::kAttr}},
     true, InferAstype, "Casts the elements to another dtype; shape unchanged."},
    {"relax.wrap_param", "wrap_param", nullptr,
     {{"data", nullptr, K::kTensor}, {"dtype", "'float32'", K::kAttr}},
     true, InferAstype, "Marks a parameter and casts it to dtype (for mixed precision)."},
    {"relax.dist.annotate_sharding", "dist.annotate_sharding", nullptr,
     {{"input", nullptr, K::kTensor}, {"device_mesh", nullptr, K::kAttr},
      {"placement", nullptr, K::kAttr}},
     true, InferIdentity, "Annotates the sharding of a tensor."},
    {"relax.dist.call_tir_local_view", "dist.call_tir_local_view", nullptr,
     {{"gvar", nullptr, K::kAny}, {"args", nullptr, K::kAny},
      {"out_ty", nullptr, K::kAny, "out_sinfo", false, true}},
     true, InferCallDpsPacked, "call_tir on the local shard view."},
    {"relax.dist.redistribute", "dist.redistribute", nullptr,
     {{"input", nullptr, K::kTensor}, {"device_mesh", nullptr, K::kAttr},
      {"placement", nullptr, K::kAttr}},
     true, InferUnknown, "Changes the sharding of a distributed tensor."},
    {"relax.dist.redistribute_replica_to_shard", "dist.redistribute_replica_to_shard", nullptr,
     {{"input", nullptr, K::kTensor}, {"num_workers", nullptr, K::kAttr},
      {"axis", nullptr, K::kAttr}},
     true, InferUnknown, "Slices a replicated tensor into the local shard."},
    {"relax.add", "add", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise sum."},
    {"relax.atan2", "atan2", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise atan2(x1, x2)."},
    {"relax.bitwise_and", "bitwise_and", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise bitwise and."},
    {"relax.bitwise_or", "bitwise_or", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise bitwise or."},
    {"relax.bitwise_xor", "bitwise_xor", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise bitwise xor."},
    {"relax.divide", "divide", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise true division."},
    {"relax.floor_divide", "floor_divide", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise division rounded toward negative infinity."},
    {"relax.floor_mod", "floor_mod", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise remainder with the sign of the divisor."},
    {"relax.left_shift", "left_shift", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise left bit shift."},
    {"relax.log_add_exp", "log_add_exp", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise log(exp(x1) + exp(x2))."},
    {"relax.logical_and", "logical_and", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise logical and."},
    {"relax.logical_or", "logical_or", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise logical or."},
    {"relax.logical_xor", "logical_xor", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise logical xor."},
    {"relax.maximum", "maximum", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise maximum."},
    {"relax.minimum", "minimum", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise minimum."},
    {"relax.mod", "mod", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise remainder (truncating)."},
    {"relax.multiply", "multiply", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise product."},
    {"relax.power", "power", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise x1**x2."},
    {"relax.right_shift", "right_shift", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise right bit shift."},
    {"relax.subtract", "subtract", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferBinaryArith, "Broadcasting elementwise difference."},
    {"relax.ewise_fma", "ewise_fma", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}, {"x3", nullptr, K::kTensor}},
     true, InferEwiseFma, "Fused x1 * x2 + x3 over identically shaped tensors (no broadcasting)."},
    {"relax.abs", "abs", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise absolute value."},
    {"relax.acos", "acos", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise arc cosine (float dtypes only)."},
    {"relax.acosh", "acosh", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise inverse hyperbolic cosine (float dtypes only)."},
    {"relax.asin", "asin", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise arc sine (float dtypes only)."},
    {"relax.asinh", "asinh", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise inverse hyperbolic sine (float dtypes only)."},
    {"relax.atan", "atan", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise arc tangent (float dtypes only)."},
    {"relax.atanh", "atanh", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise inverse hyperbolic tangent (float dtypes only)."},
    {"relax.bitwise_not", "bitwise_not", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise bitwise complement."},
    {"relax.ceil", "ceil", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise rounding up to an integer value."},
    {"relax.clip", "clip", nullptr,
     {{"x", nullptr, K::kTensor}, {"min", nullptr, K::kPrim}, {"max", nullptr, K::kPrim}},
     true, InferUnaryArith, "Clamps every element into [min, max]; keeps the input type."},
    {"relax.cos", "cos", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise cosine (float dtypes only)."},
    {"relax.cosh", "cosh", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise hyperbolic cosine (float dtypes only)."},
    {"relax.erf", "erf", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise Gauss error function (float dtypes only)."},
    {"relax.exp", "exp", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise e**x (float dtypes only)."},
    {"relax.floor", "floor", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise rounding down to an integer value."},
    {"relax.isfinite", "isfinite", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryBool, "Elementwise test for finite values; bool result."},
    {"relax.isinf", "isinf", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryBool, "Elementwise test for infinities; bool result."},
    {"relax.isnan", "isnan", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryBool, "Elementwise test for NaN; bool result."},
    {"relax.log", "log", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise natural logarithm (float dtypes only)."},
    {"relax.logical_not", "logical_not", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise logical negation."},
    {"relax.negative", "negative", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise negation."},
    {"relax.round", "round", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise rounding to the nearest integer value."},
    {"relax.rsqrt", "rsqrt", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise 1/sqrt(x) (float dtypes only)."},
    {"relax.sigmoid", "sigmoid", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise logistic function (float dtypes only)."},
    {"relax.sign", "sign", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise sign (-1, 0 or 1)."},
    {"relax.sin", "sin", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise sine (float dtypes only)."},
    {"relax.sinh", "sinh", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise hyperbolic sine (float dtypes only)."},
    {"relax.sqrt", "sqrt", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise square root (float dtypes only)."},
    {"relax.square", "square", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise x*x."},
    {"relax.tan", "tan", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise tangent (float dtypes only)."},
    {"relax.tanh", "tanh", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Elementwise hyperbolic tangent (float dtypes only)."},
    {"relax.trunc", "trunc", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferUnaryArith, "Elementwise rounding toward zero."},
    {"relax.grad.avg_pool2d_backward", "grad.avg_pool2d_backward", nullptr,
     {{"output_grad", nullptr, K::kTensor}, {"data", nullptr, K::kTensor},
      {"pool_size", "(1, 1)", K::kAttr}, {"strides", "(1, 1)", K::kAttr},
      {"padding", "(0, 0, 0, 0)", K::kAttr}, {"dilation", "(1, 1)", K::kAttr},
      {"ceil_mode", "False", K::kAttr}, {"count_include_pad", "False", K::kAttr},
      {"layout", "'NCHW'", K::kAttr}, {"out_layout", "None", K::kAttr}},
     true, InferSecondArg, "Gradient of avg_pool2d."},
    {"relax.grad.end_checkpoint", "grad.end_checkpoint", nullptr,
     {{"input", nullptr, K::kAny}},
     true, InferIdentity, "Ends a gradient checkpoint region; identity."},
    {"relax.grad.max_pool2d_backward", "grad.max_pool2d_backward", nullptr,
     {{"output_grad", nullptr, K::kTensor}, {"data", nullptr, K::kTensor},
      {"pool_size", "(1, 1)", K::kAttr}, {"strides", "(1, 1)", K::kAttr},
      {"padding", "(0, 0, 0, 0)", K::kAttr}, {"dilation", "(1, 1)", K::kAttr},
      {"ceil_mode", "False", K::kAttr}, {"count_include_pad", "False", K::kAttr},
      {"layout", "'NCHW'", K::kAttr}, {"out_layout", "None", K::kAttr}},
     true, InferSecondArg, "Gradient of max_pool2d."},
    {"relax.grad.nll_loss_backward", "grad.nll_loss_backward", nullptr,
     {{"output_grad", nullptr, K::kTensor}, {"predictions", nullptr, K::kTensor},
      {"targets", nullptr, K::kTensor}, {"weights", "None", K::kTensor},
      {"reduction", "'mean'", K::kAttr}, {"ignore_index", "-100", K::kAttr}},
     true, InferSecondArg, "Gradient of nll_loss."},
    {"relax.grad.no_grad", "grad.no_grad", nullptr,
     {{"input", nullptr, K::kAny}},
     true, InferIdentity, "Stops gradient propagation; identity."},
    {"relax.grad.start_checkpoint", "grad.start_checkpoint", nullptr,
     {{"input", nullptr, K::kAny}},
     true, InferIdentity, "Starts a gradient checkpoint region; identity."},
    {"relax.grad.take_backward", "grad.take_backward", nullptr,
     {{"output_grad", nullptr, K::kTensor}, {"x", nullptr, K::kTensor},
      {"indices", nullptr, K::kTensor}, {"axis", "None", K::kAttr}},
     true, InferSecondArg, "Gradient of take."},
    {"relax.image.affine_grid", "image.affine_grid", nullptr,
     {{"data", nullptr, K::kTensor}, {"size", nullptr, K::kShape},
      {"align_corners", "True", K::kAttr}},
     true, InferUnknown, "Sampling grid of an affine transform."},
    {"relax.image.grid_sample", "image.grid_sample", nullptr,
     {{"data", nullptr, K::kTensor}, {"grid", nullptr, K::kTensor},
      {"method", "'bilinear'", K::kAttr}, {"layout", "'NCHW'", K::kAttr},
      {"padding_mode", "'zeros'", K::kAttr}, {"align_corners", "False", K::kAttr}},
     true, InferUnknown, "Samples data at grid positions."},
    {"relax.image.resize2d", "image.resize2d", nullptr,
     {{"data", nullptr, K::kTensor}, {"size", nullptr, K::kShape}, {"roi", "None", K::kAttr},
      {"layout", "'NCHW'", K::kAttr}, {"method", "'linear'", K::kAttr},
      {"coordinate_transformation_mode", "'half_pixel'", K::kAttr},
      {"rounding_method", "'round'", K::kAttr}, {"cubic_alpha", "-0.75", K::kAttr},
      {"cubic_exclude", "0", K::kAttr}, {"extrapolation_value", "0.0", K::kAttr},
      {"out_dtype", "None", K::kAttr}},
     true, InferUnknown, "2-D image resize."},
    {"relax.image.resize3d", "image.resize3d", nullptr,
     {{"data", nullptr, K::kTensor}, {"size", nullptr, K::kShape}, {"roi", "None", K::kAttr},
      {"layout", "'NCDHW'", K::kAttr}, {"method", "'linear'", K::kAttr},
      {"coordinate_transformation_mode", "'half_pixel'", K::kAttr},
      {"rounding_method", "''", K::kAttr}, {"cubic_alpha", "-0.75", K::kAttr},
      {"cubic_exclude", "0", K::kAttr}, {"extrapolation_value", "0.0", K::kAttr},
      {"out_dtype", "None", K::kAttr}},
     true, InferUnknown, "3-D volume resize."},
    {"relax.dynamic_strided_slice", "dynamic_strided_slice", nullptr,
     {{"x", nullptr, K::kTensor}, {"begin", nullptr, K::kTensor}, {"end", nullptr, K::kTensor},
      {"strides", nullptr, K::kTensor}},
     true, InferDynamicStridedSlice,
     "Strided slice whose begin/end/strides are runtime 1-D tensors."},
    {"relax.strided_slice", "strided_slice", nullptr,
     {{"x", nullptr, K::kTensor}, {"axes", nullptr, K::kAny}, {"begin", nullptr, K::kAny},
      {"end", nullptr, K::kAny}, {"strides", "None", K::kAny},
      {"assume_inbound", "False", K::kAttr}},
     true, InferStridedSlice, "Slices x along the listed axes with begin/end/strides."},
    {"relax.take", "take", nullptr,
     {{"x", nullptr, K::kTensor}, {"indices", nullptr, K::kAny}, {"axis", "None", K::kAttr},
      {"mode", "'fast'", K::kAttr}},
     true, InferTake, "Gathers entries of x along axis at the given indices (numpy.take)."},
    {"relax.inspect.tensor_byte_offset", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}},
     true, InferInspectUInt64, "Byte offset of a tensor (compiler internal)."},
    {"relax.inspect.tensor_dtype_bits", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}},
     true, InferInspectUInt8, "Bits of the dtype (compiler internal)."},
    {"relax.inspect.tensor_dtype_code", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}},
     true, InferInspectUInt8, "DLPack code of the dtype (compiler internal)."},
    {"relax.inspect.tensor_dtype_lanes", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}},
     true, InferInspectUInt16, "Lanes of the dtype (compiler internal)."},
    {"relax.inspect.tensor_elem_offset", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}},
     true, InferInspectUInt64, "Element offset of a tensor (compiler internal)."},
    {"relax.inspect.tensor_ndim", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}},
     true, InferInspectInt32, "Rank of a tensor (compiler internal)."},
    {"relax.inspect.tensor_shape_i", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}, {"axis", nullptr, K::kPrim}},
     true, InferInspectInt64, "Extent of one dim (compiler internal)."},
    {"relax.inspect.tensor_stride_i", nullptr, nullptr,
     {{"tensor", nullptr, K::kTensor}, {"axis", nullptr, K::kPrim}},
     true, InferInspectInt64, "Stride of one dim (compiler internal)."},
    {"relax.einsum", "einsum", nullptr,
     {{"operands", nullptr, K::kAny}, {"subscripts", nullptr, K::kAttr}},
     true, InferUnknown, "Einstein summation over a tuple of operands."},
    {"relax.matmul", "matmul", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}, {"out_dtype", "None", K::kAttr}},
     true, InferMatmul, "Numpy-style matrix product with broadcast batch dims."},
    {"relax.outer", "outer", nullptr,
     {{"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferOuter, "Outer product of two 1-D tensors."},
    {"relax.broadcast_to", "broadcast_to", nullptr,
     {{"x", nullptr, K::kTensor}, {"shape", nullptr, K::kShape}},
     true, InferBroadcastTo, "Broadcasts x to the target shape."},
    {"relax.collapse_sum_like", "collapse_sum_like", nullptr,
     {{"data", nullptr, K::kTensor}, {"collapse_target", nullptr, K::kTensor}},
     true, InferCollapseSumLike,
     "Sums data down to the shape of another tensor (inverse broadcast)."},
    {"relax.collapse_sum_to", "collapse_sum_to", nullptr,
     {{"data", nullptr, K::kTensor}, {"shape", nullptr, K::kShape}},
     true, InferCollapseSumTo, "Sums data down to a target shape (inverse broadcast)."},
    {"relax.concat", "concat", nullptr,
     {{"tensors", nullptr, K::kAny}, {"axis", "0", K::kAttr}},
     true, InferConcat, "Joins a tuple of tensors along an existing axis."},
    {"relax.expand_dims", "expand_dims", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", nullptr, K::kAttr}},
     true, InferExpandDims, "Inserts size-1 dims at the given output positions."},
    {"relax.flatten", "flatten", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferFlatten, "Flattens a tensor into 1-D."},
    {"relax.flip", "flip", nullptr,
     {{"data", nullptr, K::kTensor}, {"axis", nullptr, K::kAttr}},
     true, InferFlip, "Reverses the order of elements along one axis."},
    {"relax.gather_elements", "gather_elements", nullptr,
     {{"data", nullptr, K::kTensor}, {"indices", nullptr, K::kTensor}, {"axis", "0", K::kAttr}},
     true, InferUnknown, "Gathers elements along an axis (torch.gather)."},
    {"relax.gather_nd", "gather_nd", nullptr,
     {{"data", nullptr, K::kTensor}, {"indices", nullptr, K::kTensor},
      {"batch_dims", "0", K::kAttr}},
     true, InferUnknown, "Gathers slices selected by the last dim of indices."},
    {"relax.index_put", "index_put", nullptr,
     {{"data", nullptr, K::kTensor}, {"indices", nullptr, K::kAny}, {"values", nullptr, K::kTensor},
      {"accumulate", "False", K::kAttr}},
     true, InferUnknown, "Writes values at tensor-indexed positions."},
    {"relax.index_tensor", "index_tensor", nullptr,
     {{"data", nullptr, K::kTensor}, {"indices", nullptr, K::kAny}},
     true, InferUnknown, "Advanced (numpy-style) indexing by a tuple of index tensors."},
    {"relax.layout_transform", "layout_transform", nullptr,
     {{"x", nullptr, K::kTensor}, {"index_map", nullptr, K::kAttr},
      {"pad_value", "None", K::kAttr}, {"axis_separators", "None", K::kAttr, nullptr, true},
      {"input_axis_separators", "None", K::kAttr, nullptr, true}},
     true, InferUnknown, "Rearranges data by an index map."},
    {"relax.meshgrid", "meshgrid", nullptr,
     {{"tensors", nullptr, K::kAny}, {"indexing", "'ij'", K::kAttr}},
     true, InferUnknown, "Coordinate grids from a tuple of 1-D tensors."},
    {"relax.one_hot", "one_hot", nullptr,
     {{"indices", nullptr, K::kTensor}, {"on_value", nullptr, K::kPrim},
      {"off_value", nullptr, K::kPrim}, {"depth", nullptr, K::kAttr}, {"axis", "-1", K::kAttr}},
     true, InferUnknown, "One-hot encoding of integer indices with a new depth axis."},
    {"relax.permute_dims", "permute_dims", nullptr,
     {{"x", nullptr, K::kTensor}, {"axes", "None", K::kAttr}},
     true, InferPermuteDims, "Permutes the dims (reverses them when axes is None)."},
    {"relax.repeat", "repeat", nullptr,
     {{"data", nullptr, K::kTensor}, {"repeats", nullptr, K::kAttr}, {"axis", "None", K::kAttr}},
     true, InferRepeat, "Repeats elements along an axis (or flattened)."},
    {"relax.reshape", "reshape", nullptr,
     {{"x", nullptr, K::kTensor}, {"shape", nullptr, K::kShape}},
     true, InferReshape,
     "Gives x a new shape with the same number of elements (-1 and 0 allowed)."},
    {"relax.reverse_sequence", "reverse_sequence", nullptr,
     {{"data", nullptr, K::kTensor}, {"seq_lengths", nullptr, K::kTensor},
      {"seq_axis", "1", K::kAttr}, {"batch_axis", "0", K::kAttr}},
     true, InferUnknown, "Reverses variable-length prefixes along seq_axis."},
    {"relax.scatter_elements", "scatter_elements", nullptr,
     {{"data", nullptr, K::kTensor}, {"indices", nullptr, K::kTensor},
      {"updates", nullptr, K::kTensor}, {"axis", "0", K::kAttr},
      {"reduction", "'update'", K::kAttr}},
     true, InferUnknown, "Scatters updates into data along an axis."},
    {"relax.scatter_nd", "scatter_nd", nullptr,
     {{"data", nullptr, K::kTensor}, {"indices", nullptr, K::kTensor},
      {"updates", nullptr, K::kTensor}, {"reduction", "'update'", K::kAttr}},
     true, InferUnknown, "Scatters updates into data at n-d indices."},
    {"relax.slice_scatter", "slice_scatter", nullptr,
     {{"input_tensor", nullptr, K::kTensor}, {"src", nullptr, K::kTensor},
      {"start", nullptr, K::kPrim}, {"end", nullptr, K::kPrim}, {"step", nullptr, K::kPrim},
      {"axis", "0", K::kAttr}},
     true, InferUnknown, "Writes src into a strided slice of the input."},
    {"relax.split", "split", nullptr,
     {{"x", nullptr, K::kTensor}, {"indices_or_sections", nullptr, K::kAttr},
      {"axis", "0", K::kAttr}},
     true, InferSplit, "Splits x into sections or at indices along an axis; a tuple of tensors."},
    {"relax.squeeze", "squeeze", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}},
     true, InferSqueeze, "Removes size-1 dims (all of them, or the listed axes)."},
    {"relax.stack", "stack", nullptr,
     {{"tensors", nullptr, K::kAny}, {"axis", "0", K::kAttr}},
     true, InferStack, "Joins same-shaped tensors along a new axis."},
    {"relax.tile", "tile", nullptr,
     {{"data", nullptr, K::kTensor}, {"repeats", nullptr, K::kAttr}},
     true, InferTile, "Repeats the whole tensor per dim (numpy.tile)."},
    {"relax.memory.alloc_storage", "memory.alloc_storage", nullptr,
     {{"size", nullptr, K::kShape}, {"virtual_device_index", nullptr, K::kPrim},
      {"storage_scope", nullptr, K::kAny}, {"dtype", nullptr, K::kAny}},
     true, InferObject, "Allocates a byte storage object (size in bytes) on a virtual device."},
    {"relax.memory.alloc_tensor", "memory.alloc_tensor", nullptr,
     {{"storage", nullptr, K::kAny}, {"offset", nullptr, K::kPrim}, {"shape", nullptr, K::kShape},
      {"dtype", nullptr, K::kAny}, {"runtime_device_ind", "prim_value(0)", K::kPrim}},
     true, InferMemAllocTensor,
     "Creates a tensor of shape/dtype inside a storage at a byte offset."},
    {"relax.memory.ensure_zero_offset", "memory.ensure_zero_offset", nullptr,
     {{"data", nullptr, K::kTensor}},
     true, InferIdentity, "A view of data whose byte offset is zero (copies if needed)."},
    {"relax.memory.kill_storage", "memory.kill_storage", nullptr,
     {{"storage", nullptr, K::kAny}},
     false, InferVoid, "Releases a storage object; impure."},
    {"relax.memory.kill_tensor", "memory.kill_tensor", nullptr,
     {{"tensor", nullptr, K::kTensor}},
     false, InferVoid, "Releases a tensor; impure."},
    {"relax.memory.view", "memory.view", nullptr,
     {{"data", nullptr, K::kTensor}, {"shape", "None", K::kShape}, {"dtype", "None", K::kAny},
      {"relative_byte_offset", "None", K::kPrim}},
     true, InferView, "Reinterprets a tensor with another shape, dtype or byte offset."},
    {"relax.assert_op", "assert_op", nullptr,
     {{"condition", nullptr, K::kAny}, {"format_args", "None", K::kAny},
      {"format", "''", K::kAttr}},
     false, InferAssert, "Runtime assertion on a bool scalar with a formatted message; impure."},
    {"relax.hint_on_device", "hint_on_device", nullptr,
     {{"data", nullptr, K::kTensor}, {"dst_vdevice", nullptr, K::kAttr},
      {"memory_scope", "'global'", K::kAttr}},
     true, InferIdentity, "Hints that data should live on the given device; type unchanged."},
    {"relax.null_value", "null_value", nullptr,
     {},
     true, InferObject, "The null object."},
    {"relax.print", "print", nullptr,
     {{"*values", nullptr, K::kAny}, {"format", "''", K::kAttr}},
     false, InferVoid, "Prints values at run time with a format string; impure."},
    {"relax.shape_of", "shape_of", nullptr,
     {{"expr", nullptr, K::kTensor}},
     true, InferShapeOf, "The shape of a tensor as a Shape value."},
    {"relax.shape_to_tensor", "shape_to_tensor", nullptr,
     {{"expr", nullptr, K::kShape}},
     true, InferShapeToTensor, "Converts a Shape value into a 1-D int64 tensor."},
    {"relax.size", "size", nullptr,
     {{"expr", nullptr, K::kTensor}},
     true, InferSize, "Number of elements of a tensor as a 0-d int64 tensor."},
    {"relax.tensor_to_shape", "tensor_to_shape", nullptr,
     {{"expr", nullptr, K::kTensor}},
     true, InferTensorToShape, "Converts a 1-D integer tensor into a Shape value."},
    {"relax.to_vdevice", "to_vdevice", nullptr,
     {{"data", nullptr, K::kTensor}, {"dst_vdevice", nullptr, K::kAttr}},
     true, InferToVDevice, "Copies data to another virtual device."},
    {"relax.nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool1d", nullptr,
     {{"data", nullptr, K::kTensor}, {"output_size", "None", K::kAttr},
      {"layout", "'NCW'", K::kAttr}, {"out_layout", "None", K::kAttr}},
     true, InferAdaptivePool1d, "1-D average pooling to a fixed output size."},
    {"relax.nn.adaptive_avg_pool2d", "nn.adaptive_avg_pool2d", nullptr,
     {{"data", nullptr, K::kTensor}, {"output_size", "None", K::kAttr},
      {"layout", "'NCHW'", K::kAttr}, {"out_layout", "None", K::kAttr}},
     true, InferAdaptivePool2d, "2-D average pooling to a fixed output size."},
    {"relax.nn.adaptive_avg_pool3d", "nn.adaptive_avg_pool3d", nullptr,
     {{"data", nullptr, K::kTensor}, {"output_size", "None", K::kAttr},
      {"layout", "'NCDHW'", K::kAttr}, {"out_layout", "None", K::kAttr}},
     true, InferAdaptivePool3d, "3-D average pooling to a fixed output size."},
    {"relax.nn.attention", "nn.attention", nullptr,
     {{"query", nullptr, K::kTensor}, {"key", nullptr, K::kTensor}, {"value", nullptr, K::kTensor},
      {"bias", "None", K::kTensor}, {"scale", "None", K::kAttr}, {"causal_mask", "None", K::kAttr},
      {"window_size", "None", K::kAttr}},
     true, InferAttention, "Multi-head attention over [batch, seq, heads, dim] tensors."},
    {"relax.nn.attention_bias", "nn.attention_bias", nullptr,
     {{"query", nullptr, K::kTensor}, {"key", nullptr, K::kTensor}, {"value", nullptr, K::kTensor},
      {"bias", "None", K::kTensor}, {"scale", "None", K::kAttr}, {"causal_mask", "None", K::kAttr},
      {"window_size", "None", K::kAttr}},
     true, InferAttention,
     "Multi-head attention with an additive bias (made by nn.attention(bias=...))."},
    {"relax.nn.attention_var_len", "nn.attention_var_len", nullptr,
     {{"queries", nullptr, K::kTensor}, {"keys", nullptr, K::kTensor},
      {"values", nullptr, K::kTensor}, {"seqstart_q", nullptr, K::kTensor},
      {"max_seqlen_q", nullptr, K::kTensor}, {"seqstart_k", "None", K::kTensor},
      {"max_seqlen_k", "None", K::kTensor}, {"scale", "None", K::kAttr},
      {"causal_mask", "None", K::kAttr}, {"window_size", "None", K::kAttr}},
     true, InferUnknown, "Attention over packed variable-length sequences."},
    {"relax.nn.avg_pool1d", "nn.avg_pool1d", nullptr,
     {{"data", nullptr, K::kTensor}, {"pool_size", "(1,)", K::kAttr}, {"strides", "(1,)", K::kAttr},
      {"padding", "(0, 0)", K::kAttr}, {"dilation", "(1,)", K::kAttr},
      {"ceil_mode", "False", K::kAttr}, {"count_include_pad", "True", K::kAttr},
      {"layout", "'NCW'", K::kAttr}, {"out_layout", "None", K::kAttr}},
     true, InferPool1d, "1-D average pooling."},
    {"relax.nn.avg_pool2d", "nn.avg_pool2d", nullptr,
     {{"data", nullptr, K::kTensor}, {"pool_size", "(1, 1)", K::kAttr},
      {"strides", "(1, 1)", K::kAttr}, {"padding", "(0, 0)", K::kAttr},
      {"dilation", "(1, 1)", K::kAttr}, {"ceil_mode", "False", K::kAttr},
      {"count_include_pad", "False", K::kAttr}, {"layout", "'NCHW'", K::kAttr},
      {"out_layout", "None", K::kAttr}},
     true, InferPool2d, "2-D average pooling."},
    {"relax.nn.avg_pool3d", "nn.avg_pool3d", nullptr,
     {{"data", nullptr, K::kTensor}, {"pool_size", "(1, 1, 1)", K::kAttr},
      {"strides", "(1, 1, 1)", K::kAttr}, {"padding", "(0, 0, 0)", K::kAttr},
      {"dilation", "(1, 1, 1)", K::kAttr}, {"ceil_mode", "False", K::kAttr},
      {"count_include_pad", "True", K::kAttr}, {"layout", "'NCDHW'", K::kAttr},
      {"out_layout", "None", K::kAttr}},
     true, InferPool3d, "3-D average pooling."},
    {"relax.nn.batch_flatten", "nn.batch_flatten", nullptr,
     {{"data", nullptr, K::kTensor}},
     true, InferBatchFlatten, "Flattens every dim but the first."},
    {"relax.nn.batch_norm", "nn.batch_norm", nullptr,
     {{"data", nullptr, K::kTensor}, {"gamma", nullptr, K::kTensor}, {"beta", nullptr, K::kTensor},
      {"moving_mean", nullptr, K::kTensor}, {"moving_var", nullptr, K::kTensor},
      {"axis", nullptr, K::kAttr}, {"epsilon", "1e-05", K::kAttr}, {"center", "True", K::kAttr},
      {"scale", "True", K::kAttr}, {"momentum", "0.1", K::kAttr}, {"training", "True", K::kAttr}},
     true, InferBatchNorm,
     "Batch normalization; returns (output, new moving mean, new moving var)."},
    {"relax.nn.conv1d", "nn.conv1d", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor}, {"strides", "1", K::kAttr},
      {"padding", "0", K::kAttr}, {"dilation", "1", K::kAttr}, {"groups", "1", K::kAttr},
      {"data_layout", "'NCW'", K::kAttr}, {"kernel_layout", "'OIW'", K::kAttr},
      {"out_layout", "None", K::kAttr}, {"out_dtype", "None", K::kAttr}},
     true, InferConv1d, "1-D convolution."},
    {"relax.nn.conv1d_transpose", "nn.conv1d_transpose", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor}, {"strides", "1", K::kAttr},
      {"padding", "0", K::kAttr}, {"output_padding", "0", K::kAttr}, {"dilation", "1", K::kAttr},
      {"groups", "1", K::kAttr}, {"data_layout", "'NCW'", K::kAttr},
      {"kernel_layout", "'IOW'", K::kAttr}, {"out_layout", "None", K::kAttr},
      {"out_dtype", "None", K::kAttr}},
     true, InferConv1dTranspose, "1-D transposed convolution."},
    {"relax.nn.conv2d", "nn.conv2d", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor},
      {"strides", "(1, 1)", K::kAttr}, {"padding", "(0, 0)", K::kAttr},
      {"dilation", "(1, 1)", K::kAttr}, {"groups", "1", K::kAttr},
      {"data_layout", "'NCHW'", K::kAttr}, {"kernel_layout", "'OIHW'", K::kAttr},
      {"out_layout", "None", K::kAttr}, {"out_dtype", "None", K::kAttr}},
     true, InferConv2d, "2-D convolution."},
    {"relax.nn.conv2d_transpose", "nn.conv2d_transpose", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor},
      {"strides", "(1, 1)", K::kAttr}, {"padding", "(0, 0)", K::kAttr},
      {"output_padding", "(0, 0)", K::kAttr}, {"dilation", "(1, 1)", K::kAttr},
      {"groups", "1", K::kAttr}, {"data_layout", "'NCHW'", K::kAttr},
      {"kernel_layout", "'IOHW'", K::kAttr}, {"out_layout", "None", K::kAttr},
      {"out_dtype", "None", K::kAttr}},
     true, InferConv2dTranspose, "2-D transposed convolution."},
    {"relax.nn.conv3d", "nn.conv3d", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor},
      {"strides", "(1, 1, 1)", K::kAttr}, {"padding", "(0, 0, 0)", K::kAttr},
      {"dilation", "(1, 1, 1)", K::kAttr}, {"groups", "1", K::kAttr},
      {"data_layout", "'NCDHW'", K::kAttr}, {"kernel_layout", "'OIDHW'", K::kAttr},
      {"out_layout", "None", K::kAttr}, {"out_dtype", "None", K::kAttr}},
     true, InferConv3d, "3-D convolution."},
    {"relax.nn.conv3d_transpose", "nn.conv3d_transpose", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor},
      {"strides", "(1, 1, 1)", K::kAttr}, {"padding", "(0, 0, 0)", K::kAttr},
      {"output_padding", "(0, 0, 0)", K::kAttr}, {"dilation", "(1, 1, 1)", K::kAttr},
      {"groups", "1", K::kAttr}, {"data_layout", "'NCDHW'", K::kAttr},
      {"kernel_layout", "'IODHW'", K::kAttr}, {"out_layout", "None", K::kAttr},
      {"out_dtype", "None", K::kAttr}},
     true, InferConv3dTranspose, "3-D transposed convolution."},
    {"relax.nn.cross_entropy_with_logits", "nn.cross_entropy_with_logits", nullptr,
     {{"predictions", nullptr, K::kTensor}, {"labels", nullptr, K::kTensor}},
     true, InferCrossEntropy, "Cross entropy of logits and labels; a 0-d result."},
    {"relax.nn.dropout", "nn.dropout", nullptr,
     {{"data", nullptr, K::kTensor}, {"rate", "0.5", K::kAttr}},
     true, InferDropout, "Dropout; returns (output, mask)."},
    {"relax.nn.gelu", "nn.gelu", nullptr,
     {{"data", nullptr, K::kTensor}},
     true, InferUnaryFloat, "GELU activation (erf form)."},
    {"relax.nn.gelu_tanh", "nn.gelu_tanh", nullptr,
     {{"data", nullptr, K::kTensor}},
     true, InferUnaryFloat, "GELU activation (tanh approximation)."},
    {"relax.nn.group_norm", "nn.group_norm", nullptr,
     {{"data", nullptr, K::kTensor}, {"gamma", nullptr, K::kTensor}, {"beta", nullptr, K::kTensor},
      {"num_groups", nullptr, K::kAttr}, {"channel_axis", nullptr, K::kAttr},
      {"axes", nullptr, K::kAttr}, {"epsilon", "1e-05", K::kAttr}, {"center", "True", K::kAttr},
      {"scale", "True", K::kAttr}},
     true, InferUnknown, "Group normalization."},
    {"relax.nn.instance_norm", "nn.instance_norm", nullptr,
     {{"data", nullptr, K::kTensor}, {"gamma", nullptr, K::kTensor}, {"beta", nullptr, K::kTensor},
      {"channel_axis", nullptr, K::kAttr}, {"axes", nullptr, K::kAttr},
      {"epsilon", "1e-05", K::kAttr}, {"center", "True", K::kAttr}, {"scale", "True", K::kAttr}},
     true, InferUnknown, "Instance normalization."},
    {"relax.nn.layer_norm", "nn.layer_norm", nullptr,
     {{"data", nullptr, K::kTensor}, {"gamma", nullptr, K::kTensor}, {"beta", nullptr, K::kTensor},
      {"axes", nullptr, K::kAttr}, {"epsilon", "1e-05", K::kAttr}, {"center", "True", K::kAttr},
      {"scale", "True", K::kAttr}},
     true, InferLayerNorm, "Layer normalization over the given axes."},
    {"relax.nn.leakyrelu", "nn.leakyrelu", nullptr,
     {{"data", nullptr, K::kTensor}, {"alpha", "0.01", K::kAttr}},
     true, InferUnaryFloat, "Leaky ReLU with slope alpha."},
    {"relax.nn.log_softmax", "nn.log_softmax", nullptr,
     {{"data", nullptr, K::kTensor}, {"axis", "-1", K::kAttr}},
     true, InferSoftmax, "Log of softmax along an axis."},
    {"relax.nn.max_pool1d", "nn.max_pool1d", nullptr,
     {{"data", nullptr, K::kTensor}, {"pool_size", "(1,)", K::kAttr}, {"strides", "(1,)", K::kAttr},
      {"padding", "(0, 0)", K::kAttr}, {"dilation", "(1,)", K::kAttr},
      {"ceil_mode", "False", K::kAttr}, {"count_include_pad", "False", K::kAttr},
      {"layout", "'NCW'", K::kAttr}, {"out_layout", "None", K::kAttr}},
     true, InferPool1d, "1-D max pooling."},
    {"relax.nn.max_pool2d", "nn.max_pool2d", nullptr,
     {{"data", nullptr, K::kTensor}, {"pool_size", "(1, 1)", K::kAttr},
      {"strides", "(1, 1)", K::kAttr}, {"padding", "(0, 0)", K::kAttr},
      {"dilation", "(1, 1)", K::kAttr}, {"ceil_mode", "False", K::kAttr},
      {"count_include_pad", "False", K::kAttr}, {"layout", "'NCHW'", K::kAttr},
      {"out_layout", "None", K::kAttr}},
     true, InferPool2d, "2-D max pooling."},
    {"relax.nn.max_pool3d", "nn.max_pool3d", nullptr,
     {{"data", nullptr, K::kTensor}, {"pool_size", "(1, 1, 1)", K::kAttr},
      {"strides", "(1, 1, 1)", K::kAttr}, {"padding", "(0, 0, 0)", K::kAttr},
      {"dilation", "(1, 1, 1)", K::kAttr}, {"ceil_mode", "False", K::kAttr},
      {"count_include_pad", "False", K::kAttr}, {"layout", "'NCDHW'", K::kAttr},
      {"out_layout", "None", K::kAttr}},
     true, InferPool3d, "3-D max pooling."},
    {"relax.nn.nll_loss", "nn.nll_loss", nullptr,
     {{"predictions", nullptr, K::kTensor}, {"targets", nullptr, K::kTensor},
      {"weights", "None", K::kTensor}, {"reduction", "'mean'", K::kAttr},
      {"ignore_index", "-100", K::kAttr}},
     true, InferNllLoss, "Negative log-likelihood loss."},
    {"relax.nn.pad", "nn.pad", nullptr,
     {{"data", nullptr, K::kTensor}, {"pad_width", nullptr, K::kAttr},
      {"pad_mode", "'constant'", K::kAttr}, {"pad_value", "0.0", K::kAttr}},
     true, InferPad, "Pads each dim by (before, after) amounts."},
    {"relax.nn.pixel_shuffle", "nn.pixel_shuffle", nullptr,
     {{"data", nullptr, K::kTensor}, {"upscale_factor", nullptr, K::kAttr}},
     true, InferPixelShuffle, "Moves channel blocks into spatial dims (depth to space)."},
    {"relax.nn.prelu", "nn.prelu", nullptr,
     {{"data", nullptr, K::kTensor}, {"alpha", nullptr, K::kTensor}, {"axis", "1", K::kAttr}},
     true, InferPrelu, "Parametric ReLU with per-channel alpha."},
    {"relax.nn.relu", "nn.relu", nullptr,
     {{"data", nullptr, K::kTensor}},
     true, InferUnaryArith, "Rectified linear unit."},
    {"relax.nn.rms_norm", "nn.rms_norm", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor}, {"axes", "-1", K::kAttr},
      {"epsilon", "1e-05", K::kAttr}},
     true, InferRmsNorm, "Root-mean-square normalization over the given axes."},
    {"relax.nn.selu", "nn.selu", nullptr,
     {{"data", nullptr, K::kTensor}},
     true, InferUnaryFloat, "Scaled exponential linear unit."},
    {"relax.nn.silu", "nn.silu", nullptr,
     {{"data", nullptr, K::kTensor}},
     true, InferUnaryFloat, "SiLU (x * sigmoid(x))."},
    {"relax.nn.softmax", "nn.softmax", nullptr,
     {{"data", nullptr, K::kTensor}, {"axis", "-1", K::kAttr}},
     true, InferSoftmax, "Softmax along an axis."},
    {"relax.nn.softplus", "nn.softplus", nullptr,
     {{"data", nullptr, K::kTensor}, {"beta", "1.0", K::kAttr}, {"threshold", "20.0", K::kAttr}},
     true, InferUnaryFloat, "Softplus log(1 + exp(beta*x))/beta."},
    {"relax.dequantize", "dequantize", nullptr,
     {{"data", nullptr, K::kTensor}, {"scale", nullptr, K::kTensor},
      {"zero_point", nullptr, K::kTensor}, {"axis", "-1", K::kAttr},
      {"out_dtype", "'float32'", K::kAttr}},
     true, InferUnknown, "Converts quantized integers to floats with scale and zero point."},
    {"relax.quantize", "quantize", nullptr,
     {{"data", nullptr, K::kTensor}, {"scale", nullptr, K::kTensor},
      {"zero_point", nullptr, K::kTensor}, {"axis", "-1", K::kAttr},
      {"out_dtype", "'int8'", K::kAttr}},
     true, InferUnknown, "Converts floats to quantized integers with scale and zero point."},
    {"relax.max", "max", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferReduce, "Maximum over axes."},
    {"relax.mean", "mean", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferReduce, "Mean over axes."},
    {"relax.median", "median", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferMedian, "Median over axes (with indices for a single axis)."},
    {"relax.min", "min", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferReduce, "Minimum over axes."},
    {"relax.prod", "prod", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferReduce, "Product over axes."},
    {"relax.std", "std", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferReduce, "Standard deviation over axes."},
    {"relax.sum", "sum", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferReduce, "Sum over axes."},
    {"relax.variance", "variance", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferReduce, "Variance over axes."},
    {"relax.multinomial_from_uniform", "multinomial_from_uniform", nullptr,
     {{"prob", nullptr, K::kTensor}, {"uniform_sample", nullptr, K::kTensor},
      {"sample_indices", nullptr, K::kTensor}, {"dtype", "'int64'", K::kAttr}},
     true, InferUnknown, "Samples category indices from probabilities and uniform draws."},
    {"relax.argmax", "argmax", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferArgReduce, "Index of the maximum along an axis (int64)."},
    {"relax.argmin", "argmin", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"keepdims", "False", K::kAttr}},
     true, InferArgReduce, "Index of the minimum along an axis (int64)."},
    {"relax.bucketize", "bucketize", nullptr,
     {{"input_tensor", nullptr, K::kTensor}, {"boundaries", nullptr, K::kTensor},
      {"out_int32", "False", K::kAttr}, {"right", "False", K::kAttr}},
     true, InferBucketize, "Bucket index of each element within sorted boundaries."},
    {"relax.where", "where", nullptr,
     {{"condition", nullptr, K::kTensor}, {"x1", nullptr, K::kTensor}, {"x2", nullptr, K::kTensor}},
     true, InferWhere, "Selects from x1 where condition holds, else x2 (broadcasting)."},
    {"relax.nonzero", "nonzero", nullptr,
     {{"x", nullptr, K::kTensor}},
     true, InferNonzero, "Indices of the non-zero elements, one row per dim."},
    {"relax.unique", "unique", nullptr,
     {{"x", nullptr, K::kTensor}, {"sorted", "True", K::kPrim}, {"return_index", "False", K::kPrim},
      {"return_inverse", "False", K::kPrim}, {"return_counts", "False", K::kPrim},
      {"axis", "None", K::kPrim}},
     true, InferUnknown, "Unique elements (with optional index/inverse/counts)."},
    {"relax.argsort", "argsort", nullptr,
     {{"data", nullptr, K::kTensor}, {"axis", "-1", K::kAttr}, {"descending", "False", K::kAttr},
      {"dtype", "'int32'", K::kAttr}},
     true, InferArgsort, "Indices that sort the data along an axis."},
    {"relax.sort", "sort", nullptr,
     {{"x", nullptr, K::kTensor}, {"axis", "-1", K::kAttr}, {"descending", "False", K::kAttr}},
     true, InferSort, "Sorts along an axis."},
    {"relax.topk", "topk", nullptr,
     {{"data", nullptr, K::kTensor}, {"k", "1", K::kAttr}, {"axis", "-1", K::kAttr},
      {"ret_type", "'both'", K::kAttr}, {"largest", "True", K::kAttr},
      {"dtype", "'int32'", K::kAttr}},
     true, InferTopk, "The k largest (or smallest) values and/or indices along an axis."},
    {"relax.cumprod", "cumprod", nullptr,
     {{"data", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"dtype", "None", K::kAttr},
      {"exclusive", "False", K::kAttr}},
     true, InferCumulative, "Cumulative product along an axis (flattened when axis is None)."},
    {"relax.cumsum", "cumsum", nullptr,
     {{"data", nullptr, K::kTensor}, {"axis", "None", K::kAttr}, {"dtype", "None", K::kAttr},
      {"exclusive", "False", K::kAttr}},
     true, InferCumulative, "Cumulative sum along an axis (flattened when axis is None)."},
    {"relax.vision.all_class_non_max_suppression", "vision.all_class_non_max_suppression", nullptr,
     {{"boxes", nullptr, K::kTensor}, {"scores", nullptr, K::kTensor},
      {"max_output_boxes_per_class", nullptr, K::kTensor}, {"iou_threshold", nullptr, K::kTensor},
      {"score_threshold", nullptr, K::kTensor}, {"output_format", "'onnx'", K::kAttr}},
     true, InferUnknown, "Non-max suppression over all classes (ONNX style)."},
    {"relax.vision.get_valid_counts", "vision.get_valid_counts", nullptr,
     {{"data", nullptr, K::kTensor}, {"score_threshold", "0", K::kAttr},
      {"id_index", "0", K::kAttr}, {"score_index", "1", K::kAttr}},
     true, InferUnknown, "Counts boxes above a score threshold and compacts them."},
    {"relax.vision.multibox_transform_loc", "vision.multibox_transform_loc", nullptr,
     {{"cls_pred", nullptr, K::kTensor}, {"loc_pred", nullptr, K::kTensor},
      {"anchor", nullptr, K::kTensor}, {"clip", "False", K::kAttr}, {"threshold", "0.0", K::kAttr},
      {"variances", "(1.0, 1.0, 1.0, 1.0)", K::kAttr}, {"keep_background", "True", K::kAttr}},
     true, InferUnknown, "Decodes SSD box predictions against anchors."},
    {"relax.vision.non_max_suppression", "vision.non_max_suppression", nullptr,
     {{"data", nullptr, K::kTensor}, {"valid_count", nullptr, K::kTensor},
      {"indices", nullptr, K::kTensor}, {"max_output_size", "-1", K::kAttr},
      {"iou_threshold", "0.5", K::kAttr}, {"force_suppress", "False", K::kAttr},
      {"top_k", "-1", K::kAttr}, {"coord_start", "2", K::kAttr}, {"score_index", "1", K::kAttr},
      {"id_index", "0", K::kAttr}, {"return_indices", "True", K::kAttr},
      {"invalid_to_bottom", "False", K::kAttr}, {"soft_nms_sigma", "0.0", K::kAttr},
      {"score_threshold", "0.0", K::kAttr}},
     true, InferUnknown, "Non-max suppression of boxes."},
    {"relax.vision.roi_align", "vision.roi_align", nullptr,
     {{"data", nullptr, K::kTensor}, {"rois", nullptr, K::kTensor},
      {"pooled_size", nullptr, K::kAttr}, {"spatial_scale", nullptr, K::kAttr},
      {"sample_ratio", "-1", K::kAttr}, {"aligned", "False", K::kAttr},
      {"layout", "'NCHW'", K::kAttr}, {"mode", "'avg'", K::kAttr}},
     true, InferUnknown, "RoIAlign pooling of regions of interest."},
    {"relax.vision.roi_pool", "vision.roi_pool", nullptr,
     {{"data", nullptr, K::kTensor}, {"rois", nullptr, K::kTensor},
      {"pooled_size", nullptr, K::kAttr}, {"spatial_scale", nullptr, K::kAttr},
      {"layout", "'NCHW'", K::kAttr}},
     true, InferUnknown, "RoI max pooling of regions of interest."},
    {"relax.vm.alloc_storage", "vm.alloc_storage", nullptr,
     {{"shape", nullptr, K::kShape}, {"runtime_device_index", nullptr, K::kPrim},
      {"dtype", nullptr, K::kAny}, {"storage_scope", "'global'", K::kAny}},
     true, InferObject, "VM storage allocation of prod(shape) * sizeof(dtype) bytes."},
    {"relax.vm.alloc_tensor", "vm.alloc_tensor", nullptr,
     {{"storage", nullptr, K::kAny}, {"offset", nullptr, K::kPrim}, {"shape", nullptr, K::kShape},
      {"dtype", nullptr, K::kAny}, {"runtime_device_ind", "prim_value(0)", K::kPrim}},
     true, InferMemAllocTensor, "VM tensor creation inside a storage at a byte offset."},
    {"relax.vm.call_tir_dyn", "vm.call_tir_dyn", nullptr,
     {{"func", nullptr, K::kAny}, {"args", nullptr, K::kAny}},
     false, InferVoid, "VM call of a PrimFunc with a trailing shape argument; impure."},
    {"relax.vm.kill_object", "vm.kill_object", nullptr,
     {{"obj", nullptr, K::kAny}},
     false, InferVoid, "Clears a VM register; impure."},
    // Script-level helpers (not registered ops), relax_ops.md §6.
    {"script.call_packed", "call_packed", nullptr,
     {{"func", nullptr, K::kAny}, {"*args", nullptr, K::kAny},
      {"ty_args", "None", K::kAny, "sinfo_args", false, true}, {"**kwargs", nullptr, K::kAny}},
     false, InferCallPacked, "Calls a packed function by name; impure, result given by ty_args."},
    {"script.const", "const", nullptr, {{"value", nullptr, K::kAny}, {"dtype", "None", K::kAttr}},
     true, InferConst, "A constant tensor from a Python number or nested list."},
    {"script.shape", "shape", nullptr, {{"value", nullptr, K::kShape}}, true, InferShapeLiteral,
     "A Shape value from a list of integer expressions."},
    {"script.prim_value", "prim_value", nullptr, {{"value", nullptr, K::kPrim}}, true,
     InferPrimValue, "A primitive scalar value (int64 for ints, float64 for floats)."},
    {"script.str", "str", nullptr, {{"value", nullptr, K::kAttr}}, true, InferObject,
     "A string immediate."},
    {"script.dtype", "dtype", nullptr, {{"value", nullptr, K::kAttr}}, true, InferObject,
     "A data type immediate."},
    {"script.tuple", "tuple", nullptr, {{"*fields", nullptr, K::kAny}}, true, InferUnknown,
     "A tuple of Relax values."},
    {"script.linear", "linear", nullptr,
     {{"data", nullptr, K::kTensor}, {"weight", nullptr, K::kTensor}, {"bias", "None", K::kTensor},
      {"out_dtype", "None", K::kAttr}},
     true, InferLinear, "data @ weight.T (+ bias), built from matmul and permute_dims."},
    {"script.nn.relu6", "nn.relu6", nullptr, {{"data", nullptr, K::kTensor}}, true,
     InferUnaryArith, "ReLU clipped at 6 (clip(data, 0, 6))."},
    {"script.emit_te", "emit_te", nullptr,
     {{"func", nullptr, K::kAny}, {"*args", nullptr, K::kAny}, {"**kwargs", nullptr, K::kAny}},
     true, InferUnknown, "Emits a call_tir of a TE function built on the fly."},
  };
}
// clang-format on

// Rows' `infer` are trampolines that know their row, so that calling `op.infer(args, ctx)`
// directly applies the defaults exactly like ops::Infer; `raw` holds the functions of the table.
constexpr size_t kMaxOps = 256;

struct Tables {
  std::vector<OpInfo> ops = BuildTable();
  std::vector<InferFn> raw;
  std::vector<std::vector<Literal>> defaults;
  std::unordered_map<std::string_view, const OpInfo*> by_path;

  Tables();
};

const Tables& GetTables() {
  static const Tables tables;
  return tables;
}

template <size_t I>
InferResult WithDefaults(const std::vector<ArgValue>& args, const InferContext& ctx) {
  return Infer(GetTables().ops[I], args, ctx);
}

template <size_t... I>
std::array<InferFn, sizeof...(I)> MakeTrampolines(std::index_sequence<I...>) {
  return {&WithDefaults<I>...};
}

Tables::Tables() {
  static const std::array<InferFn, kMaxOps> trampolines =
      MakeTrampolines(std::make_index_sequence<kMaxOps>());
  if (ops.size() > kMaxOps) std::abort();  // raise kMaxOps with the table
  defaults.reserve(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    OpInfo& op = ops[i];
    std::vector<Literal> row;
    for (const Param& param : op.params) {
      row.push_back(param.default_text ? ParseLiteral(param.default_text) : Literal());
    }
    defaults.push_back(std::move(row));
    raw.push_back(op.infer ? op.infer : InferUnknown);
    op.infer = trampolines[i];
    if (op.script) by_path.emplace(op.script, &op);
    if (op.current_script) by_path.emplace(op.current_script, &op);
  }
}

}  // namespace

const std::vector<OpInfo>& AllOps() { return GetTables().ops; }

const OpInfo* FindOp(std::string_view path) {
  const auto& by_path = GetTables().by_path;
  auto it = by_path.find(path);
  return it == by_path.end() ? nullptr : it->second;
}

Literal DefaultOf(const OpInfo& op, size_t index) {
  const Tables& tables = GetTables();
  if (index >= op.params.size()) return Literal();
  const OpInfo* first = tables.ops.data();
  if (&op >= first && &op < first + tables.ops.size()) {
    return tables.defaults[static_cast<size_t>(&op - first)][index];
  }
  const char* text = op.params[index].default_text;
  return text ? ParseLiteral(text) : Literal();
}

// ---- Binding ------------------------------------------------------------------------------

namespace {

bool NameMatches(const Param& param, std::string_view keyword) {
  if (IsVarPositional(param) || IsVarKeyword(param)) return false;
  return keyword == param.name || (param.classic_name && keyword == param.classic_name);
}

}  // namespace

Binding BindArguments(const OpInfo& op, int positional, const std::vector<std::string>& keywords,
                      bool has_splat) {
  Binding binding;
  const size_t n = op.params.size();
  binding.arg_of_param.assign(n, -1);
  auto problem = [&](int arg, std::string message) {
    if (!has_splat) binding.problems.push_back({arg, std::move(message)});
  };

  // Positional arguments fill the parameters before the first `*args` / keyword-only one.
  size_t next = 0;
  int positional_capacity = 0;
  for (const Param& param : op.params) {
    if (IsVarPositional(param) || IsVarKeyword(param) || param.keyword_only) break;
    ++positional_capacity;
  }
  for (int arg = 0; arg < positional; ++arg) {
    while (next < n && IsVarKeyword(op.params[next])) ++next;
    if (next < n && IsVarPositional(op.params[next])) {
      if (binding.rest_args.empty()) binding.arg_of_param[next] = arg;
      binding.rest_args.push_back(arg);
      continue;
    }
    if (next >= n || op.params[next].keyword_only) {
      problem(arg, "takes " + std::to_string(positional_capacity) + " positional argument" +
                       (positional_capacity == 1 ? "" : "s") + " but " +
                       std::to_string(positional) + " were given");
      break;
    }
    binding.arg_of_param[next++] = arg;
  }

  int var_keyword = -1;
  for (size_t i = 0; i < n; ++i) {
    if (IsVarKeyword(op.params[i])) var_keyword = static_cast<int>(i);
  }
  for (size_t k = 0; k < keywords.size(); ++k) {
    int arg = positional + static_cast<int>(k);
    const std::string& keyword = keywords[k];
    int found = -1;
    for (size_t i = 0; i < n; ++i) {
      if (NameMatches(op.params[i], keyword)) {
        found = static_cast<int>(i);
        break;
      }
    }
    if (found < 0) {
      if (var_keyword >= 0) {
        if (binding.extra_keywords.empty()) binding.arg_of_param[var_keyword] = arg;
        binding.extra_keywords.push_back(arg);
      } else {
        problem(arg, "unexpected keyword argument '" + keyword + "'");
      }
      continue;
    }
    if (binding.arg_of_param[found] >= 0) {
      problem(arg, std::string("got multiple values for argument '") + op.params[found].name + "'");
      continue;
    }
    binding.arg_of_param[found] = arg;
  }

  for (size_t i = 0; i < n; ++i) {
    const Param& param = op.params[i];
    if (param.default_text || IsVarPositional(param) || IsVarKeyword(param)) continue;
    if (binding.arg_of_param[i] < 0) {
      problem(-1, std::string("missing required argument '") + param.name + "'");
    }
  }
  return binding;
}

std::string Signature(const OpInfo& op, bool current_era) {
  std::string out;
  if (op.script) {
    out = "R.";
    out += (current_era && op.current_script) ? op.current_script : op.script;
  } else {
    out = op.name;
  }
  out += "(";
  bool first = true;
  bool star_written = false;
  for (const Param& param : op.params) {
    if (current_era && param.classic_only) continue;
    if (!first) out += ", ";
    first = false;
    if (IsVarPositional(param)) star_written = true;
    if (param.keyword_only && !star_written) {
      out += "*, ";
      star_written = true;
    }
    out += (!current_era && param.classic_name) ? param.classic_name : param.name;
    if (param.default_text) {
      out += "=";
      out += param.default_text;
    }
  }
  out += ")";
  return out;
}

InferResult Infer(const OpInfo& op, std::vector<ArgValue> args, const InferContext& ctx) {
  if (args.size() < op.params.size()) args.resize(op.params.size());
  for (size_t i = 0; i < op.params.size(); ++i) {
    ArgValue& arg = args[i];
    if (!arg.present && arg.literal.kind == Literal::Kind::kOther) arg.literal = DefaultOf(op, i);
  }
  const Tables& tables = GetTables();
  const OpInfo* first = tables.ops.data();
  InferFn fn = op.infer;
  if (&op >= first && &op < first + tables.ops.size()) {
    fn = tables.raw[static_cast<size_t>(&op - first)];
  }
  if (!fn) return {StructInfo::Unknown(), {}};
  return fn(args, ctx);
}

}  // namespace tvmls::ops
