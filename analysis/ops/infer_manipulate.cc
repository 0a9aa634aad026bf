// Inference of manipulation, reduction and statistical ops, and the shape-changing CCL ops
// (relax_ops.md §5.7, §5.8, §5.14).
#include <algorithm>

#include "ops/infer_common.h"

namespace tvmls::ops {

using arith::Expr;
using types::Kind;

namespace {

// Tuples and split section counts above this are not expanded (they would only cost memory).
constexpr int64_t kMaxParts = 4096;

// The tensors of a tuple-of-tensors argument; nullopt when unknown (silent) or wrong (error).
std::optional<std::vector<StructInfo>> TensorTuple(Call& call, size_t param) {
  const StructInfo& info = call.Info(param);
  if (info.kind == Kind::kUnknown) return std::nullopt;
  if (info.kind != Kind::kTuple) {
    call.Error(static_cast<int>(param),
               "expects a tuple of tensors, but got " + call.Describe(param));
    return std::nullopt;
  }
  for (const StructInfo& field : info.fields) {
    if (field.kind == Kind::kUnknown) return std::nullopt;
    if (field.kind != Kind::kTensor) {
      call.Error(static_cast<int>(param),
                 "expects a tuple of tensors, but a field is " + types::Print(field));
      return std::nullopt;
    }
  }
  return info.fields;
}

std::string Joined(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out;
}

}  // namespace

InferResult InferBroadcastTo(const OpInfo&, const std::vector<ArgValue>& args,
                             const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  auto target = GetShapeArg(call, 1);
  if (!x || !target) return call.Unknown();
  if (x->ndim >= 0 && target->ndim >= 0 && target->ndim < x->ndim) {
    call.Error(1, "target shape has " + std::to_string(target->ndim) +
                      " dims, fewer than the input's " + std::to_string(x->ndim) +
                      " (x: " + call.Describe(0) + ")");
    return call.Unknown();
  }
  if (x->values && target->dims) {
    const auto& in = *x->values;
    const auto& out = *target->dims;
    for (size_t i = 0; i < in.size(); ++i) {
      const Expr& d = in[in.size() - 1 - i];
      const Expr& t = out[out.size() - 1 - i];
      auto c = d.AsConst();
      if (c && *c == 1) continue;
      if (ProvablyDifferent(call, d, t)) {
        call.Error(1, "input dim " + d.ToString() + " cannot be broadcast to " + t.ToString() +
                          " (x: " + call.Describe(0) + ", shape: " + DimsText(out) + ")");
        return call.Unknown();
      }
    }
  }
  return call.Done(ShapedTensor(*target, x->dtype, x->vdevice));
}

InferResult InferConcat(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  auto tensors = TensorTuple(call, 0);
  if (!tensors) return call.Unknown();
  if (tensors->empty()) {
    call.Error(0, "concat requires at least one tensor");
    return call.Unknown();
  }
  const Literal& axis_lit = call.Lit(1);
  bool axis_none = axis_lit.IsNone();
  std::optional<int64_t> axis_value;
  if (!axis_none) {
    axis_value = SmallInt(axis_lit);
    if (!axis_value) return call.Unknown();
  }
  int ndim = axis_none ? 1 : -1;
  std::string dtype;
  bool dtype_unknown = false;
  std::string vdevice;
  for (const StructInfo& t : *tensors) {
    if (t.dtype.empty()) {
      dtype_unknown = true;
    } else if (dtype.empty()) {
      dtype = t.dtype;
    } else if (t.dtype != dtype) {
      call.Error(0, "concat requires tensors of one dtype, but got " + dtype + " and " + t.dtype);
      return call.Unknown();
    }
    if (ndim < 0) {
      ndim = t.ndim;
    } else if (t.ndim >= 0 && t.ndim != ndim) {
      call.Error(0, "concat requires tensors of one ndim, but got " + std::to_string(ndim) +
                        " and " + std::to_string(t.ndim));
      return call.Unknown();
    }
    if (vdevice.empty()) vdevice = t.vdevice;
  }
  if (dtype_unknown) dtype.clear();
  if (ndim < 0) {
    return call.Done(tensors->size() == 1 ? (*tensors)[0]
                                          : MakeTensor(std::nullopt, -1, dtype, vdevice));
  }
  int axis = 0;
  if (!axis_none) {
    auto a = NormalizeAxis(call, 1, ndim, *axis_value);
    if (!a) return call.Unknown();
    axis = *a;
  }
  if (tensors->size() == 1) return call.Done((*tensors)[0]);
  bool shape_unknown = false;
  std::vector<std::vector<Expr>> shapes;
  for (const StructInfo& t : *tensors) {
    if (t.values && static_cast<int>(t.values->size()) == ndim) {
      shapes.push_back(*t.values);
    } else {
      shape_unknown = true;
    }
  }
  if (shapes.empty()) return call.Done(MakeTensor(std::nullopt, ndim, dtype, vdevice));
  size_t a = static_cast<size_t>(axis);
  for (int d = 0; d < ndim; ++d) {
    if (d == axis) continue;
    size_t k = static_cast<size_t>(d);
    for (size_t i = 1; i < shapes.size(); ++i) {
      if (ProvablyDifferent(call, shapes[i][k], shapes[0][k])) {
        call.Error(0, "concat inputs differ on dim " + std::to_string(d) + " (not the axis): " +
                          shapes[0][k].ToString() + " and " + shapes[i][k].ToString());
        return call.Unknown();
      }
      if (!ProvablyEqual(call, shapes[i][k], shapes[0][k])) shape_unknown = true;
    }
  }
  if (shape_unknown) return call.Done(MakeTensor(std::nullopt, ndim, dtype, vdevice));
  Expr sum = 0;
  for (const auto& s : shapes) sum = sum + s[a];
  std::vector<Expr> out = shapes[0];
  out[a] = sum;
  return call.Done(MakeTensor(out, -1, dtype, vdevice));
}

InferResult InferExpandDims(const OpInfo&, const std::vector<ArgValue>& args,
                            const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto axes = SmallIntList(call.Lit(1), true);
  if (!axes || x->ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, x->dtype, x->vdevice));
  if (axes->empty()) return call.Done(*x);
  int rank = x->ndim + static_cast<int>(axes->size());
  auto norm = NormalizeAxes(call, 1, rank, *axes);
  if (!norm) return call.Unknown();
  if (!x->values) return call.Done(MakeTensor(std::nullopt, rank, x->dtype, x->vdevice));
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int a : *norm) inserted[static_cast<size_t>(a)] = true;
  std::vector<Expr> out;
  size_t next = 0;
  for (int i = 0; i < rank; ++i) {
    out.push_back(inserted[static_cast<size_t>(i)] ? Expr(1) : (*x->values)[next++]);
  }
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

