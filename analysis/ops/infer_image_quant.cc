// Inference of the image ops (resize2d/3d, affine_grid), quantize/dequantize,
// multinomial_from_uniform, unique, group_norm and the vision ops (relax_ops.md §5.10, §5.11).
//
// Each function mirrors the TVM inference function named above it (src/relax/op/...). Where the
// classic era (v0.23) and the current one differ, an error is reported only when both eras raise
// it (the union of what they accept), and the result follows the current era.
#include <algorithm>
#include <cctype>
#include <map>

#include "ops/infer_common.h"
#include "vocab/dtype.h"

namespace tvmls::ops {

using arith::Expr;
using types::Kind;

namespace {

// ---- dtype classes (DLPack type codes) -------------------------------------------------------

enum class Code { kUnknown, kInt, kUInt, kFloat, kBFloat, kBool, kOther };

// The DLPack code of a dtype ("float32x4" -> kFloat, "float8_e4m3fn" -> kOther); kUnknown for
// "" and for spellings tvmls does not recognize (never an error).
Code CodeOf(const std::string& dtype) {
  if (dtype.empty() || !vocab::IsKnownDType(dtype)) return Code::kUnknown;
  std::string base = dtype;
  size_t x = base.rfind('x');
  if (x != std::string::npos && x + 1 < base.size() &&
      std::all_of(base.begin() + static_cast<long>(x) + 1, base.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
    base = base.substr(0, x);
  }
  auto digits_after = [&](const std::string& prefix) {
    return base.size() > prefix.size() && base.compare(0, prefix.size(), prefix) == 0 &&
           std::all_of(base.begin() + static_cast<long>(prefix.size()), base.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  };
  if (base == "bool") return Code::kBool;
  if (digits_after("uint")) return Code::kUInt;
  if (digits_after("int")) return Code::kInt;
  if (digits_after("bfloat")) return Code::kBFloat;
  if (digits_after("float")) return Code::kFloat;
  return Code::kOther;
}

bool OneOf(const std::string& dtype, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed) {
    if (dtype == a) return true;
  }
  return false;
}

// The literal as a flag (`True`, `R.prim_value(1)`), nullopt when not a literal.
std::optional<bool> FlagOf(const Literal& lit) {
  if (lit.kind == Literal::Kind::kBool) return lit.bool_value;
  if (auto v = lit.AsInt()) return *v != 0;
  return std::nullopt;
}

std::optional<double> NumberOf(const Literal& lit) {
  if (lit.kind == Literal::Kind::kFloat) return lit.float_value;
  if (auto v = lit.AsInt()) return static_cast<double>(*v);
  return std::nullopt;
}

StructInfo WithDType(StructInfo info, const std::string& dtype) {
  info.dtype = dtype;
  return info;
}

// ---- image sizes ------------------------------------------------------------------------------

// The `size` argument after the Python wrapper: an int or PrimExpr becomes `repeat` copies, a
// tuple/list becomes a ShapeExpr (one element repeated when `repeat_single`), a Shape-typed
// value stays itself (not a ShapeExpr: no values, only its ndim).
struct SizeArg {
  int ndim = -1;
  std::optional<std::vector<Expr>> dims;  // set only for a literal ShapeExpr
};

std::optional<SizeArg> ImageSize(Call& call, size_t param, int repeat, bool repeat_single) {
  const ArgValue& arg = call.Arg(param);
  const Literal& lit = arg.literal;
  SizeArg out;
  if (lit.kind == Literal::Kind::kInt || lit.kind == Literal::Kind::kExpr) {
    out.dims = std::vector<Expr>(static_cast<size_t>(repeat), *lit.AsExpr());
    out.ndim = repeat;
    return out;
  }
  if (lit.kind == Literal::Kind::kList) {
    auto dims = lit.AsExprList();
    if (!dims) return std::nullopt;  // not a list of dims: the wrapper would fail, unprovable here
    if (repeat_single && dims->size() == 1) {
      dims = std::vector<Expr>(static_cast<size_t>(repeat), (*dims)[0]);
    }
    out.ndim = static_cast<int>(dims->size());
    out.dims = std::move(dims);
    return out;
  }
  const StructInfo& info = arg.info;
  if (info.kind == Kind::kShape) {
    out.ndim = info.ndim;
    return out;
  }
  if (info.kind == Kind::kTensor || info.kind == Kind::kTuple || info.kind == Kind::kObject ||
      info.kind == Kind::kCallable) {
    call.Error(static_cast<int>(param),
               "size must be a shape (R.shape([...]) or a tuple of dims), but got " +
                   call.Describe(param));
  }
  return std::nullopt;
}

// A validated layout's dims: per user dim its letter (upper: primal, lower: a sub-axis) and the
// sub-axis factor (0 for primal dims).
struct LayoutDims {
  std::vector<char> letters;
  std::vector<int64_t> factors;
};

LayoutDims DimsOf(const std::string& text) {
  LayoutDims out;
  for (size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      int64_t f = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        f = f * 10 + (text[i] - '0');
        ++i;
      }
      out.letters.push_back(i < text.size() ? text[i] : '?');
      out.factors.push_back(f);
      ++i;
    } else {
      out.letters.push_back(text[i]);
      out.factors.push_back(0);
      ++i;
    }
  }
  return out;
}

// TVM's CheckTensorLayout + BijectiveLayout Forward/BackwardShape for a resize: the data shape
// through `layout` into the canonical layout, the spatial dims (canonical positions 2..) replaced
// by `size`, and back. Sub-axis dims of the data must equal their factor (an ICHECK in TVM's
// TransformShape): an error at parameter 0 when a constant dim differs. nullopt on error or when
// a sub-axis dim is symbolic.
std::optional<std::vector<Expr>> ResizeShape(Call& call, const std::vector<Expr>& data,
                                             const Layout& layout, const std::string& canonical,
                                             const std::vector<Expr>& size) {
  LayoutDims dims = DimsOf(layout.text);
  if (dims.letters.size() != data.size()) return std::nullopt;
  std::map<char, int64_t> factor;  // primal letter -> sub-axis factor
  for (size_t u = 0; u < dims.letters.size(); ++u) {
    if (dims.factors[u] == 0) continue;
    char primal = static_cast<char>(std::toupper(static_cast<unsigned char>(dims.letters[u])));
    factor[primal] = dims.factors[u];
    auto c = data[u].AsConst();
    if (!c) return std::nullopt;
    if (*c != dims.factors[u]) {
      call.Error(0, "dim " + std::to_string(u) + " of the data is " + std::to_string(*c) +
                        ", but layout " + layout.text + " splits it by " +
                        std::to_string(dims.factors[u]));
      return std::nullopt;
    }
  }
  std::vector<Expr> canon;
  for (size_t k = 0; k < canonical.size(); ++k) {
    Expr v = data[static_cast<size_t>(layout.canonical_to_user[k])];
    auto f = factor.find(canonical[k]);
    if (f != factor.end()) v = v * f->second;
    canon.push_back(v);
  }
  for (size_t i = 0; i < size.size(); ++i) canon[2 + i] = size[i];
  std::vector<Expr> out;
  for (size_t u = 0; u < dims.letters.size(); ++u) {
    if (dims.factors[u] != 0) {
      out.push_back(dims.factors[u]);
      continue;
    }
    char primal = dims.letters[u];
    size_t k = canonical.find(primal);
    if (k == std::string::npos) return std::nullopt;
    Expr v = canon[k];
    auto f = factor.find(primal);
    if (f != factor.end()) v = Expr::FloorDiv(v, f->second);
    out.push_back(v);
  }
  for (const Expr& e : out) {
    if (e.IsOverflow()) return std::nullopt;
  }
  return out;
}

// ---- layout_transform ---------------------------------------------------------------------------

// The extent TVM's IndexMap::MapShape gives one result of the map, for the forms whose extent
// follows from the input dims without padding: a parameter itself (its dim), `v // c` and `v % c`
// on a constant dim divisible by c (dim / c and c), and the fuse `a * c + b` of constant dims
// with dim(b) == c (dim(a) * c). nullopt for anything else (TVM's iterator-map detection decides
// those, with padding rules tvmls does not model).
std::optional<Expr> MapExtent(const std::string& text, const std::vector<std::string>& params,
                              const std::vector<Expr>& dims) {
  std::string t;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) t.push_back(c);
  }
  auto dim_of = [&](const std::string& name) -> std::optional<Expr> {
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i] == name) return dims[i];
    }
    return std::nullopt;
  };
  auto number = [](const std::string& s) -> std::optional<int64_t> {
    if (s.empty() || s.size() > 9 ||
        !std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
      return std::nullopt;
    }
    return std::stoll(s);
  };
  if (auto d = dim_of(t)) return d;
  for (const char* op : {"//", "%"}) {
    size_t at = t.find(op);
    if (at == std::string::npos) continue;
    auto d = dim_of(t.substr(0, at));
    auto c = number(t.substr(at + std::string(op).size()));
    if (!d || !c || *c <= 0) return std::nullopt;
    auto dc = d->AsConst();
    if (!dc || *dc % *c != 0) return std::nullopt;
    return std::string(op) == "//" ? Expr(*dc / *c) : Expr(*c);
  }
  size_t star = t.find('*'), plus = t.find('+');
  if (star != std::string::npos && plus != std::string::npos && star < plus) {
    auto a = dim_of(t.substr(0, star));
    auto c = number(t.substr(star + 1, plus - star - 1));
    auto b = dim_of(t.substr(plus + 1));
    if (!a || !b || !c) return std::nullopt;
    auto ac = a->AsConst(), bc = b->AsConst();
    if (!ac || !bc || *bc != *c || *ac < 1) return std::nullopt;
    return Expr(*ac * *c);
  }
  return std::nullopt;
}

