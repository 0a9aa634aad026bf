// Inference of the nn ops: convolution and pooling with layouts (relax_ops.md §4), softmax,
// norms, dropout, attention and losses (§5.10).
#include <algorithm>

#include "ops/infer_common.h"
#include "vocab/dtype.h"

namespace tvmls::ops {

using arith::Expr;
using types::Kind;

namespace {

const char* const kDataLayouts[] = {"NCW", "NCHW", "NCDHW"};
const char* const kKernelLayouts[] = {"OIW", "OIHW", "OIDHW"};
const char* const kTransposedKernelLayouts[] = {"IOW", "IOHW", "IODHW"};

// The spatial ranks the layout tables cover; other values of OpInfo::rank give unknown results.
bool IsSpatialRank(int rank) { return rank >= 1 && rank <= 3; }

// An int or a list of `spatial` ints (a one-element list is repeated, as C++ does for 2-D/3-D).
std::optional<std::vector<Expr>> SpatialList(Call& call, int param, int spatial, const char* what) {
  const Literal& lit = call.Lit(static_cast<size_t>(param));
  auto values = lit.AsExprList(/*allow_scalar=*/true);
  if (!values) return std::nullopt;
  if (values->size() == 1) values->assign(static_cast<size_t>(spatial), (*values)[0]);
  if (static_cast<int>(values->size()) != spatial) {
    call.Error(param, std::string(what) + " needs 1 or " + std::to_string(spatial) +
                          " values, but got " + std::to_string(values->size()));
    return std::nullopt;
  }
  return values;
}

// §4 padding forms, as (before..., after...) with `spatial` entries each.
std::optional<std::vector<Expr>> Padding(Call& call, int param, int spatial) {
  auto values = call.Lit(static_cast<size_t>(param)).AsExprList(true);
  if (!values) return std::nullopt;
  size_t n = values->size(), s = static_cast<size_t>(spatial);
  std::vector<Expr> out(2 * s);
  if (n == 1) {
    out.assign(2 * s, (*values)[0]);
  } else if (n == s && spatial > 1) {
    for (size_t i = 0; i < s; ++i) out[i] = out[s + i] = (*values)[i];
  } else if (n == 2 * s) {
    out = *values;
  } else {
    call.Error(param, "padding needs 1, " + (spatial > 1 ? std::to_string(s) + ", " : "") + "or " +
                          std::to_string(2 * s) + " values, but got " + std::to_string(n));
    return std::nullopt;
  }
  return out;
}

// Reads dims through a layout into canonical order (packed sub-axes multiply in).
std::vector<Expr> Forward(const std::vector<Expr>& dims, const Layout& layout) {
  return LayoutToCanonical(dims, layout);
}

std::vector<Expr> Backward(const std::vector<Expr>& canonical, const Layout& layout) {
  return CanonicalToLayout(canonical, layout);
}

bool CheckNdim(Call& call, int param, const StructInfo& t, const Layout& layout) {
  if (t.ndim >= 0 && t.ndim != layout.ndim) {
    call.Error(param, "layout " + layout.text + " needs a " + std::to_string(layout.ndim) +
                          "-d tensor, but got " + call.Describe(static_cast<size_t>(param)));
    return false;
  }
  return true;
}

// The channel rules on canonical dims: convolution needs input `channels` == I * groups and O
// divisible by groups; transposed convolution needs `channels` == I and I divisible by groups.
// Records an error at the weight and returns false when one provably fails.
bool CheckConvChannels(Call& call, const Expr& channels, const Expr& kernel_in,
                       const Expr& kernel_out, int64_t groups, bool transposed) {
  std::string operands = " (data: " + call.Describe(0) + ", weight: " + call.Describe(1) + ")";
  if (!transposed) {
    if (ProvablyDifferent(call, channels, kernel_in * groups)) {
      call.Error(1, "input channels " + channels.ToString() + " differ from the weight's " +
                        (kernel_in * groups).ToString() + " (I * groups)" + operands);
      return false;
    }
    auto o = kernel_out.AsConst();
    if (o && *o % groups != 0) {
      call.Error(1, "output channels " + std::to_string(*o) + " are not divisible by groups " +
                        std::to_string(groups));
      return false;
    }
  } else {
    if (ProvablyDifferent(call, channels, kernel_in)) {
      call.Error(1, "input channels " + channels.ToString() + " differ from the weight's " +
                        kernel_in.ToString() + operands);
      return false;
    }
    auto i = kernel_in.AsConst();
    if (i && *i % groups != 0) {
      call.Error(1, "weight input channels " + std::to_string(*i) +
                        " are not divisible by groups " + std::to_string(groups));
      return false;
    }
  }
  return true;
}

// Convolution with op.rank spatial dims; `transposed` adds output_padding after padding.
InferResult Conv(const OpInfo& op, const std::vector<ArgValue>& args, const InferContext& ctx,
                 bool transposed) {
  Call call(args, ctx);
  if (!IsSpatialRank(op.rank)) return call.Unknown();
  const int spatial = op.rank;
  // Parameter positions: transposed convolutions have output_padding after padding.
  const int p_strides = 2, p_padding = 3, p_output_padding = transposed ? 4 : -1;
  const int shift = transposed ? 1 : 0;
  const int p_dilation = 4 + shift, p_groups = 5 + shift, p_data_layout = 6 + shift,
            p_kernel_layout = 7 + shift, p_out_layout = 8 + shift, p_out_dtype = 9 + shift;
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* weight = call.Tensor(1, "weight");
  size_t li = static_cast<size_t>(spatial - 1);
  auto data_layout = ParseLayout(call, p_data_layout, call.Lit(p_data_layout), kDataLayouts[li]);
  auto kernel_layout = ParseLayout(call, p_kernel_layout, call.Lit(p_kernel_layout),
                                   transposed ? kTransposedKernelLayouts[li] : kKernelLayouts[li]);
  std::optional<Layout> out_layout = data_layout;
  if (!call.Lit(p_out_layout).IsNone()) {
    out_layout = ParseLayout(call, p_out_layout, call.Lit(p_out_layout), kDataLayouts[li]);
  }
  if (!data || !weight || call.HasErrors()) return call.Unknown();
  std::string dtype;
  if (auto out_dtype = DTypeAttr(call.Lit(p_out_dtype))) {
    dtype = *out_dtype;
  } else {
    auto d = ArithDType(call, 1, data->dtype, weight->dtype, "convolution");
    if (!d) return call.Unknown();
    dtype = *d;
  }
  auto vdevice = BinaryVDevice(call, 1, data->vdevice, weight->vdevice);
  if (!vdevice) return call.Unknown();
  if (!data_layout || !kernel_layout || !out_layout) {
    return call.Done(MakeTensor(std::nullopt, out_layout ? out_layout->ndim : -1, dtype, *vdevice));
  }
  if (!CheckNdim(call, 0, *data, *data_layout) || !CheckNdim(call, 1, *weight, *kernel_layout)) {
    return call.Unknown();
  }
  auto strides = SpatialList(call, p_strides, spatial, "strides");
  auto dilation = SpatialList(call, p_dilation, spatial, "dilation");
  auto padding = Padding(call, p_padding, spatial);
  std::optional<std::vector<Expr>> output_padding;
  if (transposed) output_padding = SpatialList(call, p_output_padding, spatial, "output_padding");
  auto groups = SmallInt(call.Lit(static_cast<size_t>(p_groups)));
  if (groups && *groups <= 0) {
    call.Error(p_groups, "groups must be positive, but got " + std::to_string(*groups));
  }
  if (call.HasErrors()) return call.Unknown();
  StructInfo vague = MakeTensor(std::nullopt, out_layout->ndim, dtype, *vdevice);
  if (!strides || !dilation || !padding || (transposed && !output_padding) || !groups) {
    return call.Done(vague);
  }
  for (int i = 0; i < spatial; ++i) {
    auto s = (*strides)[static_cast<size_t>(i)].AsConst();
    if (s && *s <= 0) {
      call.Error(p_strides, "strides must be positive");
      return call.Unknown();
    }
    if (transposed) {
      auto out_pad = (*output_padding)[static_cast<size_t>(i)].AsConst();
      if (s && out_pad && *out_pad >= *s) {
        call.Error(p_output_padding, "output_padding " + std::to_string(*out_pad) +
                                         " must be smaller than the stride " + std::to_string(*s));
        return call.Unknown();
      }
    }
  }
  if (!data->values || !weight->values) return call.Done(vague);
  std::vector<Expr> x = Forward(*data->values, *data_layout);
  std::vector<Expr> w = Forward(*weight->values, *kernel_layout);
  // Canonical kernels: OI... for convolution, IO... for transposed convolution.
  Expr kernel_out = transposed ? w[1] : w[0];
  Expr kernel_in = transposed ? w[0] : w[1];
  if (!CheckConvChannels(call, x[1], kernel_in, kernel_out, *groups, transposed)) {
    return call.Unknown();
  }
  std::vector<Expr> out = {x[0], transposed ? kernel_out * *groups : kernel_out};
  for (size_t i = 0; i < static_cast<size_t>(spatial); ++i) {
    Expr in = x[2 + i], k = w[2 + i];
    Expr pad = (*padding)[i] + (*padding)[static_cast<size_t>(spatial) + i];
    Expr dil = (*dilation)[i], stride = (*strides)[i];
    if (transposed) {
      out.push_back((in - 1) * stride - pad + dil * (k - 1) + (*output_padding)[i] + 1);
    } else {
      out.push_back(Expr::FloorDiv(in + pad - dil * (k - 1) - 1, stride) + 1);
    }
  }
  std::vector<Expr> dims = Backward(out, *out_layout);
  for (const Expr& e : dims) {
    if (e.IsOverflow()) return call.Done(vague);
  }
  return call.Done(MakeTensor(dims, -1, dtype, *vdevice));
}

}  // namespace

InferResult InferPool(const OpInfo& op, const std::vector<ArgValue>& args,
                      const InferContext& ctx) {
  Call call(args, ctx);
  if (!IsSpatialRank(op.rank)) return call.Unknown();
  const int spatial = op.rank;
  const int p_pool = 1, p_strides = 2, p_padding = 3, p_dilation = 4, p_ceil = 5, p_layout = 7,
            p_out_layout = 8;
  const StructInfo* data = call.Tensor(0, "data");
  size_t li = static_cast<size_t>(spatial - 1);
  auto layout = ParseLayout(call, p_layout, call.Lit(p_layout), kDataLayouts[li]);
  std::optional<Layout> out_layout = layout;
  if (!call.Lit(p_out_layout).IsNone()) {
    out_layout = ParseLayout(call, p_out_layout, call.Lit(p_out_layout), kDataLayouts[li]);
  }
  if (!data || call.HasErrors()) return call.Unknown();
  if (!layout || !out_layout) {
    return call.Done(
        MakeTensor(std::nullopt, out_layout ? out_layout->ndim : -1, data->dtype, data->vdevice));
  }
  if (!CheckNdim(call, 0, *data, *layout)) return call.Unknown();
  auto pool = SpatialList(call, p_pool, spatial, "pool_size");
  auto strides = SpatialList(call, p_strides, spatial, "strides");
  auto dilation = SpatialList(call, p_dilation, spatial, "dilation");
  auto padding = Padding(call, p_padding, spatial);
  if (call.HasErrors()) return call.Unknown();
  StructInfo vague = MakeTensor(std::nullopt, out_layout->ndim, data->dtype, data->vdevice);
  const Literal& ceil_lit = call.Lit(p_ceil);
  bool ceil_mode = ceil_lit.kind == Literal::Kind::kBool && ceil_lit.bool_value;
  if (!pool || !strides || !dilation || !padding || !data->values) return call.Done(vague);
  std::vector<Expr> x = Forward(*data->values, *layout);
  std::vector<Expr> out = {x[0], x[1]};
  for (size_t i = 0; i < static_cast<size_t>(spatial); ++i) {
    Expr in = x[2 + i], stride = (*strides)[i];
    auto s = stride.AsConst();
    if (s && *s <= 0) {
      call.Error(p_strides, "strides must be positive");
      return call.Unknown();
    }
    Expr pad_before = (*padding)[i];
    Expr pad = pad_before + (*padding)[static_cast<size_t>(spatial) + i];
    Expr num = in + pad - (*dilation)[i] * ((*pool)[i] - 1) - 1;
    if (ceil_mode) num = num + stride - 1;
    Expr dim = Expr::FloorDiv(num, stride) + 1;
    if (ceil_mode) {
      // The last window must start inside the (front-padded) input; TVM keeps this as an
      // if_then_else that only folds for constants.
      auto cd = dim.AsConst(), cs = stride.AsConst(), lim = (in + pad_before).AsConst();
      if (!cd || !cs || !lim) return call.Done(vague);
      if ((*cd - 1) * *cs >= *lim) dim = *cd - 1;
    }
    out.push_back(dim);
  }
  std::vector<Expr> dims = Backward(out, *out_layout);
  for (const Expr& e : dims) {
    if (e.IsOverflow()) return call.Done(vague);
  }
  return call.Done(MakeTensor(dims, -1, data->dtype, data->vdevice));
}

InferResult InferAdaptivePool(const OpInfo& op, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  if (!IsSpatialRank(op.rank)) return call.Unknown();
  const int spatial = op.rank;
  const StructInfo* data = call.Tensor(0, "data");
  size_t li = static_cast<size_t>(spatial - 1);
  auto layout = ParseLayout(call, 2, call.Lit(2), kDataLayouts[li]);
  std::optional<Layout> out_layout = layout;
  if (!call.Lit(3).IsNone()) out_layout = ParseLayout(call, 3, call.Lit(3), kDataLayouts[li]);
  if (!data || call.HasErrors()) return call.Unknown();
  if (!layout || !out_layout) {
    return call.Done(
        MakeTensor(std::nullopt, out_layout ? out_layout->ndim : -1, data->dtype, data->vdevice));
  }
  if (!CheckNdim(call, 0, *data, *layout)) return call.Unknown();
  std::optional<std::vector<Expr>> size;
  if (!call.Lit(1).IsNone()) {
    size = SpatialList(call, 1, spatial, "output_size");
    if (call.HasErrors()) return call.Unknown();
  }
  StructInfo vague = MakeTensor(std::nullopt, out_layout->ndim, data->dtype, data->vdevice);
  if ((!call.Lit(1).IsNone() && !size) || !data->values) return call.Done(vague);
  std::vector<Expr> x = Forward(*data->values, *layout);
  if (size) {
    for (size_t i = 0; i < size->size(); ++i) x[2 + i] = (*size)[i];
  }
  std::vector<Expr> out = Backward(x, *out_layout);
  for (const Expr& e : out) {
    if (e.IsOverflow()) return call.Done(vague);
  }
  return call.Done(MakeTensor(out, -1, data->dtype, data->vdevice));
}

namespace {

bool IsNonFloat(const std::string& dtype) {
  return !dtype.empty() && (dtype == "bool" || vocab::IsIntDType(dtype));
}

// TVM's NormCheckDtypeAndShape (src/relax/op/nn/nn.cc), shared by layer_norm / rms_norm /
// batch_norm: the data must be float/bfloat, every parameter tensor (gamma, beta, ...) must have
// the data's dtype and ndim len(axes), and the lengths data.shape[axes] and each parameter's
// shape are compared pairwise against the first known list (the data's, else the first
// parameter's): a provable difference is an error, and the first pair that cannot be proven
// equal makes the result's shape unknown (later pairs are then not compared).
//
// Returns nullopt after recording an error, else whether the shape is unknown. A dtype or ndim
// tvmls does not know is not compared (TVM rejects an unknown one against a known one), and a
// parameter whose struct info tvmls does not know makes the shape unknown.
std::optional<bool> NormCheck(Call& call, const StructInfo& data, const std::vector<size_t>& params,
                              size_t axes_param) {
  auto axes = SmallIntList(call.Lit(axes_param), true);
  std::vector<int> normalized;
  if (axes && data.ndim >= 0) {
    auto n = NormalizeAxes(call, static_cast<int>(axes_param), data.ndim, *axes);
    if (!n) return std::nullopt;
    normalized = *n;
  }
  if (IsNonFloat(data.dtype)) {
    call.Error(0, "normalization requires a floating-point input, but got dtype " + data.dtype);
    return std::nullopt;
  }
  bool unknown = !axes;
  for (size_t p : params) {
    const StructInfo* t = call.Tensor(p);
    if (!t) {
      if (call.HasErrors()) return std::nullopt;
      unknown = true;
      continue;
    }
    if (!t->dtype.empty() && !data.dtype.empty() && t->dtype != data.dtype) {
      call.Error(static_cast<int>(p),
                 "dtype " + t->dtype + " differs from the data's " + data.dtype);
      return std::nullopt;
    }
    if (axes && t->ndim >= 0 && t->ndim != static_cast<int>(axes->size())) {
      call.Error(static_cast<int>(p), "expects a " + std::to_string(axes->size()) +
                                          "-d tensor (one dim per normalized axis), but got " +
                                          call.Describe(p));
      return std::nullopt;
    }
  }
  if (unknown) return true;
  // The known lists, in TVM's order: the data's lengths on the axes, then each parameter's shape.
  struct Lengths {
    size_t param;
    std::vector<Expr> dims;
  };
  std::vector<Lengths> lists;
  if (data.values) {
    Lengths l{0, {}};
    for (int a : normalized) l.dims.push_back((*data.values)[static_cast<size_t>(a)]);
    lists.push_back(std::move(l));
  }
  for (size_t p : params) {
    const StructInfo& t = call.Info(p);
    if (t.values) lists.push_back({p, *t.values});
  }
  for (size_t i = 1; i < lists.size(); ++i) {
    for (size_t d = 0; d < axes->size(); ++d) {
      const Expr& want = lists[0].dims[d];
      const Expr& got = lists[i].dims[d];
      if (ProvablyDifferent(call, want, got)) {
        std::string against = lists[0].param == 0
                                  ? "the data's " + want.ToString() + " on axis " +
                                        std::to_string(normalized[d])
                                  : want.ToString() + " of " + call.Describe(lists[0].param);
        call.Error(static_cast<int>(lists[i].param),
                   "dim " + got.ToString() + " differs from " + against + " (got " +
                       call.Describe(lists[i].param) + ")");
        return std::nullopt;
      }
      if (!ProvablyEqual(call, want, got)) return true;
    }
  }
  return false;
}

// layer_norm / rms_norm (InferTypeLayerNorm / InferTypeRMSNorm): the data's type, or the same
// dtype and ndim with an unknown shape.
InferResult Norm(const std::vector<ArgValue>& args, const InferContext& ctx,
                 const std::vector<size_t>& params, size_t axes_param) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  if (!data) return call.Unknown();
  auto unknown = NormCheck(call, *data, params, axes_param);
  if (!unknown) return call.Unknown();
  if (*unknown) return call.Done(MakeTensor(std::nullopt, data->ndim, data->dtype, data->vdevice));
  return call.Done(*data);
}

}  // namespace

