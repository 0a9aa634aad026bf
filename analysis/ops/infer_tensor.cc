// Inference of elementwise, creation, datatype, indexing, linear algebra and search ops
// (relax_ops.md §3, §5.1–§5.6, §5.9, §5.15).
#include <algorithm>
#include <cmath>

#include "ops/infer_common.h"
#include "vocab/dtype.h"

namespace tvmls::ops {

using arith::Expr;
using types::Kind;

namespace {

bool IsNonFloatDType(const std::string& dtype) {
  return !dtype.empty() && (dtype == "bool" || vocab::IsIntDType(dtype));
}

// §5.1: the input type itself (a shape var survives), optionally with a new dtype.
InferResult Unary(const std::vector<ArgValue>& args, const InferContext& ctx, bool float_required,
                  const char* out_dtype) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  if (float_required && IsNonFloatDType(x->dtype)) {
    call.Error(0, "requires a floating-point input, but got dtype " + x->dtype + " (" +
                      call.Describe(0) + ")");
  }
  StructInfo out = *x;
  if (out_dtype) out.dtype = out_dtype;
  return call.Done(out);
}

const char* BinaryName(size_t i) { return i == 0 ? "x1" : "x2"; }

// §3.1–§3.3.
InferResult Binary(const std::vector<ArgValue>& args, const InferContext& ctx, bool compare) {
  Call call(args, ctx);
  const StructInfo& lhs = call.Info(0);
  const StructInfo& rhs = call.Info(1);
  for (size_t i = 0; i < 2; ++i) {
    Kind kind = call.Info(i).kind;
    if (kind != Kind::kUnknown && kind != Kind::kTensor && kind != Kind::kPrim) {
      call.Error(static_cast<int>(i), std::string(BinaryName(i)) +
                                          " must be an R.Tensor or R.Prim, but got " +
                                          call.Describe(i));
    }
  }
  if (call.HasErrors() || lhs.IsUnknown() || rhs.IsUnknown()) return call.Unknown();

  std::string dtype = "bool";
  if (!compare) {
    auto d = ArithDType(call, 1, lhs.dtype, rhs.dtype, "a binary operator");
    if (!d) return call.Unknown();
    dtype = *d;
  }
  if (lhs.kind == Kind::kPrim && rhs.kind == Kind::kPrim) {
    return call.Done(StructInfo::Prim(dtype));
  }
  auto vdevice = BinaryVDevice(call, 1, lhs.kind == Kind::kTensor ? lhs.vdevice : "",
                               rhs.kind == Kind::kTensor ? rhs.vdevice : "");
  if (!vdevice) return call.Unknown();

  auto ndim_of = [](const StructInfo& s) { return s.kind == Kind::kPrim ? 1 : s.ndim; };
  int ndim = (ndim_of(lhs) < 0 || ndim_of(rhs) < 0) ? -1 : std::max(ndim_of(lhs), ndim_of(rhs));
  auto shape_of = [](const StructInfo& s) -> std::optional<std::vector<Expr>> {
    if (s.kind == Kind::kPrim) return std::vector<Expr>{Expr(1)};
    return s.values;
  };
  auto ls = shape_of(lhs), rs = shape_of(rhs);
  if (ls && rs) {
    Broadcast b = BroadcastShapes(call, *ls, *rs);
    if (b.status == Broadcast::Status::kConflict) {
      call.Error(1, b.conflict + " (x1: " + call.Describe(0) + ", x2: " + call.Describe(1) + ")");
      return call.Unknown();
    }
    if (b.status == Broadcast::Status::kOk)
      return call.Done(MakeTensor(b.dims, -1, dtype, *vdevice));
  }
  if (lhs.kind == Kind::kTensor && rhs.kind == Kind::kTensor && !lhs.shape_var.empty() &&
      lhs.shape_var == rhs.shape_var) {
    StructInfo out = MakeTensor(std::nullopt, lhs.ndim, dtype, *vdevice);
    out.shape_var = lhs.shape_var;
    return call.Done(out);
  }
  return call.Done(MakeTensor(std::nullopt, ndim, dtype, *vdevice));
}

// A PrimExpr-kind argument: a literal number or expression, or an R.Prim value.
struct PrimArg {
  bool known = false;
  bool is_int = false;
  std::optional<Expr> expr;    // integer value (possibly symbolic)
  std::optional<double> real;  // float value
};

PrimArg GetPrimArg(const Call& call, size_t i) {
  PrimArg out;
  const ArgValue& arg = call.Arg(i);
  const Literal& lit = arg.literal;
  if (lit.kind == Literal::Kind::kInt || lit.kind == Literal::Kind::kExpr) {
    out.known = true;
    out.is_int = true;
    out.expr = lit.AsExpr();
  } else if (lit.kind == Literal::Kind::kFloat) {
    out.known = true;
    out.real = lit.float_value;
  } else if (arg.info.kind == Kind::kPrim && !arg.info.dtype.empty()) {
    out.known = true;
    out.is_int = vocab::IsIntDType(arg.info.dtype);
    if (out.is_int) out.expr = arg.info.prim_value;
  }
  return out;
}

}  // namespace