// ---- quantize / dequantize --------------------------------------------------------------------

// Known shape: a scalar (shape ()) or every dim provably 1 -> true; a known other shape -> false;
// unknown shape -> nullopt.
std::optional<bool> ScalarOrSingleton(const Call& call, const StructInfo& t) {
  if (!t.values) return std::nullopt;
  for (const Expr& d : *t.values) {
    if (!ProvablyEqual(call, d, 1)) return false;
  }
  return true;
}

// InferTypeQuantize / InferTypeDequantize (src/relax/op/tensor/qdq.cc).
InferResult QuantizeLike(const std::vector<ArgValue>& args, const InferContext& ctx,
                         bool quantize) {
  Call call(args, ctx);
  const char* name = quantize ? "quantize" : "dequantize";
  std::optional<std::string> out_dtype = DTypeAttr(call.Lit(4));
  if (out_dtype) {
    bool ok = quantize ? OneOf(*out_dtype, {"int8", "uint8", "int16", "uint16", "float8_e4m3fn",
                                            "float8_e5m2"})
                       : OneOf(*out_dtype, {"float16", "float32"});
    if (!ok) {
      call.Error(4, std::string(name) + " does not support out_dtype " + *out_dtype + " (allowed: " +
                        (quantize ? "int8, uint8, int16, uint16, float8_e4m3fn, float8_e5m2"
                                  : "float16, float32") +
                        ")");
      return call.Unknown();
    }
  }
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* scale = call.Tensor(1, "scale");
  const StructInfo* zp = call.Tensor(2, "zero_point");
  if (!data || !scale || !zp) return call.Unknown();
  if (data->dtype.empty() || scale->dtype.empty() || zp->dtype.empty()) {
    return call.Done(WithDType(*data, ""));
  }
  bool data_ok = quantize ? OneOf(data->dtype, {"float16", "float32"})
                          : OneOf(data->dtype, {"int8", "uint8", "int16", "uint16", "int32",
                                                "float8_e4m3fn", "float8_e5m2", "float16",
                                                "float32"});
  if (!data_ok) {
    call.Error(0, std::string(name) + " does not support input dtype " + data->dtype);
    return call.Unknown();
  }
  if (!OneOf(scale->dtype, {"float16", "float32"})) {
    call.Error(1, "scale dtype must be float16 or float32, but got " + scale->dtype);
    return call.Unknown();
  }
  // The current era's list; the classic era accepts only int8 and float16 (a subset).
  if (!OneOf(zp->dtype, {"int8", "uint8", "int16", "uint16", "int32", "uint32", "float16"})) {
    call.Error(2,
               "zero_point dtype must be one of int8, uint8, int16, uint16, int32, uint32, "
               "float16, but got " +
                   zp->dtype);
    return call.Unknown();
  }
  StructInfo out = WithDType(*data, out_dtype.value_or(""));
  auto axis_attr = SmallInt(call.Lit(3));
  const int ndim = data->ndim;
  // TVM also rejects an unknown rank (the axis can never be in range); tvmls stays silent there.
  if (!axis_attr || ndim < 0) return call.Done(out);
  int axis = static_cast<int>(*axis_attr < 0 ? ndim + *axis_attr : *axis_attr);
  if (ndim != 0 && (axis < 0 || axis >= ndim)) {
    call.Error(3, std::string(name) + ": axis " + std::to_string(*axis_attr) +
                      " is out of range for a tensor of ndim " + std::to_string(ndim));
    return call.Unknown();
  }
  const StructInfo* params[] = {scale, zp};
  const char* param_names[] = {"scale", "zero_point"};
  for (size_t i = 0; i < 2; ++i) {
    int p = static_cast<int>(i) + 1;
    auto small = ScalarOrSingleton(call, *params[i]);
    if (!small || *small) continue;
    if (ndim == 0) {
      call.Error(p, std::string(param_names[i]) +
                        " must be a scalar or a singleton tensor for a 0-d input, but got " +
                        call.Describe(static_cast<size_t>(p)));
      return call.Unknown();
    }
    if (!data->values) continue;
    const Expr& param_dim = (*params[i]->values)[0];
    const Expr& input_dim = (*data->values)[static_cast<size_t>(axis)];
    if (!ProvablyEqual(call, param_dim, input_dim)) {
      call.Error(p, "size of " + std::string(param_names[i]) + " is " + param_dim.ToString() +
                        ", but the input has " + input_dim.ToString() + " at axis " +
                        std::to_string(*axis_attr) + " (not provably equal)");
      return call.Unknown();
    }
  }
  return call.Done(out);
}