InferResult InferConv(const OpInfo& op, const std::vector<ArgValue>& args,
                      const InferContext& ctx) {
  return Conv(op, args, ctx, /*transposed=*/false);
}

InferResult InferConvTranspose(const OpInfo& op, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  return Conv(op, args, ctx, /*transposed=*/true);
}

InferResult InferSoftmax(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "data");
  if (!x) return call.Unknown();
  if (x->ndim < 0) return call.Done(*x);
  if (auto axis = SmallInt(call.Lit(1))) {
    if (!NormalizeAxis(call, 1, x->ndim, *axis)) return call.Unknown();
  }
  if (IsNonFloat(x->dtype)) {
    call.Error(0, "softmax requires a floating-point input, but got dtype " + x->dtype);
    return call.Unknown();
  }
  return call.Done(*x);
}

InferResult InferLayerNorm(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  return Norm(args, ctx, {1, 2}, 3);
}

InferResult InferRmsNorm(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  return Norm(args, ctx, {1}, 2);
}

// InferTypeBatchNorm: (data, moving_mean, moving_var) types, or with unknown shapes (all of the
// data's dtype) when the channel lengths are not provably equal.
InferResult InferBatchNorm(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  if (!data) return call.Unknown();
  auto unknown = NormCheck(call, *data, {1, 2, 3, 4}, 5);
  if (!unknown) return call.Unknown();
  if (*unknown) {
    return call.Done(
        StructInfo::Tuple({MakeTensor(std::nullopt, data->ndim, data->dtype, data->vdevice),
                           MakeTensor(std::nullopt, 1, data->dtype, data->vdevice),
                           MakeTensor(std::nullopt, 1, data->dtype, data->vdevice)}));
  }
  return call.Done(StructInfo::Tuple({*data, call.Info(3), call.Info(4)}));
}