InferResult InferUnknown(const OpInfo&, const std::vector<ArgValue>&, const InferContext&) {
  return {StructInfo::Unknown(), {}};
}

InferResult InferUnaryArith(const OpInfo&, const std::vector<ArgValue>& args,
                            const InferContext& ctx) {
  return Unary(args, ctx, false, nullptr);
}

InferResult InferUnaryFloat(const OpInfo&, const std::vector<ArgValue>& args,
                            const InferContext& ctx) {
  return Unary(args, ctx, true, nullptr);
}

InferResult InferUnaryBool(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  return Unary(args, ctx, false, "bool");
}

InferResult InferIdentity(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  Call call(args, ctx);
  return call.Done(call.Info(0));
}

InferResult InferSecondArg(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  return call.Done(call.Info(1));
}

InferResult InferToVDevice(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  StructInfo out = *x;
  out.vdevice = call.Lit(1).AsString().value_or("");
  return call.Done(out);
}

InferResult InferBinaryArith(const OpInfo&, const std::vector<ArgValue>& args,
                             const InferContext& ctx) {
  return Binary(args, ctx, false);
}

InferResult InferBinaryCompare(const OpInfo&, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  return Binary(args, ctx, true);
}

// §5.2: no broadcasting; dims must be provably equal.
InferResult InferEwiseFma(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x[3] = {call.Tensor(0), call.Tensor(1), call.Tensor(2)};
  if (!x[0] || !x[1] || !x[2]) return call.Unknown();
  std::string dtype = x[0]->dtype;
  for (int i = 1; i < 3; ++i) {
    if (x[i]->dtype.empty() || dtype.empty()) {
      dtype.clear();
    } else if (x[i]->dtype != dtype) {
      call.Error(i, "ewise_fma requires all inputs to have the same dtype, but got " + dtype +
                        " and " + x[i]->dtype);
      return call.Unknown();
    }
  }
  int ndim = x[0]->ndim;
  for (int i = 1; i < 3; ++i) {
    if (ndim >= 0 && x[i]->ndim >= 0 && x[i]->ndim != ndim) {
      call.Error(i, "ewise_fma requires all inputs to have the same ndim, but got " +
                        std::to_string(ndim) + " and " + std::to_string(x[i]->ndim));
      return call.Unknown();
    }
    if (ndim < 0) ndim = x[i]->ndim;
  }
  if (x[0]->values && x[1]->values && x[2]->values) {
    for (int i = 1; i < 3; ++i) {
      for (size_t d = 0; d < x[0]->values->size(); ++d) {
        if (!ProvablyEqual(call, (*x[0]->values)[d], (*x[i]->values)[d])) {
          call.Error(i, "ewise_fma requires provably equal shapes, but dim " + std::to_string(d) +
                            " is " + (*x[0]->values)[d].ToString() + " vs " +
                            (*x[i]->values)[d].ToString());
          return call.Unknown();
        }
      }
    }
    return call.Done(MakeTensor(x[0]->values, -1, dtype, x[0]->vdevice));
  }
  return call.Done(MakeTensor(std::nullopt, ndim, dtype, x[0]->vdevice));
}

// ---- Creation (§5.3) ----------------------------------------------------------------------

InferResult InferFull(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  auto shape = GetShapeArg(call, 0);
  const StructInfo* fill = call.Tensor(1, "fill_value");
  if (fill && fill->ndim != 0) {
    call.Error(1, "fill_value must be a 0-d tensor, but got " + call.Describe(1));
  }
  if (!shape || !fill) return call.Unknown();
  std::string dtype = DTypeAttr(call.Lit(2)).value_or(fill->dtype);
  return call.Done(ShapedTensor(*shape, dtype, fill->vdevice));
}