// A vision op's tensor operand with a required rank: an error at `param` when its rank is known
// and differs.
bool CheckRank(Call& call, size_t param, const StructInfo& t, int rank, const char* what) {
  if (t.ndim >= 0 && t.ndim != rank) {
    call.Error(static_cast<int>(param), std::string(what) + " must be " + std::to_string(rank) +
                                            "-d, but got " + call.Describe(param));
    return false;
  }
  return true;
}

// roi_align / roi_pool `pooled_size` after the Python wrapper and the C++ constructor: an int
// or a one-element list is repeated; anything but 2 values is an error at `param`.
std::optional<std::vector<int64_t>> PooledSize(Call& call, size_t param) {
  auto values = SmallIntList(call.Lit(param), /*allow_scalar=*/true);
  if (!values) return std::nullopt;
  if (values->size() == 1) values->push_back((*values)[0]);
  if (values->size() != 2) {
    call.Error(static_cast<int>(param),
               "pooled_size needs 1 or 2 values, but got " + std::to_string(values->size()));
    return std::nullopt;
  }
  return values;
}

// InferTypeROIAlign / InferTypeROIPool (src/relax/op/vision/roi_align.cc, roi_pool.cc).
InferResult RoiOp(const std::vector<ArgValue>& args, const InferContext& ctx, bool align) {
  Call call(args, ctx);
  const char* name = align ? "roi_align" : "roi_pool";
  const size_t p_layout = align ? 6 : 4;
  auto pooled = PooledSize(call, 2);
  if (call.HasErrors()) return call.Unknown();
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* rois = call.Tensor(1, "rois");
  if (!data || !rois) return call.Unknown();
  if (!CheckRank(call, 0, *data, 4, "data") || !CheckRank(call, 1, *rois, 2, "rois")) {
    return call.Unknown();
  }
  auto layout = call.Lit(p_layout).AsString();
  if (layout && !(*layout == "NCHW" || (align && *layout == "NHWC"))) {
    call.Error(static_cast<int>(p_layout),
               std::string(name) + " supports only layout " + (align ? "NCHW or NHWC" : "NCHW") +
                   ", but got \"" + *layout + "\"");
    return call.Unknown();
  }
  if (align) {
    auto mode = call.Lit(7).AsString();
    if (mode && *mode != "avg" && *mode != "max") {
      call.Error(7, "roi_align supports only mode \"avg\" or \"max\", but got \"" + *mode + "\"");
      return call.Unknown();
    }
  }
  if (rois->values) {
    auto last = (*rois->values)[1].AsConst();
    if (last && *last != 5) {
      call.Error(1, "rois must have shape (num_roi, 5), but got " + call.Describe(1));
      return call.Unknown();
    }
  }
  StructInfo vague = MakeTensor(std::nullopt, 4, data->dtype, data->vdevice);
  if (!data->values || !rois->values || !pooled || !layout) return call.Done(vague);
  const std::vector<Expr>& d = *data->values;
  Expr num_roi = (*rois->values)[0];
  std::vector<Expr> out =
      *layout == "NCHW" ? std::vector<Expr>{num_roi, d[1], (*pooled)[0], (*pooled)[1]}
                        : std::vector<Expr>{num_roi, (*pooled)[0], (*pooled)[1], d[3]};
  return call.Done(MakeTensor(out, -1, data->dtype, data->vdevice));
}