InferResult InferFlatten(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  if (x->ndim == 1) return call.Done(*x);
  if (x->ndim == 0) return call.Done(MakeTensor(std::vector<Expr>{1}, -1, x->dtype, x->vdevice));
  if (!x->values) return call.Done(MakeTensor(std::nullopt, 1, x->dtype, x->vdevice));
  return call.Done(MakeTensor(std::vector<Expr>{Product(*x->values)}, -1, x->dtype, x->vdevice));
}

InferResult InferPermuteDims(const OpInfo&, const std::vector<ArgValue>& args,
                             const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  const Literal& axes_lit = call.Lit(1);
  std::optional<std::vector<int64_t>> axes;
  if (!axes_lit.IsNone()) {
    axes = SmallIntList(axes_lit, false);
    if (!axes) return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice));
  }
  if (x->ndim < 0) {
    return call.Done(
        MakeTensor(std::nullopt, axes ? static_cast<int>(axes->size()) : -1, x->dtype, x->vdevice));
  }
  std::vector<int> order;
  if (axes) {
    if (static_cast<int>(axes->size()) != x->ndim) {
      call.Error(1, "permute_dims needs " + std::to_string(x->ndim) + " axes, but got " +
                        std::to_string(axes->size()) + " (x: " + call.Describe(0) + ")");
      return call.Unknown();
    }
    auto norm = NormalizeAxes(call, 1, x->ndim, *axes);
    if (!norm) return call.Unknown();
    order = *norm;
  } else {
    for (int i = x->ndim - 1; i >= 0; --i) order.push_back(i);
  }
  bool identity = true;
  for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == static_cast<int>(i);
  if (identity) return call.Done(*x);
  if (!x->values) return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice));
  std::vector<Expr> out;
  for (int a : order) out.push_back((*x->values)[static_cast<size_t>(a)]);
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