InferResult InferDropout(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "data");
  if (!x) return call.Unknown();
  return call.Done(StructInfo::Tuple({*x, *x}));
}

InferResult InferBatchFlatten(const OpInfo&, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "data");
  if (!x) return call.Unknown();
  if (x->ndim == 0) {
    call.Error(0, "batch_flatten requires at least one dim, but got " + call.Describe(0));
    return call.Unknown();
  }
  if (!x->values) return call.Done(MakeTensor(std::nullopt, 2, x->dtype, x->vdevice));
  std::vector<Expr> rest(x->values->begin() + 1, x->values->end());
  return call.Done(
      MakeTensor(std::vector<Expr>{(*x->values)[0], Product(rest)}, -1, x->dtype, x->vdevice));
}

InferResult InferPad(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "data");
  if (!x) return call.Unknown();
  auto widths = call.Lit(1).AsExprList();
  if (!widths || x->ndim < 0) return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, ""));
  if (widths->size() != 2 * static_cast<size_t>(x->ndim)) {
    call.Error(1, "pad_width needs " + std::to_string(2 * x->ndim) +
                      " values (before, after per dim), but got " + std::to_string(widths->size()));
    return call.Unknown();
  }
  if (!x->values) return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, ""));
  std::vector<Expr> out = *x->values;
  for (size_t i = 0; i < out.size(); ++i) out[i] = out[i] + (*widths)[2 * i] + (*widths)[2 * i + 1];
  return call.Done(MakeTensor(out, -1, x->dtype, ""));
}