// InferTypeResize2D / InferTypeResize3D (src/relax/op/image/resize.cc) with `spatial` (2 or 3)
// spatial dims.
InferResult Resize(const std::vector<ArgValue>& args, const InferContext& ctx, int spatial) {
  Call call(args, ctx);
  const std::string canonical = spatial == 2 ? "NCHW" : "NCDHW";
  const StructInfo* data = call.Tensor(0, "data");
  if (!data) return call.Unknown();
  auto size = ImageSize(call, 1, spatial, /*repeat_single=*/true);
  if (call.HasErrors()) return call.Unknown();
  if (size && size->ndim >= 0 && size->ndim != spatial) {
    call.Error(1, "size must have " + std::to_string(spatial) + " values (" +
                      canonical.substr(2) + "), but got " + std::to_string(size->ndim));
    return call.Unknown();
  }
  auto layout = ParseLayout(call, 3, call.Lit(3), canonical);
  if (call.HasErrors()) return call.Unknown();
  std::string dtype = DTypeAttr(call.Lit(10)).value_or(data->dtype);
  if (!layout) return call.Done(MakeTensor(std::nullopt, -1, dtype, data->vdevice));
  if (data->ndim >= 0 && data->ndim != layout->ndim) {
    call.Error(0, "layout " + layout->text + " needs a " + std::to_string(layout->ndim) +
                      "-d tensor, but got " + call.Describe(0));
    return call.Unknown();
  }
  StructInfo vague = MakeTensor(std::nullopt, layout->ndim, dtype, data->vdevice);
  if (!data->values || !size || !size->dims) return call.Done(vague);
  auto out = ResizeShape(call, *data->values, *layout, canonical, *size->dims);
  if (call.HasErrors()) return call.Unknown();
  if (!out) return call.Done(vague);
  return call.Done(MakeTensor(*out, -1, dtype, data->vdevice));
}

}  // namespace

InferResult InferResize2D(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  return Resize(args, ctx, 2);
}

InferResult InferResize3D(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  return Resize(args, ctx, 3);
}

// InferTypeAffineGrid (src/relax/op/image/resize.cc; current era only).
InferResult InferAffineGrid(const OpInfo&, const std::vector<ArgValue>& args,
                            const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  if (!data) return call.Unknown();
  auto size = ImageSize(call, 1, 2, /*repeat_single=*/false);
  if (call.HasErrors()) return call.Unknown();
  // TVM also rejects a Shape of unknown rank; tvmls stays silent there.
  if (!size || size->ndim < 0) return call.Unknown();
  const int s = size->ndim;
  if (s != 2 && s != 3) {
    call.Error(1, "size must have 2 (H, W) or 3 (D, H, W) values, but got " + std::to_string(s));
    return call.Unknown();
  }
  if (data->ndim >= 0 && data->ndim != 3) {
    call.Error(0, "data must be 3-d (batch, " + std::to_string(s) + ", " + std::to_string(s + 1) +
                      "), but got " + call.Describe(0));
    return call.Unknown();
  }
  if (data->values) {
    const std::vector<Expr>& d = *data->values;
    auto d1 = d[1].AsConst(), d2 = d[2].AsConst();
    if ((d1 && *d1 != s) || (d2 && *d2 != s + 1)) {
      call.Error(0, "data must have shape (batch, " + std::to_string(s) + ", " +
                        std::to_string(s + 1) + ") for a " + std::to_string(s) +
                        "-d size, but got " + call.Describe(0));
      return call.Unknown();
    }
  }
  if (!data->values || !size->dims) {
    return call.Done(MakeTensor(std::nullopt, s + 2, data->dtype, data->vdevice));
  }
  std::vector<Expr> out = {(*data->values)[0], Expr(s)};
  for (const Expr& e : *size->dims) out.push_back(e);
  return call.Done(MakeTensor(out, -1, data->dtype, data->vdevice));
}

InferResult InferQuantize(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  return QuantizeLike(args, ctx, /*quantize=*/true);
}

InferResult InferDequantize(const OpInfo&, const std::vector<ArgValue>& args,
                            const InferContext& ctx) {
  return QuantizeLike(args, ctx, /*quantize=*/false);
}

// InferTypeMultinomialFromUniform (src/relax/op/tensor/sampling.cc).
InferResult InferMultinomialFromUniform(const OpInfo&, const std::vector<ArgValue>& args,
                                        const InferContext& ctx) {
  Call call(args, ctx);
  const char* names[] = {"prob", "uniform_sample", "sample_indices"};
  const StructInfo* t[3];
  for (size_t i = 0; i < 3; ++i) t[i] = call.Tensor(i, names[i]);
  if (!t[0] || !t[1] || !t[2]) return call.Unknown();
  // The current era accepts float and bfloat probabilities (the classic era float only).
  for (size_t i = 0; i < 2; ++i) {
    Code c = CodeOf(t[i]->dtype);
    if (c != Code::kUnknown && c != Code::kFloat && c != Code::kBFloat) {
      call.Error(static_cast<int>(i), std::string(names[i]) +
                                          " must have a floating-point dtype, but got " +
                                          t[i]->dtype);
      return call.Unknown();
    }
  }
  Code ci = CodeOf(t[2]->dtype);
  if (ci != Code::kUnknown && ci != Code::kInt) {
    call.Error(2, "sample_indices must have a signed integer dtype, but got " + t[2]->dtype);
    return call.Unknown();
  }
  std::string dtype = DTypeAttr(call.Lit(3)).value_or("");
  const std::string& vdevice = t[0]->vdevice;
  if (t[0]->ndim < 0 || t[1]->ndim < 0 || t[2]->ndim < 0) {
    return call.Done(MakeTensor(std::nullopt, -1, dtype, vdevice));
  }
  for (size_t i = 0; i < 3; ++i) {
    if (!CheckRank(call, i, *t[i], 2, names[i])) return call.Unknown();
  }
  if (!t[0]->values || !t[1]->values || !t[2]->values) {
    return call.Done(MakeTensor(std::nullopt, 2, dtype, vdevice));
  }
  const std::vector<Expr>& u = *t[1]->values;
  const std::vector<Expr>& s = *t[2]->values;
  if (!ProvablyEqual(call, u[0], s[0])) {
    call.Error(2, "uniform_sample and sample_indices must have provably equal batch sizes, but "
                  "got " +
                      u[0].ToString() + " and " + s[0].ToString());
    return call.Unknown();
  }
  for (size_t i = 1; i < 3; ++i) {
    auto second = (*t[i]->values)[1].AsConst();
    if (!second || *second != 1) {
      call.Error(static_cast<int>(i), std::string(names[i]) +
                                          " must have shape (n, 1) with a literal 1, but got " +
                                          call.Describe(i));
      return call.Unknown();
    }
  }
  return call.Done(MakeTensor(std::vector<Expr>{u[0], 1}, -1, dtype, vdevice));
}