InferResult InferFullLike(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  const StructInfo* fill = call.Tensor(1, "fill_value");
  if (fill && fill->ndim != 0) {
    call.Error(1, "fill_value must be a 0-d tensor, but got " + call.Describe(1));
  }
  if (!x || !fill) return call.Unknown();
  StructInfo out = *x;
  if (auto dtype = DTypeAttr(call.Lit(2))) out.dtype = *dtype;
  return call.Done(out);
}

InferResult InferZerosOnes(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  auto shape = GetShapeArg(call, 0);
  if (!shape) return call.Unknown();
  return call.Done(ShapedTensor(*shape, DTypeAttr(call.Lit(1)).value_or("")));
}

InferResult InferZerosOnesLike(const OpInfo&, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  StructInfo out = *x;
  if (auto dtype = DTypeAttr(call.Lit(1))) out.dtype = *dtype;
  return call.Done(out);
}

InferResult InferArange(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  PrimArg start = GetPrimArg(call, 0), end = GetPrimArg(call, 1), step = GetPrimArg(call, 2);
  // `R.arange(n)` is arange(0, n).
  if (call.Lit(1).IsNone()) {
    end = start;
    start = PrimArg{true, true, Expr(0), std::nullopt};
  }
  auto dtype_attr = DTypeAttr(call.Lit(3));
  bool all_int = start.is_int && end.is_int && step.is_int;
  if (!start.known || !end.known || !step.known) {
    // The default dtype needs every argument's type.
    return call.Done(MakeTensor(std::nullopt, 1, dtype_attr.value_or("")));
  }
  std::string dtype = dtype_attr.value_or(all_int ? "int64" : "float32");
  std::optional<Expr> length;
  if (all_int && start.expr && end.expr && step.expr) {
    if (auto c = step.expr->AsConst(); c && *c == 0) {
      call.Error(2, "arange step must not be zero");
      return call.Unknown();
    }
    length = Expr::FloorDiv(*end.expr - *start.expr + *step.expr - 1, *step.expr);
  } else if (!all_int) {
    auto value = [](const PrimArg& p) -> std::optional<double> {
      if (p.real) return p.real;
      if (p.expr) {
        if (auto c = p.expr->AsConst()) return static_cast<double>(*c);
      }
      return std::nullopt;
    };
    auto s = value(start), e = value(end), st = value(step);
    if (s && e && st && *st != 0) {
      double n = std::ceil(static_cast<double>(static_cast<float>(*e - *s)) / *st);
      if (std::isfinite(n) && std::fabs(n) < 1e15) length = Expr(static_cast<int64_t>(n));
    }
  }
  if (!length || length->IsOverflow()) return call.Done(MakeTensor(std::nullopt, 1, dtype));
  return call.Done(MakeTensor(std::vector<Expr>{*length}, -1, dtype));
}

InferResult InferEye(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  PrimArg n = GetPrimArg(call, 0);
  PrimArg m = call.Lit(1).IsNone() ? n : GetPrimArg(call, 1);
  std::string dtype = DTypeAttr(call.Lit(3)).value_or("");
  if (!n.expr || !m.expr) return call.Done(MakeTensor(std::nullopt, 2, dtype));
  return call.Done(MakeTensor(std::vector<Expr>{*n.expr, *m.expr}, -1, dtype));
}

InferResult InferEyeLike(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  if (x->ndim != 2 && x->ndim != -1) {
    call.Error(0, "eye_like expects a 2-d tensor, but got " + call.Describe(0));
    return call.Unknown();
  }
  StructInfo out = *x;
  if (auto dtype = DTypeAttr(call.Lit(2))) out.dtype = *dtype;
  return call.Done(out);
}

InferResult InferTrilTriu(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  if (x->ndim >= 0 && x->ndim < 2) {
    call.Error(0, "requires a tensor of at least 2 dims, but got " + call.Describe(0));
    return call.Unknown();
  }
  return call.Done(*x);
}