InferResult InferPixelShuffle(const OpInfo&, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "data");
  if (!x) return call.Unknown();
  if (x->ndim >= 0 && x->ndim < 3) {
    call.Error(0, "pixel_shuffle requires at least 3 dims, but got " + call.Describe(0));
    return call.Unknown();
  }
  auto r = SmallInt(call.Lit(1));
  if (r && *r <= 0) {
    call.Error(1, "upscale_factor must be positive, but got " + std::to_string(*r));
    return call.Unknown();
  }
  if (!r || !x->values) return call.Done(MakeTensor(std::nullopt, x->ndim, x->dtype, ""));
  std::vector<Expr> out = *x->values;
  size_t n = out.size();
  auto c = out[n - 3].AsConst();
  if (c && *c % (*r * *r) != 0) {
    call.Error(1, "channels " + std::to_string(*c) +
                      " are not divisible by upscale_factor^2 = " + std::to_string(*r * *r));
    return call.Unknown();
  }
  out[n - 3] = Expr::FloorDiv(out[n - 3], *r * *r);
  out[n - 2] = out[n - 2] * *r;
  out[n - 1] = out[n - 1] * *r;
  return call.Done(MakeTensor(out, -1, x->dtype, ""));
}

InferResult InferPrelu(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "data");
  const StructInfo* alpha = call.Tensor(1, "alpha");
  if (!x || !alpha) return call.Unknown();
  if (x->ndim >= 0) {
    if (auto axis = SmallInt(call.Lit(2))) {
      if (!NormalizeAxis(call, 2, x->ndim, *axis)) return call.Unknown();
    }
  }
  return call.Done(*x);
}