// InferTypeUnique (src/relax/op/tensor/set.cc).
InferResult InferUnique(const OpInfo&, const std::vector<ArgValue>& args,
                        const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "x");
  if (!x) return call.Unknown();
  const Literal& axis_lit = call.Lit(5);
  bool has_axis = false;
  if (axis_lit.kind == Literal::Kind::kInt || axis_lit.kind == Literal::Kind::kExpr) {
    has_axis = true;
    if (x->ndim >= 0) {
      if (auto axis = axis_lit.AsInt()) {
        if (!NormalizeAxis(call, 5, x->ndim, *axis)) return call.Unknown();
      }
    }
  } else if (!axis_lit.IsNone()) {
    return call.Unknown();
  }
  std::optional<bool> flags[3];
  for (size_t i = 0; i < 3; ++i) {
    flags[i] = FlagOf(call.Lit(2 + i));
    if (!flags[i]) return call.Unknown();
  }
  const std::string& vdevice = x->vdevice;
  auto one_d = [&](const std::string& dtype) {
    if (x->ndim == 0) return MakeTensor(std::vector<Expr>{1}, -1, dtype, vdevice);
    return MakeTensor(std::nullopt, 1, dtype, vdevice);
  };
  std::vector<StructInfo> outputs;
  if (x->ndim == 0) {
    outputs.push_back(one_d(x->dtype));
  } else if (has_axis) {
    outputs.push_back(MakeTensor(std::nullopt, x->ndim, x->dtype, vdevice));
  } else {
    outputs.push_back(MakeTensor(std::nullopt, 1, x->dtype, vdevice));
  }
  for (size_t i = 0; i < 3; ++i) {
    if (*flags[i]) outputs.push_back(one_d("int64"));
  }
  if (outputs.size() == 1) return call.Done(outputs[0]);
  return call.Done(StructInfo::Tuple(std::move(outputs)));
}

// The channel axis of group_norm / instance_norm (src/relax/op/nn/nn.cc): channel_axis and axes
// normalized against the data's rank, channel_axis not among the axes. -1 when unknown; nullopt
// after an error (reported).
static std::optional<int> NormChannelAxis(Call& call, const StructInfo& data, size_t channel_param, size_t axes_param,
                                   bool axes_allow_scalar) {
  if (data.ndim < 0) return -1;
  auto channel = SmallInt(call.Lit(channel_param));
  auto axes = SmallIntList(call.Lit(axes_param), axes_allow_scalar);
  std::optional<int> c;
  if (channel) {
    c = NormalizeAxis(call, channel_param, data.ndim, *channel);
    if (!c) return std::nullopt;
  }
  std::optional<std::vector<int>> normalized;
  if (axes) {
    normalized = NormalizeAxes(call, axes_param, data.ndim, *axes);
    if (!normalized) return std::nullopt;
  }
  if (c && normalized && std::find(normalized->begin(), normalized->end(), *c) != normalized->end()) {
    call.Error(axes_param, "channel_axis " + std::to_string(*c) + " must not be in axes");
    return std::nullopt;
  }
  return c ? *c : -1;
}

// gamma (param 1) and beta (param 2) of a norm: the data's dtype, 1-d, as long as the channels.
// false after an error (reported).
static bool CheckNormScaleAndShift(Call& call, const StructInfo& data, const StructInfo* gamma, const StructInfo* beta,
                            const std::optional<Expr>& channels, int channel_axis) {
  const StructInfo* params[] = {gamma, beta};
  for (size_t i = 0; i < 2; ++i) {
    const StructInfo& t = *params[i];
    int p = static_cast<int>(i) + 1;
    if (!t.dtype.empty() && !data.dtype.empty() && t.dtype != data.dtype) {
      call.Error(p, "dtype " + t.dtype + " differs from the data's " + data.dtype);
      return false;
    }
    if (t.ndim >= 0 && t.ndim != 1) {
      call.Error(p, "must be 1-d, but got " + call.Describe(static_cast<size_t>(p)));
      return false;
    }
    if (channels && t.values && ProvablyDifferent(call, *channels, (*t.values)[0])) {
      call.Error(p, "size " + (*t.values)[0].ToString() + " differs from the data's channels " +
                        channels->ToString() + " (axis " + std::to_string(channel_axis) + ")");
      return false;
    }
  }
  return true;
}

// InferTypeGroupNorm (src/relax/op/nn/nn.cc).
InferResult InferGroupNorm(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* gamma = call.Tensor(1, "gamma");
  const StructInfo* beta = call.Tensor(2, "beta");
  if (!data || !gamma || !beta) return call.Unknown();
  std::optional<int> axis = NormChannelAxis(call, *data, 4, 5, /*axes_allow_scalar=*/true);
  if (!axis) return call.Unknown();
  int channel_axis = *axis;
  Code code = CodeOf(data->dtype);
  if (code != Code::kUnknown && code != Code::kFloat) {
    call.Error(0, "group_norm requires a float input (float16/32/64), but got dtype " +
                      data->dtype);
    return call.Unknown();
  }
  std::optional<Expr> channels;
  if (data->values && channel_axis >= 0) channels = (*data->values)[static_cast<size_t>(channel_axis)];
  auto groups = SmallInt(call.Lit(3));
  if (channels && groups && *groups > 0) {
    auto rem = Expr::FloorMod(*channels, *groups).AsConst();
    if (rem && *rem != 0) {
      call.Error(3, "channels " + channels->ToString() + " (axis " +
                        std::to_string(channel_axis) + ") are not divisible by num_groups " +
                        std::to_string(*groups));
      return call.Unknown();
    }
  }
  if (!CheckNormScaleAndShift(call, *data, gamma, beta, channels, channel_axis)) return call.Unknown();
  return call.Done(*data);
}