InferResult InferReshape(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  auto target = GetShapeArg(call, 1);
  if (!x || !target) return call.Unknown();
  // InferTypeReshape: a Shape-typed variable with known values gives those values; one without
  // gives the variable itself as the shape.
  if (!target->var.empty() && !target->dims) {
    return call.Done(ShapedTensor(*target, x->dtype, x->vdevice));
  }
  std::optional<std::vector<Expr>> dims = target->dims;
  // -1 and 0 in a literal shape are resolved when the call is built (needs x's shape values).
  if (dims && call.Lit(1).kind == Literal::Kind::kList) {
    int infer_at = -1;
    bool has_zero = false;
    for (size_t i = 0; i < dims->size(); ++i) {
      auto c = (*dims)[i].AsConst();
      if (!c) continue;
      if (*c == -1) {
        if (infer_at >= 0) {
          call.Error(1, "reshape accepts at most one -1, but got " + DimsText(*dims));
          return call.Unknown();
        }
        infer_at = static_cast<int>(i);
      } else if (*c == 0) {
        has_zero = true;
      } else if (*c < -1) {
        call.Error(1,
                   "reshape dims must be positive (or one -1, or 0), but got " + DimsText(*dims));
        return call.Unknown();
      }
    }
    if (infer_at >= 0 || has_zero) {
      if (!x->values)
        return call.Done(MakeTensor(std::nullopt, target->ndim, x->dtype, x->vdevice));
      for (size_t i = 0; i < dims->size(); ++i) {
        auto c = (*dims)[i].AsConst();
        if (c && *c == 0) {
          if (i >= x->values->size())
            return call.Done(MakeTensor(std::nullopt, target->ndim, x->dtype, x->vdevice));
          (*dims)[i] = (*x->values)[i];
        }
      }
      if (infer_at >= 0) {
        Expr known = 1;
        for (size_t i = 0; i < dims->size(); ++i) {
          if (static_cast<int>(i) != infer_at) known = known * (*dims)[i];
        }
        if (auto c = known.AsConst(); c && *c == 0) {
          return call.Done(MakeTensor(std::nullopt, target->ndim, x->dtype, x->vdevice));
        }
        (*dims)[static_cast<size_t>(infer_at)] = Expr::FloorDiv(Product(*x->values), known);
      }
    }
  }
  if (dims && x->values) {
    Expr old_prod = Product(*x->values), new_prod = Product(*dims);
    if (ProvablyDifferent(call, old_prod, new_prod)) {
      call.Error(1, "cannot reshape " + call.Describe(0) + " (" + old_prod.ToString() +
                        " elements) to " + DimsText(*dims) + " (" + new_prod.ToString() +
                        " elements)");
      return call.Unknown();
    }
  }
  return call.Done(MakeTensor(dims, target->ndim, x->dtype, x->vdevice));
}

InferResult InferSplit(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  int axis = -1;
  if (x->ndim >= 0) {
    auto a = SmallInt(call.Lit(2));
    if (!a) return call.Unknown();
    auto n = NormalizeAxis(call, 2, x->ndim, *a);
    if (!n) return call.Unknown();
    axis = *n;
  }
  StructInfo vague = MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice);
  const Literal& spec = call.Lit(1);
  if (spec.kind == Literal::Kind::kList) {
    auto indices = spec.AsIntList();
    if (!indices || static_cast<int64_t>(indices->size()) >= kMaxParts) return call.Unknown();
    if (indices->empty()) return call.Done(*x);
    if (!x->values || axis < 0) {
      return call.Done(StructInfo::Tuple(std::vector<StructInfo>(indices->size() + 1, vague)));
    }
    const Expr& d = (*x->values)[static_cast<size_t>(axis)];
    auto clamp = [&](const Expr& v) { return Expr::Min(Expr::Max(v, 0), d); };
    std::vector<StructInfo> parts;
    for (size_t i = 0; i <= indices->size(); ++i) {
      Expr left = i == 0 ? Expr(0) : Expr((*indices)[i - 1]);
      Expr right = i < indices->size() ? Expr((*indices)[i]) : d;
      std::vector<Expr> shape = *x->values;
      shape[static_cast<size_t>(axis)] = Expr::Max(clamp(right) - clamp(left), 0);
      parts.push_back(MakeTensor(shape, -1, x->dtype, x->vdevice));
    }
    return call.Done(StructInfo::Tuple(parts));
  }
  auto sections = spec.AsInt();
  if (!sections) return call.Unknown();
  if (*sections <= 0) {
    call.Error(1,
               "split needs a positive number of sections, but got " + std::to_string(*sections));
    return call.Unknown();
  }
  if (*sections == 1) return call.Done(*x);
  if (*sections >= kMaxParts) return call.Unknown();
  size_t n = static_cast<size_t>(*sections);
  if (!x->values || axis < 0)
    return call.Done(StructInfo::Tuple(std::vector<StructInfo>(n, vague)));
  const Expr& d = (*x->values)[static_cast<size_t>(axis)];
  Expr part = CeilDiv(d, *sections);
  std::vector<Expr> shape = *x->values;
  shape[static_cast<size_t>(axis)] = part;
  std::vector<StructInfo> parts(n - 1, MakeTensor(shape, -1, x->dtype, x->vdevice));
  shape[static_cast<size_t>(axis)] = d - part * (*sections - 1);
  parts.push_back(MakeTensor(shape, -1, x->dtype, x->vdevice));
  return call.Done(StructInfo::Tuple(parts));
}