InferResult InferHammingWindow(const OpInfo&, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  Call call(args, ctx);
  auto dtype = DTypeAttr(call.Lit(4));
  if (dtype && IsNonFloatDType(*dtype)) {
    call.Error(4, "hamming_window requires a float dtype, but got " + *dtype);
    return call.Unknown();
  }
  PrimArg size = GetPrimArg(call, 0);
  if (!size.expr) return call.Done(MakeTensor(std::nullopt, 1, dtype.value_or("")));
  return call.Done(MakeTensor(std::vector<Expr>{*size.expr}, -1, dtype.value_or("")));
}

// ---- Datatype (§5.4) ----------------------------------------------------------------------

InferResult InferAstype(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  StructInfo out = *x;
  out.dtype = DTypeAttr(call.Lit(1)).value_or("");
  return call.Done(out);
}

// ---- Indexing (§5.5) ----------------------------------------------------------------------

InferResult InferTake(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  const StructInfo& idx_info = call.Info(1);
  StructInfo indices;
  if (idx_info.kind == Kind::kTensor) {
    indices = idx_info;
  } else if (idx_info.kind == Kind::kPrim) {
    indices = StructInfo::Tensor({}, idx_info.dtype);
  } else if (idx_info.kind != Kind::kUnknown) {
    call.Error(1, "indices must be a tensor or a scalar value, but got " + call.Describe(1));
  }
  if (!x || indices.IsUnknown()) return call.Unknown();
  if (!indices.dtype.empty() && !vocab::IsIntDType(indices.dtype)) {
    call.Error(1, "indices must have an integer dtype, but got " + indices.dtype);
    return call.Unknown();
  }
  const Literal& axis_lit = call.Lit(2);
  bool axis_none = axis_lit.IsNone();
  if (axis_none && x->ndim != 1) {
    call.Error(0, "take without an axis requires a 1-d tensor, but got " + call.Describe(0));
    return call.Unknown();
  }
  if (x->ndim < 0 || indices.ndim < 0)
    return call.Done(MakeTensor(std::nullopt, -1, x->dtype, x->vdevice));
  int axis = 0;
  if (!axis_none) {
    auto a = SmallInt(axis_lit);
    if (!a)
      return call.Done(MakeTensor(std::nullopt, indices.ndim + x->ndim - 1, x->dtype, x->vdevice));
    auto n = NormalizeAxis(call, 2, x->ndim, *a);
    if (!n) return call.Unknown();
    axis = *n;
  }
  if (!x->values || !indices.values) {
    return call.Done(MakeTensor(std::nullopt, indices.ndim + x->ndim - 1, x->dtype, x->vdevice));
  }
  std::vector<Expr> out;
  for (int i = 0; i < x->ndim; ++i) {
    if (i == axis) {
      out.insert(out.end(), indices.values->begin(), indices.values->end());
    } else {
      out.push_back((*x->values)[static_cast<size_t>(i)]);
    }
  }
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

namespace {

// Length of x[begin:end:stride] over a dim of constant extent d (Python slice semantics with
// TVM's clamping).
int64_t SliceLength(int64_t d, int64_t begin, int64_t end, int64_t stride) {
  auto canon = [&](int64_t v) {
    if (v < 0) v += d;
    if (stride > 0) return std::clamp<int64_t>(v, 0, d);
    return std::clamp<int64_t>(v, -1, d - 1);
  };
  int64_t b = canon(begin), e = canon(end);
  int64_t len = stride > 0 ? (e - b + stride - 1) / stride : (b - e + (-stride) - 1) / (-stride);
  return std::max<int64_t>(len, 0);
}

}  // namespace

InferResult InferStridedSlice(const OpInfo&, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto axes = SmallIntList(call.Lit(1), false);
  auto begin = call.Lit(2).AsExprList();
  auto end = call.Lit(3).AsExprList();
  std::optional<std::vector<Expr>> strides;
  if (!call.Lit(4).IsNone()) strides = call.Lit(4).AsExprList();
  StructInfo fallback = MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice);
  if (!axes || !begin || !end || (!call.Lit(4).IsNone() && !strides)) return call.Done(fallback);
  size_t n = axes->size();
  if (begin->size() != n || end->size() != n || (strides && strides->size() != n)) {
    call.Error(2, "axes, begin, end and strides must have the same length, but got " +
                      std::to_string(n) + ", " + std::to_string(begin->size()) + ", " +
                      std::to_string(end->size()) +
                      (strides ? ", " + std::to_string(strides->size()) : std::string()));
    return call.Unknown();
  }
  if (x->ndim < 0) return call.Done(fallback);
  auto norm = NormalizeAxes(call, 1, x->ndim, *axes);
  if (!norm) return call.Unknown();
  if (!x->values) return call.Done(fallback);
  bool inbound = call.Lit(5).kind == Literal::Kind::kBool && call.Lit(5).bool_value;
  std::vector<Expr> out = *x->values;
  for (size_t i = 0; i < n; ++i) {
    Expr dim = out[static_cast<size_t>((*norm)[i])];
    Expr stride = strides ? (*strides)[i] : Expr(1);
    auto cs = stride.AsConst();
    if (cs && *cs == 0) {
      call.Error(4, "strided_slice strides must not be zero");
      return call.Unknown();
    }
    auto cd = dim.AsConst(), cb = (*begin)[i].AsConst(), ce = (*end)[i].AsConst();
    if (cd && cb && ce && cs && *cd >= 0 && *cd < (int64_t{1} << 40)) {
      // Clamp huge literal ends (sys.maxsize) before the arithmetic.
      int64_t limit = int64_t{1} << 41;
      int64_t b = std::clamp<int64_t>(*cb, -limit, limit),
              e = std::clamp<int64_t>(*ce, -limit, limit);
      int64_t s = std::clamp<int64_t>(*cs, -limit, limit);
      out[static_cast<size_t>((*norm)[i])] = SliceLength(*cd, b, e, s);
    } else if (inbound && cs && *cs > 0) {
      out[static_cast<size_t>((*norm)[i])] = CeilDiv((*end)[i] - (*begin)[i], stride);
    } else {
      return call.Done(fallback);
    }
  }
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

InferResult InferDynamicStridedSlice(const OpInfo&, const std::vector<ArgValue>& args,
                                     const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  const StructInfo* parts[3] = {call.Tensor(1), call.Tensor(2), call.Tensor(3)};
  if (!x || call.HasErrors()) return call.Unknown();
  // InferTypeDynStridedSlice: with a known data rank, begin/end/strides are 1-d int64 tensors of
  // exactly that many values. Only what is known is compared.
  const char* names[3] = {"begin", "end", "strides"};
  for (int i = 0; i < 3 && x->ndim >= 0; ++i) {
    const StructInfo* t = parts[i];
    if (t == nullptr) continue;
    std::string what = std::string("dynamic_strided_slice ") + names[i];
    if (t->ndim >= 0 && t->ndim != 1) {
      call.Error(i + 1, what + " must be a 1-d tensor, but got " + call.Describe(static_cast<size_t>(i + 1)));
    } else if (auto len = t->values ? (*t->values)[0].AsConst() : std::nullopt; len && *len != x->ndim) {
      call.Error(i + 1, what + " has " + std::to_string(*len) + " values, but the data has " +
                            std::to_string(x->ndim) + " axes");
    } else if (!t->dtype.empty() && t->dtype != "int64") {
      call.Error(i + 1, what + " must be int64, but got " + t->dtype);
    }
  }
  if (call.HasErrors()) return call.Unknown();
  return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice));
}