// InferTypeGetValidCounts (src/relax/op/vision/nms.cc; current era only).
InferResult InferGetValidCounts(const OpInfo&, const std::vector<ArgValue>& args,
                                const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  if (!data) return call.Unknown();
  if (!CheckRank(call, 0, *data, 3, "data")) return call.Unknown();
  const std::string& v = data->vdevice;
  if (!data->values) {
    return call.Done(StructInfo::Tuple({MakeTensor(std::nullopt, 1, "int32", v),
                                        MakeTensor(std::nullopt, 3, data->dtype, v),
                                        MakeTensor(std::nullopt, 2, "int32", v)}));
  }
  const std::vector<Expr>& d = *data->values;
  if (auto elem = d[2].AsConst()) {
    auto score_index = SmallInt(call.Lit(3));
    if (score_index && (*score_index < 0 || *score_index >= *elem)) {
      call.Error(3, "score_index must be in [0, " + std::to_string(*elem) + "), but got " +
                        std::to_string(*score_index));
      return call.Unknown();
    }
    auto id_index = SmallInt(call.Lit(2));
    if (id_index && (*id_index < -1 || *id_index >= *elem)) {
      call.Error(2, "id_index must be in [-1, " + std::to_string(*elem) + "), but got " +
                        std::to_string(*id_index));
      return call.Unknown();
    }
  }
  return call.Done(
      StructInfo::Tuple({MakeTensor(std::vector<Expr>{d[0]}, -1, "int32", v),
                         MakeTensor(std::vector<Expr>{d[0], d[1], d[2]}, -1, data->dtype, v),
                         MakeTensor(std::vector<Expr>{d[0], d[1]}, -1, "int32", v)}));
}

// InferTypeNMS (src/relax/op/vision/nms.cc; current era only).
InferResult InferNonMaxSuppression(const OpInfo&, const std::vector<ArgValue>& args,
                                   const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* valid = call.Tensor(1, "valid_count");
  const StructInfo* indices = call.Tensor(2, "indices");
  if (!data || !valid || !indices) return call.Unknown();
  if (!CheckRank(call, 0, *data, 3, "data") || !CheckRank(call, 1, *valid, 1, "valid_count") ||
      !CheckRank(call, 2, *indices, 2, "indices")) {
    return call.Unknown();
  }
  const StructInfo* ints[] = {valid, indices};
  for (size_t i = 0; i < 2; ++i) {
    if (!ints[i]->dtype.empty() && ints[i]->dtype != "int32") {
      call.Error(static_cast<int>(i) + 1, std::string(i == 0 ? "valid_count" : "indices") +
                                              " must have dtype int32, but got " +
                                              ints[i]->dtype);
      return call.Unknown();
    }
  }
  if (data->values) {
    const std::vector<Expr>& d = *data->values;
    if (valid->values && !ProvablyEqual(call, (*valid->values)[0], d[0])) {
      call.Error(1, "valid_count must have shape (batch,) = (" + d[0].ToString() +
                        ",) (provably), but got " + call.Describe(1));
      return call.Unknown();
    }
    if (indices->values && (!ProvablyEqual(call, (*indices->values)[0], d[0]) ||
                            !ProvablyEqual(call, (*indices->values)[1], d[1]))) {
      call.Error(2, "indices must have shape (batch, num_anchors) = " +
                        DimsText({d[0], d[1]}) + " (provably), but got " + call.Describe(2));
      return call.Unknown();
    }
    if (auto elem = d[2].AsConst()) {
      auto score_index = SmallInt(call.Lit(8));
      if (score_index && (*score_index < 0 || *score_index >= *elem)) {
        call.Error(8, "score_index must be in [0, " + std::to_string(*elem) + "), but got " +
                          std::to_string(*score_index));
        return call.Unknown();
      }
      auto coord_start = SmallInt(call.Lit(7));
      if (coord_start && (*coord_start < 0 || *coord_start + 3 >= *elem)) {
        call.Error(7, "coord_start must leave four box coordinates within elem_length " +
                          std::to_string(*elem) + ", but got " + std::to_string(*coord_start));
        return call.Unknown();
      }
      auto id_index = SmallInt(call.Lit(9));
      if (id_index && (*id_index < -1 || *id_index >= *elem)) {
        call.Error(9, "id_index must be in [-1, " + std::to_string(*elem) + "), but got " +
                          std::to_string(*id_index));
        return call.Unknown();
      }
    }
  }
  const std::string& v = data->vdevice;
  auto return_indices = FlagOf(call.Lit(10));
  if (!return_indices) return call.Unknown();
  if (!*return_indices) {
    if (data->values) return call.Done(MakeTensor(*data->values, -1, data->dtype, v));
    return call.Done(MakeTensor(std::nullopt, 3, data->dtype, v));
  }
  auto sigma = NumberOf(call.Lit(12));
  if (!sigma) return call.Unknown();
  std::vector<StructInfo> fields;
  if (!data->values) {
    if (*sigma > 0.0) fields.push_back(MakeTensor(std::nullopt, 3, data->dtype, v));
    fields.push_back(MakeTensor(std::nullopt, 2, "int32", v));
    fields.push_back(MakeTensor(std::nullopt, 2, "int32", v));
    return call.Done(StructInfo::Tuple(std::move(fields)));
  }
  const std::vector<Expr>& d = *data->values;
  if (*sigma > 0.0) fields.push_back(MakeTensor(d, -1, data->dtype, v));
  fields.push_back(MakeTensor(std::vector<Expr>{d[0], d[1]}, -1, "int32", v));
  fields.push_back(MakeTensor(std::vector<Expr>{d[0], 1}, -1, "int32", v));
  return call.Done(StructInfo::Tuple(std::move(fields)));
}