InferResult InferAttention(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const char* names[] = {"query", "key", "value"};
  const StructInfo* t[3];
  for (size_t i = 0; i < 3; ++i) {
    t[i] = call.Tensor(i, names[i]);
    if (t[i] && t[i]->ndim >= 0 && t[i]->ndim != 4) {
      call.Error(static_cast<int>(i), std::string(names[i]) +
                                          " must be 4-d [batch, seq, heads, dim], but got " +
                                          call.Describe(i));
    }
  }
  if (!t[0] || !t[1] || !t[2] || call.HasErrors()) return call.Unknown();
  const StructInfo &q = *t[0], &k = *t[1], &v = *t[2];
  if (!q.values || !k.values || !v.values)
    return call.Done(MakeTensor(std::nullopt, 4, q.dtype, q.vdevice));
  const auto &qs = *q.values, &ks = *k.values, &vs = *v.values;
  struct Pair {
    const Expr& a;
    const Expr& b;
    int param;
    const char* what;
  };
  const Pair pairs[] = {{qs[0], ks[0], 1, "batch"},
                        {qs[0], vs[0], 2, "batch"},
                        {qs[3], ks[3], 1, "head dim"},
                        {ks[1], vs[1], 2, "sequence length"},
                        {ks[2], vs[2], 2, "heads"}};
  for (const Pair& p : pairs) {
    if (ProvablyDifferent(call, p.a, p.b)) {
      call.Error(p.param,
                 std::string(p.what) + " " + p.a.ToString() + " and " + p.b.ToString() + " differ");
      return call.Unknown();
    }
  }
  return call.Done(
      MakeTensor(std::vector<Expr>{qs[0], qs[1], qs[2], vs[3]}, -1, q.dtype, q.vdevice));
}