InferResult InferSqueeze(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  const Literal& axis_lit = call.Lit(1);
  std::optional<std::vector<int64_t>> axes;
  if (!axis_lit.IsNone()) {
    axes = SmallIntList(axis_lit, true);
    if (!axes) return call.Done(MakeTensor(std::nullopt, -1, x->dtype, x->vdevice));
    if (axes->empty()) return call.Done(*x);
  }
  if (x->ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, x->dtype, x->vdevice));
  std::vector<bool> remove(static_cast<size_t>(x->ndim), false);
  if (axes) {
    auto norm = NormalizeAxes(call, 1, x->ndim, *axes);
    if (!norm) return call.Unknown();
    if (!x->values) {
      return call.Done(
          MakeTensor(std::nullopt, x->ndim - static_cast<int>(norm->size()), x->dtype, x->vdevice));
    }
    for (int a : *norm) {
      auto c = (*x->values)[static_cast<size_t>(a)].AsConst();
      // A literal non-1 dim is silently kept (TVM matches PyTorch here).
      if (!c || *c == 1) remove[static_cast<size_t>(a)] = true;
    }
  } else {
    if (!x->values) return call.Done(MakeTensor(std::nullopt, -1, x->dtype, x->vdevice));
    for (size_t i = 0; i < remove.size(); ++i) {
      auto c = (*x->values)[i].AsConst();
      if (!c) return call.Done(MakeTensor(std::nullopt, -1, x->dtype, x->vdevice));
      remove[i] = *c == 1;
    }
  }
  std::vector<Expr> out;
  for (size_t i = 0; i < remove.size(); ++i) {
    if (!remove[i]) out.push_back((*x->values)[i]);
  }
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

InferResult InferStack(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  auto tensors = TensorTuple(call, 0);
  if (!tensors) return call.Unknown();
  if (tensors->empty()) {
    call.Error(0, "stack requires at least one tensor");
    return call.Unknown();
  }
  const StructInfo& first = (*tensors)[0];
  std::string dtype = first.dtype;
  int ndim = first.ndim;
  for (const StructInfo& t : *tensors) {
    if (!t.dtype.empty() && !dtype.empty() && t.dtype != dtype) {
      call.Error(0, "stack requires tensors of one dtype, but got " + dtype + " and " + t.dtype);
      return call.Unknown();
    }
    if (t.dtype.empty()) dtype.clear();
    if (t.ndim >= 0 && ndim >= 0 && t.ndim != ndim) {
      call.Error(0, "stack requires tensors of one ndim, but got " + std::to_string(ndim) +
                        " and " + std::to_string(t.ndim));
      return call.Unknown();
    }
  }
  if (ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, dtype, first.vdevice));
  auto a = SmallInt(call.Lit(1));
  if (!a) return call.Unknown();
  auto axis = NormalizeAxis(call, 1, ndim + 1, *a);
  if (!axis) return call.Unknown();
  bool known = true;
  for (const StructInfo& t : *tensors) {
    if (!t.values) {
      known = false;
      continue;
    }
    if (!first.values) continue;
    for (size_t d = 0; d < t.values->size(); ++d) {
      if (ProvablyDifferent(call, (*t.values)[d], (*first.values)[d])) {
        call.Error(0, "stack requires identical shapes, but dim " + std::to_string(d) + " is " +
                          (*first.values)[d].ToString() + " and " + (*t.values)[d].ToString());
        return call.Unknown();
      }
      if (!ProvablyEqual(call, (*t.values)[d], (*first.values)[d])) known = false;
    }
  }
  if (!known) return call.Done(MakeTensor(std::nullopt, ndim + 1, dtype, first.vdevice));
  std::vector<Expr> out = *first.values;
  out.insert(out.begin() + *axis, Expr(static_cast<int64_t>(tensors->size())));
  return call.Done(MakeTensor(out, -1, dtype, first.vdevice));
}