// ---- Linear algebra (§5.6) ----------------------------------------------------------------

namespace {

// numpy matmul of two tensor infos; `p1`/`p2` are the parameters blamed for errors.
std::optional<StructInfo> Matmul(Call& call, const StructInfo& x1, const StructInfo& x2, int p2,
                                 const std::optional<std::string>& out_dtype) {
  std::string dtype;
  if (out_dtype) {
    dtype = *out_dtype;
  } else {
    auto d = ArithDType(call, p2, x1.dtype, x2.dtype, "matmul");
    if (!d) return std::nullopt;
    dtype = *d;
  }
  std::string vdevice = x1.vdevice.empty()                                 ? x2.vdevice
                        : (x2.vdevice.empty() || x2.vdevice == x1.vdevice) ? x1.vdevice
                                                                           : "";
  if (x1.ndim < 0 || x2.ndim < 0) return MakeTensor(std::nullopt, -1, dtype, vdevice);
  if (x1.ndim == 0 || x2.ndim == 0) {
    call.Error(x1.ndim == 0 ? 0 : p2, "matmul does not accept 0-d operands (x1: " +
                                          types::Print(x1) + ", x2: " + types::Print(x2) + ")");
    return std::nullopt;
  }
  bool prepend = x1.ndim == 1, append = x2.ndim == 1;
  int nd1 = prepend ? 2 : x1.ndim, nd2 = append ? 2 : x2.ndim;
  int out_ndim = std::max(nd1, nd2) - (prepend ? 1 : 0) - (append ? 1 : 0);
  if (!x1.values || !x2.values) return MakeTensor(std::nullopt, out_ndim, dtype, vdevice);
  std::vector<Expr> s1 = *x1.values, s2 = *x2.values;
  if (prepend) s1.insert(s1.begin(), Expr(1));
  if (append) s2.push_back(Expr(1));
  Expr k1 = s1[s1.size() - 1], k2 = s2[s2.size() - 2];
  if (ProvablyDifferent(call, k1, k2)) {
    call.Error(p2, "reduction dims " + k1.ToString() + " and " + k2.ToString() +
                       " of matmul differ (x1: " + types::Print(x1) + ", x2: " + types::Print(x2) +
                       ")");
    return std::nullopt;
  }
  std::vector<Expr> b1(s1.begin(), s1.end() - 2), b2(s2.begin(), s2.end() - 2);
  Broadcast b = BroadcastShapes(call, b1, b2);
  if (b.status == Broadcast::Status::kConflict) {
    call.Error(p2, "batch " + b.conflict + " (x1: " + types::Print(x1) +
                       ", x2: " + types::Print(x2) + ")");
    return std::nullopt;
  }
  if (b.status == Broadcast::Status::kUnknown) {
    return MakeTensor(std::nullopt, out_ndim, dtype, vdevice);
  }
  std::vector<Expr> out = b.dims;
  if (!prepend) out.push_back(s1[s1.size() - 2]);
  if (!append) out.push_back(s2[s2.size() - 1]);
  return MakeTensor(out, -1, dtype, vdevice);
}

}  // namespace