// InferTypeAllClassNMS (src/relax/op/vision/nms.cc, both eras).
InferResult InferAllClassNonMaxSuppression(const OpInfo&, const std::vector<ArgValue>& args,
                                           const InferContext& ctx) {
  Call call(args, ctx);
  const char* names[] = {"boxes", "scores", "max_output_boxes_per_class", "iou_threshold",
                         "score_threshold"};
  const StructInfo* t[5];
  for (size_t i = 0; i < 5; ++i) t[i] = call.Tensor(i, names[i]);
  if (call.HasErrors()) return call.Unknown();
  // TVM checks the ranks with internal assertions and requires literal shapes (it fails on
  // anything else); tvmls reports a known wrong rank and gives an unknown result otherwise.
  for (size_t i = 0; i < 2; ++i) {
    if (t[i] && !CheckRank(call, i, *t[i], 3, names[i])) return call.Unknown();
  }
  if (!t[0] || !t[1] || !t[0]->values || !t[1]->values) return call.Unknown();
  auto format = call.Lit(5).AsString();
  if (!format) return call.Unknown();
  const Expr batch = (*t[0]->values)[0];
  const Expr num_boxes = (*t[0]->values)[1];
  const Expr num_classes = (*t[1]->values)[1];
  const std::string& v = t[0]->vdevice;
  if (*format == "onnx") {
    return call.Done(StructInfo::Tuple(
        {MakeTensor(std::vector<Expr>{batch * num_classes * num_boxes, 3}, -1, "int64", v),
         MakeTensor(std::vector<Expr>{1}, -1, "int64", v)}));
  }
  Expr per_batch = num_classes * num_boxes;
  return call.Done(StructInfo::Tuple(
      {MakeTensor(std::vector<Expr>{batch, per_batch, 2}, -1, "int64", v),
       MakeTensor(std::vector<Expr>{batch, per_batch}, -1, "float32", v),
       MakeTensor(std::vector<Expr>{batch}, -1, "int64", v)}));
}

// InferTypeMultiboxTransformLoc (src/relax/op/vision/multibox_transform_loc.cc; current era
// only).
InferResult InferMultiboxTransformLoc(const OpInfo&, const std::vector<ArgValue>& args,
                                      const InferContext& ctx) {
  Call call(args, ctx);
  // The C++ constructor requires four variances.
  const Literal& variances = call.Lit(5);
  if (variances.kind == Literal::Kind::kList && variances.items.size() != 4) {
    call.Error(5, "variances needs 4 values (x, y, w, h), but got " +
                      std::to_string(variances.items.size()));
    return call.Unknown();
  }
  const StructInfo* cls = call.Tensor(0, "cls_pred");
  const StructInfo* loc = call.Tensor(1, "loc_pred");
  const StructInfo* anchor = call.Tensor(2, "anchor");
  if (!cls || !loc || !anchor) return call.Unknown();
  if (!CheckRank(call, 0, *cls, 3, "cls_pred") || !CheckRank(call, 1, *loc, 2, "loc_pred") ||
      !CheckRank(call, 2, *anchor, 3, "anchor")) {
    return call.Unknown();
  }
  const StructInfo* others[] = {loc, anchor};
  for (size_t i = 0; i < 2; ++i) {
    if (!cls->dtype.empty() && !others[i]->dtype.empty() && cls->dtype != others[i]->dtype) {
      call.Error(static_cast<int>(i) + 1, std::string(i == 0 ? "loc_pred" : "anchor") +
                                              " dtype " + others[i]->dtype +
                                              " differs from cls_pred's " + cls->dtype);
      return call.Unknown();
    }
  }
  std::optional<int64_t> loc_dim1;
  if (loc->values) {
    loc_dim1 = (*loc->values)[1].AsConst();
    if (loc_dim1 && *loc_dim1 % 4 != 0) {
      call.Error(1, "loc_pred.shape[1] must be divisible by 4, but got " +
                        std::to_string(*loc_dim1));
      return call.Unknown();
    }
  }
  if (cls->values && loc->values) {
    auto cb = (*cls->values)[0].AsConst(), lb = (*loc->values)[0].AsConst();
    if (cb && lb && *cb != *lb) {
      call.Error(1, "loc_pred batch " + std::to_string(*lb) + " differs from cls_pred's " +
                        std::to_string(*cb));
      return call.Unknown();
    }
  }
  if (anchor->values) {
    auto a0 = (*anchor->values)[0].AsConst(), a2 = (*anchor->values)[2].AsConst();
    if ((a0 && *a0 != 1) || (a2 && *a2 != 4)) {
      call.Error(2, "anchor must have shape (1, N, 4), but got " + call.Describe(2));
      return call.Unknown();
    }
  }
  const std::string& v = cls->vdevice;
  if (!cls->values) {
    return call.Done(StructInfo::Tuple({MakeTensor(std::nullopt, 3, cls->dtype, v),
                                        MakeTensor(std::nullopt, 3, cls->dtype, v)}));
  }
  const Expr batch = (*cls->values)[0], num_classes = (*cls->values)[1],
             num_anchors = (*cls->values)[2];
  auto n = num_anchors.AsConst();
  if (n && loc_dim1 && *loc_dim1 != *n * 4) {
    call.Error(1, "loc_pred.shape[1] must be 4 * N = " + std::to_string(*n * 4) + ", but got " +
                      std::to_string(*loc_dim1));
    return call.Unknown();
  }
  if (n && anchor->values) {
    auto an = (*anchor->values)[1].AsConst();
    if (an && *an != *n) {
      call.Error(2, "anchor.shape[1] must be N = " + std::to_string(*n) + ", but got " +
                        std::to_string(*an));
      return call.Unknown();
    }
  }
  return call.Done(StructInfo::Tuple(
      {MakeTensor(std::vector<Expr>{batch, num_anchors, 4}, -1, cls->dtype, v),
       MakeTensor(std::vector<Expr>{batch, num_classes, num_anchors}, -1, cls->dtype, v)}));
}