InferResult InferRepeat(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto repeats = SmallInt(call.Lit(1));
  if (repeats && *repeats <= 0) {
    call.Error(1, "repeats must be positive, but got " + std::to_string(*repeats));
    return call.Unknown();
  }
  const Literal& axis_lit = call.Lit(2);
  if (axis_lit.IsNone()) {
    if (!x->values || !repeats) return call.Done(MakeTensor(std::nullopt, 1, x->dtype, x->vdevice));
    return call.Done(
        MakeTensor(std::vector<Expr>{Product(*x->values) * *repeats}, -1, x->dtype, x->vdevice));
  }
  auto a = SmallInt(axis_lit);
  if (!a || x->ndim < 0) return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice));
  auto axis = NormalizeAxis(call, 2, x->ndim, *a);
  if (!axis) return call.Unknown();
  if (!x->values || !repeats)
    return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice));
  std::vector<Expr> out = *x->values;
  out[static_cast<size_t>(*axis)] = out[static_cast<size_t>(*axis)] * *repeats;
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

InferResult InferTile(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto repeats = SmallIntList(call.Lit(1), true);
  if (!repeats || x->ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, x->dtype, x->vdevice));
  for (int64_t r : *repeats) {
    if (r < 0) {
      call.Error(1, "tile repeats must be non-negative, but got (" + Joined(*repeats) + ")");
      return call.Unknown();
    }
  }
  int ndim = std::max(x->ndim, static_cast<int>(repeats->size()));
  if (!x->values) return call.Done(MakeTensor(std::nullopt, ndim, x->dtype, x->vdevice));
  std::vector<Expr> shape = *x->values;
  std::vector<int64_t> reps = *repeats;
  shape.insert(shape.begin(), static_cast<size_t>(ndim) - shape.size(), Expr(1));
  reps.insert(reps.begin(), static_cast<size_t>(ndim) - reps.size(), 1);
  for (size_t i = 0; i < shape.size(); ++i) shape[i] = shape[i] * reps[i];
  return call.Done(MakeTensor(shape, -1, x->dtype, x->vdevice));
}

InferResult InferFlip(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto a = SmallInt(call.Lit(1));
  if (a && x->ndim >= 0 && !NormalizeAxis(call, 1, x->ndim, *a)) return call.Unknown();
  return call.Done(*x);
}

namespace {

InferResult CollapseSum(Call& call, const StructInfo& data,
                        const std::optional<std::vector<Expr>>& target, int target_ndim,
                        int param, const std::string& target_var = "") {
  if (data.ndim >= 0 && target_ndim >= 0 && target_ndim > data.ndim) {
    call.Error(param, "cannot collapse " + call.Describe(0) + " to a shape with more dims (" +
                          std::to_string(target_ndim) + ")");
    return call.Unknown();
  }
  if (data.values && target) {
    const auto& in = *data.values;
    const auto& out = *target;
    for (size_t i = 0; i < out.size(); ++i) {
      const Expr& t = out[out.size() - 1 - i];
      const Expr& d = in[in.size() - 1 - i];
      auto c = t.AsConst();
      if ((c && *c == 1) || ProvablyEqual(call, t, d)) continue;
      call.Error(param, "target dim " + t.ToString() + " is neither 1 nor provably equal to " +
                            d.ToString() + " (data: " + call.Describe(0) +
                            ", target: " + DimsText(out) + ")");
      return call.Unknown();
    }
  }
  ShapeArg shape;
  shape.dims = target;
  shape.ndim = target_ndim;
  shape.var = target_var;
  return call.Done(ShapedTensor(shape, data.dtype, data.vdevice));
}

}  // namespace

InferResult InferCollapseSumLike(const OpInfo&, const std::vector<ArgValue>& args,
                                 const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0);
  const StructInfo* target = call.Tensor(1, "collapse_target");
  if (!data || !target) return call.Unknown();
  return CollapseSum(call, *data, target->values, target->ndim, 1);
}

InferResult InferCollapseSumTo(const OpInfo&, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0);
  auto target = GetShapeArg(call, 1);
  if (!data || !target) return call.Unknown();
  return CollapseSum(call, *data, target->dims, target->ndim, 1, target->var);
}

// ---- Reductions (§5.8) --------------------------------------------------------------------