// InferTypeCrossEntropy: a 0-d tensor; predictions and labels need the same dtype (binary
// rule), vdevice, ndim, and no provably different dims.
InferResult InferCrossEntropy(const OpInfo&, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* p = call.Tensor(0, "predictions");
  const StructInfo* l = call.Tensor(1, "labels");
  if (!p || !l) return call.Unknown();
  auto dtype = ArithDType(call, 1, p->dtype, l->dtype, "cross_entropy_with_logits");
  if (!dtype) return call.Unknown();
  auto vdevice = BinaryVDevice(call, 1, p->vdevice, l->vdevice);
  if (!vdevice) return call.Unknown();
  if (p->ndim >= 0 && l->ndim >= 0 && p->ndim != l->ndim) {
    call.Error(1, "labels must have the predictions' ndim " + std::to_string(p->ndim) +
                      ", but got " + call.Describe(1));
    return call.Unknown();
  }
  if (p->values && l->values) {
    for (size_t i = 0; i < p->values->size() && i < l->values->size(); ++i) {
      if (ProvablyDifferent(call, (*p->values)[i], (*l->values)[i])) {
        call.Error(1, "labels dim " + std::to_string(i) + " is " + (*l->values)[i].ToString() +
                          " but the predictions' is " + (*p->values)[i].ToString() +
                          " (predictions: " + call.Describe(0) + ", labels: " + call.Describe(1) +
                          ")");
        return call.Unknown();
      }
    }
  }
  return call.Done(MakeTensor(std::vector<Expr>{}, -1, *dtype, *vdevice));
}