InferResult InferMatmul(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x1 = call.Tensor(0, "x1");
  const StructInfo* x2 = call.Tensor(1, "x2");
  if (!x1 || !x2) return call.Unknown();
  auto out = Matmul(call, *x1, *x2, 1, DTypeAttr(call.Lit(2)));
  if (!out) return call.Unknown();
  return call.Done(*out);
}

// R.linear(data, weight, bias, out_dtype) = matmul(data, permute_dims(weight)) (+ bias).
InferResult InferLinear(const OpInfo& op, const std::vector<ArgValue>& args,
                        const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* weight = call.Tensor(1, "weight");
  if (!data || !weight) return call.Unknown();
  StructInfo wt = *weight;
  wt.shape_var.clear();
  if (wt.values) std::reverse(wt.values->begin(), wt.values->end());
  auto out = Matmul(call, *data, wt, 1, DTypeAttr(call.Lit(3)));
  if (!out) return call.Unknown();
  const StructInfo& bias = call.Info(2);
  if (bias.kind != Kind::kTensor) {
    if (call.Arg(2).present && !call.Lit(2).IsNone())
      return call.Done(MakeTensor(std::nullopt, -1, ""));
    return call.Done(*out);
  }
  std::vector<ArgValue> sum_args(2);
  sum_args[0].info = *out;
  sum_args[1].info = bias;
  InferContext sub;
  sub.facts = &call.Facts();
  InferResult r = InferBinaryArith(op, sum_args, sub);  // reads no row data
  for (InferError& e : r.errors) call.Error(2, e.message);
  return call.Done(r.info);
}

InferResult InferOuter(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x1 = call.Tensor(0, "x1");
  const StructInfo* x2 = call.Tensor(1, "x2");
  if (!x1 || !x2) return call.Unknown();
  for (int i = 0; i < 2; ++i) {
    const StructInfo* x = i == 0 ? x1 : x2;
    if (x->ndim >= 0 && x->ndim != 1) {
      call.Error(i, "outer requires 1-d tensors, but got " + call.Describe(static_cast<size_t>(i)));
    }
  }
  if (call.HasErrors()) return call.Unknown();
  if (x1->values && x2->values) {
    return call.Done(
        MakeTensor(std::vector<Expr>{(*x1->values)[0], (*x2->values)[0]}, -1, x1->dtype));
  }
  return call.Done(MakeTensor(std::nullopt, 2, x1->dtype));
}

// ---- Search and sorting (§5.9) ------------------------------------------------------------