// InferTypeLayoutTransform (src/relax/op/tensor/manipulate.cc): the index map applied to the
// shape. The pad_value dtype check is not mirrored (its dtype comes from the Python wrapper's
// conversion against x's dtype).
InferResult InferLayoutTransform(const OpInfo&, const std::vector<ArgValue>& args,
                                 const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0, "x");
  if (!x) return call.Unknown();
  const std::optional<Literal::Lambda>& map = call.Lit(1).lambda;
  if (!map) return call.Unknown();
  const int out_ndim = static_cast<int>(map->results.size());
  StructInfo vague = MakeTensor(std::nullopt, out_ndim, x->dtype, x->vdevice);
  if (x->ndim < 0) return call.Done(vague);
  if (static_cast<int>(map->params.size()) != x->ndim) {
    call.Error(1, "the index map takes " + std::to_string(map->params.size()) +
                      " indices, but the input has ndim " + std::to_string(x->ndim) + " (" +
                      call.Describe(0) + ")");
    return call.Unknown();
  }
  if (!x->values) return call.Done(vague);
  std::vector<Expr> out;
  for (const std::string& result : map->results) {
    auto extent = MapExtent(result, map->params, *x->values);
    if (!extent) return call.Done(vague);
    out.push_back(*extent);
  }
  return call.Done(MakeTensor(out, -1, x->dtype, x->vdevice));
}

InferResult InferRoiAlign(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  return RoiOp(args, ctx, /*align=*/true);
}

InferResult InferRoiPool(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  return RoiOp(args, ctx, /*align=*/false);
}

// InferTypeGridSample (src/relax/op/image/resize.cc): the data's layout converts to NCHW (to
// NCDHW when the layout attribute is exactly "NCDHW") and data has its rank; the result has the
// data's dims with the spatial ones taken from grid dims 2.. (grid is [N, 2, H_out, W_out] or
// [N, 3, D_out, H_out, W_out]), and the data's dtype and vdevice.
InferResult InferGridSample(const OpInfo&, const std::vector<ArgValue>& args,
                            const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* grid = call.Tensor(1, "grid");
  if (!data || !grid) return call.Unknown();
  auto layout_text = call.Lit(3).AsString();
  if (!layout_text) return call.Done(MakeTensor(std::nullopt, -1, data->dtype, data->vdevice));
  const bool ncdhw = *layout_text == "NCDHW";
  const std::string canonical = ncdhw ? "NCDHW" : "NCHW";
  auto layout = ParseLayout(call, 3, call.Lit(3), canonical);
  if (!layout) return call.Unknown();
  if (data->ndim >= 0 && data->ndim != layout->ndim) {
    call.Error(0, "layout " + layout->text + " needs a " + std::to_string(layout->ndim) +
                      "-d tensor, but got " + call.Describe(0));
    return call.Unknown();
  }
  StructInfo vague = MakeTensor(std::nullopt, layout->ndim, data->dtype, data->vdevice);
  if (!data->values || !grid->values) return call.Done(vague);
  const size_t spatial = ncdhw ? 3 : 2;
  const std::vector<Expr>& g = *grid->values;
  if (g.size() < spatial + 2) {
    // TVM reads grid dims 2..spatial+1 and fails on a grid with fewer dims.
    call.Error(1, "grid must have " + std::to_string(spatial + 2) + " dims [N, " +
                      std::to_string(spatial) + ", " + (ncdhw ? "D_out, " : "") +
                      "H_out, W_out], but got " + call.Describe(1));
    return call.Unknown();
  }
  if (layout->has_subaxes) return call.Done(vague);
  std::vector<Expr> out = *data->values;
  for (size_t i = 0; i < spatial; ++i) {
    out[static_cast<size_t>(layout->canonical_to_user[2 + i])] = g[2 + i];
  }
  return call.Done(MakeTensor(out, -1, data->dtype, data->vdevice));
}

// InferTypeInstanceNorm (src/relax/op/nn/nn.cc): channel_axis and axes normalized against the
// data's rank, channel_axis not in axes; gamma and beta of the data's dtype, 1-d, sized like the
// channel axis. The result is the data's type.
InferResult InferInstanceNorm(const OpInfo&, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* gamma = call.Tensor(1, "gamma");
  const StructInfo* beta = call.Tensor(2, "beta");
  if (!data || !gamma || !beta) return call.Unknown();
  std::optional<int> axis = NormChannelAxis(call, *data, 3, 4, /*axes_allow_scalar=*/false);
  if (!axis) return call.Unknown();
  int channel_axis = *axis;
  std::optional<Expr> channels;
  if (data->values && channel_axis >= 0) {
    channels = (*data->values)[static_cast<size_t>(channel_axis)];
  }
  if (!CheckNormScaleAndShift(call, *data, gamma, beta, channels, channel_axis)) return call.Unknown();
  return call.Done(*data);
}

// attention_var_len shares InferTypeAttention (src/relax/op/nn/attention.cc) with attention:
// every one of its seven inputs must be a tensor (GetInputTensorType), and the result comes from
// queries, keys and values alone.
InferResult InferAttentionVarLen(const OpInfo& op, const std::vector<ArgValue>& args,
                                 const InferContext& ctx) {
  Call call(args, ctx);
  const char* names[] = {"seqstart_q", "max_seqlen_q", "seqstart_k", "max_seqlen_k"};
  for (size_t i = 3; i < 7; ++i) call.Tensor(i, names[i - 3]);
  std::vector<ArgValue> qkv;
  for (size_t i = 0; i < 3; ++i) qkv.push_back(call.Arg(i));
  InferResult attention = InferAttention(op, qkv, ctx);
  InferResult out = call.Done(attention.info);
  for (const InferError& e : attention.errors) out.errors.push_back(e);
  if (!out.errors.empty()) out.info = StructInfo::Unknown();
  return out;
}


}  // namespace tvmls::ops