// InferTypeNLLLoss: predictions (N, C, d1..dk) or (C,), targets (N, d1..dk) or (), weights (C,).
// reduction "none" gives (N, d1..dk) (() for (C,) predictions), "sum"/"mean" a 0-d tensor; the
// dtype is the predictions' (with weights: the binary dtype rule of predictions and weights).
InferResult InferNllLoss(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  // The reduction is validated when the call is built, before inference.
  auto reduction = call.Lit(3).AsString();
  if (reduction && *reduction != "none" && *reduction != "sum" && *reduction != "mean") {
    call.Error(3,
               "reduction must be \"mean\", \"sum\" or \"none\", but got \"" + *reduction + "\"");
    return call.Unknown();
  }
  const bool has_weights = call.Arg(2).present && !call.Lit(2).IsNone();
  const StructInfo* w = nullptr;
  if (has_weights) {
    w = call.Tensor(2, "weights");
    if (!w) return call.Unknown();
  }
  const StructInfo* p = call.Tensor(0, "predictions");
  const StructInfo* t = call.Tensor(1, "targets");
  if (!p || !t) return call.Unknown();
  std::string dtype = p->dtype;
  std::string vdevice = p->vdevice;
  if (w) {
    auto d = ArithDType(call, 2, p->dtype, w->dtype, "nll_loss");
    if (!d) return call.Unknown();
    auto v = BinaryVDevice(call, 2, p->vdevice, w->vdevice);
    if (!v) return call.Unknown();
    dtype = *d;
    vdevice = *v;
  }
  if (!t->dtype.empty() && !vocab::IsIntDType(t->dtype) && vocab::IsKnownDType(t->dtype)) {
    call.Error(1, "targets must have an int/uint dtype, but got " + t->dtype);
    return call.Unknown();
  }
  int k = -1;
  if (p->ndim >= 0) {
    if (p->ndim < 1) {
      call.Error(0, "predictions must have at least 1 dim, but got " + call.Describe(0));
      return call.Unknown();
    }
    k = p->ndim <= 2 ? 0 : p->ndim - 2;
  }
  if (t->ndim >= 0) {
    int k_targets = t->ndim <= 1 ? 0 : t->ndim - 1;
    if (k >= 0 && k != k_targets) {
      call.Error(1, "targets " + call.Describe(1) + " do not match predictions " +
                        call.Describe(0) + " (expected (N, d1..dk) for (N, C, d1..dk), or () for (C,))");
      return call.Unknown();
    }
  }
  if (w && w->ndim >= 0 && w->ndim != 1) {
    call.Error(2, "weights must be 1-d (C,), but got " + call.Describe(2));
    return call.Unknown();
  }
  std::optional<Expr> n, c;
  std::vector<Expr> out_shape;  // N, d1, ..., dk
  if (p->values) {
    const std::vector<Expr>& ps = *p->values;
    if (ps.size() == 1) {
      c = ps[0];
    } else {
      n = ps[0];
      c = ps[1];
      out_shape.push_back(ps[0]);
      for (size_t i = 2; i < ps.size(); ++i) out_shape.push_back(ps[i]);
    }
  }
  if (t->values) {
    const std::vector<Expr>& ts = *t->values;
    if (ts.empty()) {
      if (n) {
        call.Error(1, "targets are a scalar but predictions are (N, C, ...): " + call.Describe(0));
        return call.Unknown();
      }
    } else {
      if (n && ProvablyDifferent(call, *n, ts[0])) {
        call.Error(1, "targets batch " + ts[0].ToString() + " differs from the predictions' " +
                          n->ToString());
        return call.Unknown();
      }
      if (!n && c) {
        call.Error(1, "predictions are (C,) but targets are not a scalar: " + call.Describe(1));
        return call.Unknown();
      }
      if (ts.size() >= 2 && p->values) {
        for (size_t i = 1; i < ts.size() && i < out_shape.size(); ++i) {
          if (ProvablyDifferent(call, out_shape[i], ts[i])) {
            call.Error(1, "targets dim " + std::to_string(i) + " is " + ts[i].ToString() +
                              " but the predictions' is " + out_shape[i].ToString());
            return call.Unknown();
          }
        }
      }
    }
  }
  if (w && w->values && w->values->size() == 1 && c &&
      ProvablyDifferent(call, *c, (*w->values)[0])) {
    call.Error(2, "weights length " + (*w->values)[0].ToString() +
                      " differs from the number of classes " + c->ToString());
    return call.Unknown();
  }
  if (!reduction) return call.Unknown();
  if (*reduction == "none") {
    if (p->values) return call.Done(MakeTensor(out_shape, -1, dtype, vdevice));
    return call.Done(MakeTensor(std::nullopt, p->ndim < 0 ? -1 : p->ndim - 1, dtype, vdevice));
  }
  return call.Done(MakeTensor(std::vector<Expr>{}, -1, dtype, vdevice));
}

}  // namespace tvmls::ops