namespace {

// The shape after reducing `axis_lit` (None = all) with keepdims; dtype untouched.
std::optional<StructInfo> Reduced(Call& call, const StructInfo& x, const Literal& axis_lit,
                                  bool keepdims) {
  StructInfo vague = MakeTensor(std::nullopt, -1, x.dtype, x.vdevice);
  if (axis_lit.IsNone()) {
    if (!keepdims) return MakeTensor(std::vector<Expr>{}, -1, x.dtype, x.vdevice);
    if (x.ndim < 0) return vague;
    return MakeTensor(std::vector<Expr>(static_cast<size_t>(x.ndim), Expr(1)), -1, x.dtype,
                      x.vdevice);
  }
  auto axes = SmallIntList(axis_lit, true);
  if (!axes || x.ndim < 0) return vague;
  auto norm = NormalizeAxes(call, 1, x.ndim, *axes);
  if (!norm) return std::nullopt;
  int out_ndim = keepdims ? x.ndim : x.ndim - static_cast<int>(norm->size());
  if (!x.values) return MakeTensor(std::nullopt, out_ndim, x.dtype, x.vdevice);
  std::vector<bool> reduced(static_cast<size_t>(x.ndim), false);
  for (int a : *norm) reduced[static_cast<size_t>(a)] = true;
  std::vector<Expr> out;
  for (size_t i = 0; i < reduced.size(); ++i) {
    if (!reduced[i])
      out.push_back((*x.values)[i]);
    else if (keepdims)
      out.push_back(Expr(1));
  }
  return MakeTensor(out, -1, x.dtype, x.vdevice);
}

bool KeepDims(const Literal& l) { return l.kind == Literal::Kind::kBool && l.bool_value; }

}  // namespace

InferResult InferReduce(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto out = Reduced(call, *x, call.Lit(1), KeepDims(call.Lit(2)));
  if (!out) return call.Unknown();
  return call.Done(*out);
}

InferResult InferArgReduce(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  const Literal& axis = call.Lit(1);
  if (!axis.IsNone() && !axis.AsInt())
    return call.Done(MakeTensor(std::nullopt, -1, "int64", x->vdevice));
  auto out = Reduced(call, *x, axis, KeepDims(call.Lit(2)));
  if (!out) return call.Unknown();
  out->dtype = "int64";
  return call.Done(*out);
}

InferResult InferMedian(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  const Literal& axis = call.Lit(1);
  auto out = Reduced(call, *x, axis, KeepDims(call.Lit(2)));
  if (!out) return call.Unknown();
  auto axes = axis.AsIntList(true);
  if (axes && axes->size() == 1) {
    StructInfo indices = *out;
    indices.dtype = "int64";
    return call.Done(StructInfo::Tuple({*out, indices}));
  }
  return call.Done(*out);
}

InferResult InferCumulative(const OpInfo&, const std::vector<ArgValue>& args,
                            const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  std::string dtype = DTypeAttr(call.Lit(2)).value_or(x->dtype);
  if (call.Lit(1).IsNone()) {
    if (x->values)
      return call.Done(MakeTensor(std::vector<Expr>{Product(*x->values)}, -1, dtype, x->vdevice));
    return call.Done(MakeTensor(std::nullopt, x->ndim, dtype, x->vdevice));  // TVM keeps ndim
  }
  StructInfo out = *x;
  out.dtype = dtype;
  return call.Done(out);
}

// ---- CCL (§5.14) --------------------------------------------------------------------------

InferResult InferAllgather(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto workers = SmallInt(call.Lit(1));
  if (!x->values || x->values->empty() || !workers) {
    return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice));
  }
  std::vector<Expr> out = *x->values;
  out[0] = out[0] * *workers;
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

InferResult InferScatterFromWorker0(const OpInfo&, const std::vector<ArgValue>& args,
                                    const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  auto workers = SmallInt(call.Lit(1));
  auto axis = SmallInt(call.Lit(2));
  if (!x->values || !workers || *workers <= 0 || !axis || *axis < 0 || *axis >= x->ndim) {
    return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, x->vdevice));
  }
  std::vector<Expr> out = *x->values;
  const Expr& dim = out[static_cast<size_t>(*axis)];
  // TVM: an error when the dim provably is no multiple of num_workers.
  if (auto c = Expr::FloorMod(dim, *workers).AsConst(); c && *c != 0) {
    call.Error(1, "axis " + std::to_string(*axis) + " of the data has " + dim.ToString() +
                      " elements, not divisible by num_workers " + std::to_string(*workers));
    return call.Unknown();
  }
  out[static_cast<size_t>(*axis)] = Expr::FloorDiv(dim, *workers);
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

}  // namespace tvmls::ops