InferResult InferWhere(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* cond = call.Tensor(0, "condition");
  const StructInfo* x1 = call.Tensor(1, "x1");
  const StructInfo* x2 = call.Tensor(2, "x2");
  if (!cond || !x1 || !x2) return call.Unknown();
  if (!cond->dtype.empty() && cond->dtype != "bool") {
    call.Error(0, "condition must have dtype bool, but got " + cond->dtype);
    return call.Unknown();
  }
  auto dtype = ArithDType(call, 2, x1->dtype, x2->dtype, "where");
  if (!dtype) return call.Unknown();
  std::string vdevice = !cond->vdevice.empty() ? cond->vdevice
                        : !x1->vdevice.empty() ? x1->vdevice
                                               : x2->vdevice;
  int ndim = (cond->ndim < 0 || x1->ndim < 0 || x2->ndim < 0)
                 ? -1
                 : std::max({cond->ndim, x1->ndim, x2->ndim});
  if (cond->values && x1->values && x2->values) {
    Broadcast b = BroadcastShapes(call, *x1->values, *x2->values);
    if (b.status == Broadcast::Status::kConflict) {
      call.Error(2, b.conflict + " (x1: " + call.Describe(1) + ", x2: " + call.Describe(2) + ")");
      return call.Unknown();
    }
    if (b.status == Broadcast::Status::kOk) {
      Broadcast c = BroadcastShapes(call, *cond->values, b.dims);
      if (c.status == Broadcast::Status::kConflict) {
        call.Error(0, c.conflict + " (condition: " + call.Describe(0) +
                          ", values: " + DimsText(b.dims) + ")");
        return call.Unknown();
      }
      if (c.status == Broadcast::Status::kOk)
        return call.Done(MakeTensor(c.dims, -1, *dtype, vdevice));
    }
  }
  return call.Done(MakeTensor(std::nullopt, ndim, *dtype, vdevice));
}

InferResult InferBucketize(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "input_tensor");
  const StructInfo* boundaries = call.Tensor(1, "boundaries");
  if (!x || !boundaries) return call.Unknown();
  if (boundaries->ndim >= 0 && boundaries->ndim != 1) {
    call.Error(1, "boundaries must be a 1-d tensor, but got " + call.Describe(1));
    return call.Unknown();
  }
  bool out_int32 = call.Lit(2).kind == Literal::Kind::kBool && call.Lit(2).bool_value;
  StructInfo out = *x;
  out.dtype = out_int32 ? "int32" : "int64";
  return call.Done(out);
}

InferResult InferArgsort(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  StructInfo out = *x;
  out.dtype = DTypeAttr(call.Lit(3)).value_or("");
  return call.Done(out);
}

InferResult InferSort(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  return call.Done(*x);
}

InferResult InferTopk(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto k = SmallInt(call.Lit(1));
  auto axis = SmallInt(call.Lit(2));
  auto ret_type = call.Lit(3).AsString();
  std::string index_dtype = DTypeAttr(call.Lit(5)).value_or("");
  StructInfo values = MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice);
  if (x->values && k && axis && *axis >= -x->ndim && *axis < x->ndim) {
    std::vector<Expr> dims = *x->values;
    size_t a = static_cast<size_t>(*axis < 0 ? *axis + x->ndim : *axis);
    auto d = dims[a].AsConst();
    if (*k > 0 && (!d || *k < *d)) dims[a] = *k;
    values = MakeTensor(dims, -1, x->dtype, x->vdevice);
  }
  StructInfo indices = values;
  indices.dtype = index_dtype;
  if (!ret_type) return call.Unknown();
  if (*ret_type == "both") return call.Done(StructInfo::Tuple({values, indices}));
  if (*ret_type == "values") return call.Done(values);
  if (*ret_type == "indices") return call.Done(indices);
  call.Error(3,
             "ret_type must be \"both\", \"values\" or \"indices\", but got \"" + *ret_type + "\"");
  return call.Unknown();
}

InferResult InferNonzero(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  return call.Done(MakeTensor(std::nullopt, 2, "int64", x->vdevice));
}

// ---- Inspect (§5.15) ----------------------------------------------------------------------

InferResult InferInspect(const OpInfo& op, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  call.Tensor(0);
  if (!op.result_dtype) return call.Unknown();
  return call.Done(StructInfo::Prim(op.result_dtype));
}

}  // namespace tvmls::ops
