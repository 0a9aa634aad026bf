// Inference of the indexing ops: gather/scatter, index_put/index_tensor, slice_scatter, one_hot,
// reverse_sequence, meshgrid and einsum (relax_ops.md §5.6, §5.7).
//
// Each function mirrors TVM's own inference, in its order of checks: FInferType in
// src/relax/op/tensor/manipulate.cc and linear_algebra.cc at HEAD, InferStructInfo* at v0.23.0
// (the two agree for these ops; reverse_sequence exists only at HEAD). einsum's shape follows
// topi::InferEinsumShape (src/topi/einsum.cc).
//
// One deliberate difference: where TVM raises an error only because something is unknown (an
// unknown dtype for scatter_nd, an unknown ndim for meshgrid, a known dtype against an unknown one
// for einsum), the result here is unknown and silent, since tvmls's "unknown" may be vaguer than
// what TVM knows.
#include <algorithm>
#include <cctype>
#include <map>

#include "ops/infer_common.h"
#include "vocab/dtype.h"

namespace tvmls::ops {

using arith::Expr;
using types::Kind;

namespace {

/// A known dtype that is neither intN nor uintN (TVM: code not kDLInt/kDLUInt; bool is kDLBool).
bool KnownNonInteger(const std::string& dtype) {
  return vocab::IsKnownDType(dtype) && !vocab::IsIntDType(dtype);
}

/// A known dtype that is not intN (TVM: code != kDLInt, so uintN and bool fail too).
bool KnownNonSignedInt(const std::string& dtype) {
  return vocab::IsKnownDType(dtype) && !(vocab::IsIntDType(dtype) && dtype.rfind("int", 0) == 0);
}

std::string VDeviceKey(const std::string& v) {
  if (v.empty() || v.find(':') != std::string::npos) return v;
  return v + ":0";
}

/// GetTensorTypeFromTuple: the argument must be a tuple whose fields are all tensors. nullopt
/// when unknown (silent: the argument or a field is unknown) or wrong (an error at `param`).
std::optional<std::vector<StructInfo>> TensorTuple(Call& call, size_t param, const char* op) {
  const StructInfo& info = call.Info(param);
  if (info.kind == Kind::kUnknown) return std::nullopt;
  if (info.kind != Kind::kTuple) {
    call.Error(static_cast<int>(param),
               std::string(op) + " expects a tuple of tensors, but got " + call.Describe(param));
    return std::nullopt;
  }
  for (size_t i = 0; i < info.fields.size(); ++i) {
    const StructInfo& field = info.fields[i];
    if (field.kind == Kind::kTensor) continue;
    if (field.kind == Kind::kUnknown) return std::nullopt;
    call.Error(static_cast<int>(param), std::string(op) +
                                            " expects a tuple of tensors, but field " +
                                            std::to_string(i) + " is " + types::Print(field));
    return std::nullopt;
  }
  return info.fields;
}

/// An integer PrimExpr operand (slice_scatter's start/end/step, one_hot's on/off values): a
/// literal (ints are int64, floats float64, as `prim_value` converts them) or an R.Prim value.
struct PrimOperand {
  std::string dtype;          // "" when unknown
  std::optional<Expr> value;  // integer value, when known
};

PrimOperand GetPrimOperand(const Call& call, size_t i) {
  PrimOperand out;
  const ArgValue& arg = call.Arg(i);
  const Literal& lit = arg.literal;
  switch (lit.kind) {
    case Literal::Kind::kInt:
    case Literal::Kind::kExpr:
      // A bare symbolic expression keeps its var's dtype (int64 in Relax signatures).
      out.dtype =
          arg.info.kind == Kind::kPrim && !arg.info.dtype.empty() ? arg.info.dtype : "int64";
      out.value = lit.AsExpr();
      return out;
    case Literal::Kind::kFloat:
      out.dtype =
          arg.info.kind == Kind::kPrim && !arg.info.dtype.empty() ? arg.info.dtype : "float64";
      return out;
    default:
      break;
  }
  if (arg.info.kind == Kind::kPrim) {
    out.dtype = arg.info.dtype;
    if (vocab::IsIntDType(out.dtype)) out.value = arg.info.prim_value;
  }
  return out;
}

/// The dims of a tensor when known and free of opaque values (a strict "provably equal" check
/// can only be trusted on those).
bool StrictlyComparable(const std::vector<Expr>& dims) { return !types::HasOpaque(dims); }

}  // namespace

// ---- scatter / gather ---------------------------------------------------------------------

// InferTypeScatterElements: data, indices, updates are tensors; when data's ndim is known the
// three ranks agree (checked when indices and updates have known ndim), data and updates share a
// dtype, indices are integers, indices and updates have no provably different dim. Result: data's
// shape values (a shape variable is not kept), else its ndim. The axis is not checked.
InferResult InferScatterElements(const OpInfo&, const std::vector<ArgValue>& args,
                                 const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* indices = call.Tensor(1, "indices");
  const StructInfo* updates = call.Tensor(2, "updates");
  if (call.HasErrors() || !data) return call.Unknown();
  if (data->ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, data->dtype, data->vdevice));
  if (indices && updates && indices->ndim >= 0 && updates->ndim >= 0) {
    if (data->ndim != indices->ndim) {
      call.Error(1, "scatter_elements requires indices of the same rank as data, but data has " +
                        std::to_string(data->ndim) + " dims and indices " +
                        std::to_string(indices->ndim));
      return call.Unknown();
    }
    if (indices->ndim != updates->ndim) {
      call.Error(2,
                 "scatter_elements requires updates of the same rank as indices, but indices "
                 "has " +
                     std::to_string(indices->ndim) + " dims and updates " +
                     std::to_string(updates->ndim));
      return call.Unknown();
    }
  }
  if (updates && !data->dtype.empty() && !updates->dtype.empty() && data->dtype != updates->dtype) {
    call.Error(2, "scatter_elements requires updates of data's dtype, but got data " + data->dtype +
                      " and updates " + updates->dtype);
    return call.Unknown();
  }
  if (indices && KnownNonInteger(indices->dtype)) {
    call.Error(1, "scatter_elements requires integer indices, but got dtype " + indices->dtype);
    return call.Unknown();
  }
  if (indices && updates && indices->values && updates->values &&
      indices->values->size() == updates->values->size()) {
    for (size_t i = 0; i < indices->values->size(); ++i) {
      if (ProvablyDifferent(call, (*indices->values)[i], (*updates->values)[i])) {
        call.Error(2,
                   "scatter_elements requires updates of the same shape as indices, but got "
                   "indices " +
                       DimsText(*indices->values) + " and updates " + DimsText(*updates->values));
        return call.Unknown();
      }
    }
  }
  return call.Done(MakeTensor(data->values, data->ndim, data->dtype, data->vdevice));
}

// InferTypeScatterND: data and updates need known, equal dtypes (unknown: TVM errors; silent
// here), integer indices. With all three shapes known: the last dim K of indices must be a
// constant, updates.ndim == data.ndim + indices.ndim - K - 1, K <= data.ndim, and updates.shape
// must provably equal indices.shape[:-1] + data.shape[K:] (strict). Result as scatter_elements.
InferResult InferScatterNd(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* indices = call.Tensor(1, "indices");
  const StructInfo* updates = call.Tensor(2, "updates");
  if (call.HasErrors() || !data) return call.Unknown();
  if (data->dtype.empty() || (updates && updates->dtype.empty())) return call.Unknown();
  if (updates && data->dtype != updates->dtype) {
    call.Error(2, "scatter_nd requires updates of data's dtype, but got data " + data->dtype +
                      " and updates " + updates->dtype);
    return call.Unknown();
  }
  if (indices && KnownNonInteger(indices->dtype)) {
    call.Error(1, "scatter_nd requires integer indices, but got dtype " + indices->dtype);
    return call.Unknown();
  }
  if (indices && updates && data->values && indices->values && updates->values) {
    const auto& d = *data->values;
    const auto& ind = *indices->values;
    const auto& upd = *updates->values;
    if (ind.empty()) {
      call.Error(1,
                 "scatter_nd requires indices with at least one dim, but got " + call.Describe(1));
      return call.Unknown();
    }
    auto k = ind.back().AsConst();
    if (!k) {
      if (types::HasOpaque({ind.back()})) return call.Unknown();  // maybe a constant to TVM
      call.Error(1, "scatter_nd needs a static extent for the last axis of indices, but got " +
                        DimsText(ind));
      return call.Unknown();
    }
    // A huge extent is certainly wrong, but keep the arithmetic below overflow-free.
    if (!SmallInt(Literal::Int(*k))) return call.Unknown();
    int64_t dn = static_cast<int64_t>(d.size()), in = static_cast<int64_t>(ind.size());
    if (dn + in - *k - 1 != static_cast<int64_t>(upd.size())) {
      call.Error(2,
                 "scatter_nd requires updates of rank data.ndim + indices.ndim - "
                 "indices.shape[-1] - 1, but got data " +
                     DimsText(d) + ", indices " + DimsText(ind) + ", updates " + DimsText(upd));
      return call.Unknown();
    }
    if (*k > dn) {
      call.Error(1, "scatter_nd requires indices.shape[-1] <= data.ndim, but got data " +
                        DimsText(d) + " and indices " + DimsText(ind));
      return call.Unknown();
    }
    std::vector<Expr> expected(ind.begin(), ind.end() - 1);
    if (*k >= 0) expected.insert(expected.end(), d.begin() + *k, d.end());
    bool ok = expected.size() == upd.size();
    bool strict = StrictlyComparable(expected) && StrictlyComparable(upd);
    for (size_t i = 0; ok && i < upd.size(); ++i) {
      if (ProvablyEqual(call, expected[i], upd[i])) continue;
      if (!strict && !ProvablyDifferent(call, expected[i], upd[i])) return call.Unknown();
      ok = false;
    }
    if (!ok) {
      call.Error(2,
                 "scatter_nd requires updates.shape == indices.shape[:-1] + data.shape[K:] "
                 "(provably equal), but got updates " +
                     DimsText(upd) + ", indices " + DimsText(ind) + ", data " + DimsText(d));
      return call.Unknown();
    }
  }
  return call.Done(MakeTensor(data->values, data->ndim, data->dtype, data->vdevice));
}

// InferTypeGatherElements: indices of an intN dtype; with both ranks known, the axis in
// [-ndim, ndim) and equal ranks. Result: indices' shape (a shape variable is kept), data's dtype.
InferResult InferGatherElements(const OpInfo&, const std::vector<ArgValue>& args,
                                const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* indices = call.Tensor(1, "indices");
  if (call.HasErrors() || !data || !indices) return call.Unknown();
  if (KnownNonSignedInt(indices->dtype)) {
    call.Error(
        1, "gather_elements requires indices of a signed integer dtype, but got " + indices->dtype);
    return call.Unknown();
  }
  if (data->ndim < 0 || indices->ndim < 0) {
    return call.Done(MakeTensor(std::nullopt, -1, data->dtype, data->vdevice));
  }
  if (auto axis = SmallInt(call.Lit(2))) {
    if (*axis < -data->ndim || *axis >= data->ndim) {
      call.Error(2, "gather_elements axis " + std::to_string(*axis) +
                        " is out of range for data of ndim " + std::to_string(data->ndim) +
                        " (valid: [" + std::to_string(-data->ndim) + ", " +
                        std::to_string(data->ndim - 1) + "])");
      return call.Unknown();
    }
  }
  if (data->ndim != indices->ndim) {
    call.Error(1, "gather_elements requires indices of the same rank as data, but data has " +
                      std::to_string(data->ndim) + " dims and indices " +
                      std::to_string(indices->ndim));
    return call.Unknown();
  }
  StructInfo out = *indices;
  out.dtype = data->dtype;
  out.vdevice = data->vdevice;
  return call.Done(out);
}

// InferTypeGatherND: batch_dims >= 0, int64 indices; with both ranks known, batch_dims <=
// data.ndim and <= indices.ndim - 1. The last dim l of indices must be a constant for a known
// rank; output ndim = indices.ndim + data.ndim - l - 1 - batch_dims; with data's shape known,
// l <= data.ndim - batch_dims and the result is indices.shape[:-1] + data.shape[batch_dims+l:].
InferResult InferGatherNd(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* indices = call.Tensor(1, "indices");
  if (call.HasErrors() || !data || !indices) return call.Unknown();
  auto batch_dims = SmallInt(call.Lit(2));
  if (batch_dims && *batch_dims < 0) {
    call.Error(2, "gather_nd requires batch_dims >= 0, but got " + std::to_string(*batch_dims));
    return call.Unknown();
  }
  if (!indices->dtype.empty() && vocab::IsKnownDType(indices->dtype) && indices->dtype != "int64") {
    call.Error(1, "gather_nd requires int64 indices, but got dtype " + indices->dtype);
    return call.Unknown();
  }
  StructInfo vague = MakeTensor(std::nullopt, -1, data->dtype, data->vdevice);
  if (data->ndim < 0 || indices->ndim < 0 || !batch_dims) return call.Done(vague);
  int64_t b = *batch_dims;
  if (b > data->ndim) {
    call.Error(2, "gather_nd requires batch_dims in [0, data.ndim], but got batch_dims=" +
                      std::to_string(b) + ", data.ndim=" + std::to_string(data->ndim));
    return call.Unknown();
  }
  if (b > indices->ndim - 1) {
    call.Error(2, "gather_nd requires batch_dims <= indices.ndim - 1, but got batch_dims=" +
                      std::to_string(b) + ", indices.ndim=" + std::to_string(indices->ndim));
    return call.Unknown();
  }
  if (!indices->values) return call.Done(vague);
  auto l = SmallInt(Literal::FromExpr(indices->values->back()));
  if (!l) return call.Done(vague);
  int64_t out_ndim = indices->ndim + data->ndim - *l - 1 - b;
  std::string too_long =
      "gather_nd requires indices.shape[-1] <= data.ndim - batch_dims, but got "
      "indices " +
      DimsText(*indices->values) + ", data " + call.Describe(0) +
      ", batch_dims=" + std::to_string(b);
  if (!data->values) {
    // TVM builds R.Tensor(ndim=out_ndim): -1 is an unknown rank, below -1 an error.
    if (out_ndim < -1) {
      call.Error(1, too_long);
      return call.Unknown();
    }
    return call.Done(
        MakeTensor(std::nullopt, static_cast<int>(out_ndim), data->dtype, data->vdevice));
  }
  if (*l > data->ndim - b) {
    call.Error(1, too_long);
    return call.Unknown();
  }
  std::vector<Expr> out(indices->values->begin(), indices->values->end() - 1);
  for (int64_t i = std::max<int64_t>(b + *l, 0); i < data->ndim; ++i) {
    out.push_back((*data->values)[static_cast<size_t>(i)]);
  }
  if (static_cast<int64_t>(out.size()) != out_ndim) return call.Done(vague);  // l < 0
  return call.Done(MakeTensor(out, -1, data->dtype, data->vdevice));
}

// ---- index_put / index_tensor -------------------------------------------------------------

// InferTypeIndexPut: data and values are tensors; indices one tensor or a tuple of tensors.
// With data's ndim known: every index tensor of known ndim has >= 1 dim and an integer dtype,
// there is one index tensor per data dim, and data and values share a known dtype. Result:
// data's shape values, else its ndim.
InferResult InferIndexPut(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* values = call.Tensor(2, "values");
  if (call.HasErrors()) return call.Unknown();
  const StructInfo& idx = call.Info(1);
  std::vector<const StructInfo*> index_tensors;
  bool count_known = true;
  if (idx.kind == Kind::kTuple) {
    for (size_t i = 0; i < idx.fields.size(); ++i) {
      const StructInfo& field = idx.fields[i];
      if (field.kind == Kind::kTensor) {
        index_tensors.push_back(&field);
      } else if (field.kind == Kind::kUnknown) {
        index_tensors.push_back(nullptr);
      } else {
        call.Error(1, "index_put requires a tuple of index tensors, but field " +
                          std::to_string(i) + " is " + types::Print(field));
        return call.Unknown();
      }
    }
  } else if (idx.kind == Kind::kTensor) {
    index_tensors.push_back(&idx);
  } else if (idx.kind == Kind::kUnknown) {
    count_known = false;
  } else {
    call.Error(1, "index_put requires indices to be a tensor or a tuple of tensors, but got " +
                      call.Describe(1));
    return call.Unknown();
  }
  if (!data) return call.Unknown();
  if (data->ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, data->dtype, data->vdevice));
  for (size_t i = 0; i < index_tensors.size(); ++i) {
    const StructInfo* t = index_tensors[i];
    if (!t) continue;
    if (t->ndim >= 0 && t->ndim < 1) {
      call.Error(1, "index_put requires every index tensor to have at least 1 dim, but index " +
                        std::to_string(i) + " is " + types::Print(*t));
      return call.Unknown();
    }
    if (KnownNonInteger(t->dtype)) {
      call.Error(1, "index_put requires integer index tensors, but index " + std::to_string(i) +
                        " has dtype " + t->dtype);
      return call.Unknown();
    }
  }
  if (count_known && index_tensors.size() != static_cast<size_t>(data->ndim)) {
    call.Error(1, "index_put requires one index tensor per data dim, but got " +
                      std::to_string(index_tensors.size()) + " for data of ndim " +
                      std::to_string(data->ndim));
    return call.Unknown();
  }
  if (values && !data->dtype.empty() && !values->dtype.empty() && data->dtype != values->dtype) {
    call.Error(2, "index_put requires values of data's dtype, but got data " + data->dtype +
                      " and values " + values->dtype);
    return call.Unknown();
  }
  return call.Done(MakeTensor(data->values, data->ndim, data->dtype, data->vdevice));
}

// InferTypeIndexTensor: a non-empty tuple of intN index tensors, at most data.ndim of them; their
// shapes broadcast (from a shape of 1s, left to right; literal conflicts are errors, the first
// unprovable pair gives up). Result: broadcast shape + data.shape[k:], or only the ndim.
InferResult InferIndexTensor(const OpInfo&, const std::vector<ArgValue>& args,
                             const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  auto indices = TensorTuple(call, 1, "index_tensor");
  if (call.HasErrors() || !data || !indices) return call.Unknown();
  if (indices->empty()) {
    call.Error(1, "index_tensor expects a non-empty tuple of index tensors");
    return call.Unknown();
  }
  int n = static_cast<int>(indices->size());
  for (int i = 0; i < n; ++i) {
    const std::string& dtype = (*indices)[static_cast<size_t>(i)].dtype;
    if (KnownNonSignedInt(dtype)) {
      call.Error(1,
                 "index_tensor requires every index tensor to have a signed integer dtype, "
                 "but index " +
                     std::to_string(i) + " has dtype " + dtype);
      return call.Unknown();
    }
  }
  if (data->ndim >= 0 && n > data->ndim) {
    call.Error(1, "index_tensor got " + std::to_string(n) + " index tensors, but data has only " +
                      std::to_string(data->ndim) + " dims");
    return call.Unknown();
  }
  bool all_values = true;
  int max_ndim = 0;
  for (const StructInfo& t : *indices) {
    if (!t.values) {
      all_values = false;
    } else {
      max_ndim = std::max(max_ndim, static_cast<int>(t.values->size()));
    }
    if (t.ndim >= 0) max_ndim = std::max(max_ndim, t.ndim);
  }
  bool shape_unknown = !all_values;
  std::optional<std::vector<Expr>> broadcast;
  if (all_values) {
    std::vector<Expr> out(static_cast<size_t>(max_ndim), Expr(1));
    for (const StructInfo& t : *indices) {
      const auto& dims = *t.values;
      int cur = static_cast<int>(dims.size());
      for (int axis = 0; axis < max_ndim; ++axis) {
        int lhs_axis = max_ndim - 1 - axis;
        int rhs_axis = cur - 1 - axis;
        if (rhs_axis < 0) break;
        const Expr& lhs = out[static_cast<size_t>(lhs_axis)];
        const Expr& rhs = dims[static_cast<size_t>(rhs_axis)];
        auto lc = lhs.AsConst(), rc = rhs.AsConst();
        if (lc && *lc == 1) {
          out[static_cast<size_t>(lhs_axis)] = rhs;
          continue;
        }
        if (rc && *rc == 1) continue;
        if (lc && rc && *lc != *rc) {
          call.Error(1, "index_tensor cannot broadcast the index shapes: dim " +
                            std::to_string(lhs_axis) + " is " + lhs.ToString() + " vs " +
                            rhs.ToString());
          return call.Unknown();
        }
        if (!ProvablyEqual(call, lhs, rhs)) {
          shape_unknown = true;
          break;
        }
      }
      if (shape_unknown) break;
    }
    if (!shape_unknown) broadcast = out;
  }
  if (broadcast && data->values) {
    std::vector<Expr> out = *broadcast;
    out.insert(out.end(), data->values->begin() + n, data->values->end());
    return call.Done(MakeTensor(out, -1, data->dtype, data->vdevice));
  }
  int out_ndim = -1;
  if (data->ndim >= 0 && broadcast) {
    out_ndim = static_cast<int>(broadcast->size()) + data->ndim - n;
  }
  return call.Done(MakeTensor(std::nullopt, out_ndim, data->dtype, data->vdevice));
}

// ---- slice_scatter, one_hot, reverse_sequence ---------------------------------------------

// InferTypeSliceScatter: with data's ndim known: axis in [-ndim, ndim), src of data's rank and
// dtype, start/end/step integer PrimExprs with step >= 1 and start <= end unless provably not.
// With both shapes known, every dim but the axis must not provably differ, and src's axis dim
// must not provably differ from ceildiv(end - start, step). Result: data's shape (a shape variable
// is kept), else its ndim.
InferResult InferSliceScatter(const OpInfo&, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "input_tensor");
  const StructInfo* src = call.Tensor(1, "src");
  if (call.HasErrors() || !data) return call.Unknown();
  if (data->ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, data->dtype, data->vdevice));
  int ndim = data->ndim;
  auto raw_axis = SmallInt(call.Lit(5));
  if (raw_axis && (*raw_axis < -ndim || *raw_axis >= ndim)) {
    call.Error(5, "slice_scatter axis " + std::to_string(*raw_axis) +
                      " is out of range for data of ndim " + std::to_string(ndim) + " (valid: [" +
                      std::to_string(-ndim) + ", " + std::to_string(ndim - 1) + "])");
    return call.Unknown();
  }
  if (src && src->ndim >= 0 && src->ndim != ndim) {
    call.Error(1, "slice_scatter requires src of the data's rank, but data has " +
                      std::to_string(ndim) + " dims and src " + std::to_string(src->ndim));
    return call.Unknown();
  }
  if (src && !data->dtype.empty() && !src->dtype.empty() && data->dtype != src->dtype) {
    call.Error(1, "slice_scatter requires src of data's dtype, but got data " + data->dtype +
                      " and src " + src->dtype);
    return call.Unknown();
  }
  static const char* const kNames[] = {"start", "end", "step"};
  PrimOperand bounds[3];
  for (size_t k = 0; k < 3; ++k) {
    bounds[k] = GetPrimOperand(call, 2 + k);
    if (KnownNonInteger(bounds[k].dtype)) {
      call.Error(static_cast<int>(2 + k), std::string("slice_scatter expects `") + kNames[k] +
                                              "` to be an integer, but got dtype " +
                                              bounds[k].dtype);
      return call.Unknown();
    }
  }
  const auto& start = bounds[0].value;
  const auto& end = bounds[1].value;
  const auto& step = bounds[2].value;
  if (step && call.Facts().ProveLess(*step, 1) == arith::Tri::kProved) {
    call.Error(4, "slice_scatter requires step >= 1, but got " + step->ToString());
    return call.Unknown();
  }
  if (start && end && call.Facts().ProveLess(*end, *start) == arith::Tri::kProved) {
    call.Error(3, "slice_scatter requires start <= end, but got start " + start->ToString() +
                      " and end " + end->ToString());
    return call.Unknown();
  }
  const StructInfo& out = *data;  // TVM keeps data's shape, a shape variable included
  if (!raw_axis || !src || !data->values || !src->values) return call.Done(out);
  int axis = static_cast<int>(*raw_axis < 0 ? *raw_axis + ndim : *raw_axis);
  for (int i = 0; i < ndim; ++i) {
    if (i == axis) continue;
    const Expr& d = (*data->values)[static_cast<size_t>(i)];
    const Expr& s = (*src->values)[static_cast<size_t>(i)];
    if (ProvablyDifferent(call, d, s)) {
      call.Error(1, "slice_scatter requires src of data's shape except at the axis " +
                        std::to_string(axis) + ", but dim " + std::to_string(i) + " is " +
                        d.ToString() + " in data and " + s.ToString() + " in src");
      return call.Unknown();
    }
  }
  if (start && end && step) {
    Expr num = Expr::FloorDiv(*end - *start + *step - 1, *step);
    const Expr& s = (*src->values)[static_cast<size_t>(axis)];
    if (!num.IsOverflow() && ProvablyDifferent(call, s, num)) {
      call.Error(1, "slice_scatter requires src's dim " + std::to_string(axis) + " (" +
                        s.ToString() + ") to equal the number of elements in the slice (" +
                        num.ToString() + ")");
      return call.Unknown();
    }
  }
  return call.Done(out);
}

// one_hot (the Python constructor and InferTypeOneHot): on_value and off_value of one dtype,
// depth > 0, integer indices. Result dtype: on_value's. Unknown indices ndim -> unknown ndim; no
// shape -> ndim + 1; else depth inserted at axis (negative: + ndim + 1; must be in [0, ndim]).
InferResult InferOneHot(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* indices = call.Tensor(0, "indices");
  PrimOperand on = GetPrimOperand(call, 1), off = GetPrimOperand(call, 2);
  if (!on.dtype.empty() && !off.dtype.empty() && on.dtype != off.dtype) {
    call.Error(2, "one_hot requires on_value and off_value of one dtype, but got " + on.dtype +
                      " and " + off.dtype);
  }
  auto depth = SmallInt(call.Lit(3));
  if (depth && *depth <= 0) {
    call.Error(3, "one_hot requires a positive depth, but got " + std::to_string(*depth));
  }
  if (call.HasErrors() || !indices) return call.Unknown();
  if (KnownNonInteger(indices->dtype)) {
    call.Error(0, "one_hot requires integer indices, but got dtype " + indices->dtype);
    return call.Unknown();
  }
  const std::string& dtype = on.dtype;
  if (indices->ndim < 0) return call.Done(MakeTensor(std::nullopt, -1, dtype, indices->vdevice));
  StructInfo vague = MakeTensor(std::nullopt, indices->ndim + 1, dtype, indices->vdevice);
  if (!indices->values) return call.Done(vague);
  auto axis = SmallInt(call.Lit(4));
  if (!axis || !depth) return call.Done(vague);
  int64_t size = static_cast<int64_t>(indices->values->size());
  int64_t a = *axis < 0 ? *axis + size + 1 : *axis;
  if (a < 0 || a > size) {
    call.Error(4, "one_hot axis " + std::to_string(*axis) +
                      " is out of range for indices of ndim " + std::to_string(size) +
                      " (valid: [" + std::to_string(-size - 1) + ", " + std::to_string(size) +
                      "])");
    return call.Unknown();
  }
  std::vector<Expr> out = *indices->values;
  out.insert(out.begin() + a, Expr(*depth));
  return call.Done(MakeTensor(out, -1, dtype, indices->vdevice));
}

// InferTypeReverseSequence (HEAD only): seq_lengths 1-D, int32 or int64; with data's ndim known
// both axes in [-ndim, ndim) and seq_lengths.shape[0] not provably different from the batch dim.
// Result: data's struct info unchanged.
InferResult InferReverseSequence(const OpInfo&, const std::vector<ArgValue>& args,
                                 const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  const StructInfo* lengths = call.Tensor(1, "seq_lengths");
  if (call.HasErrors() || !data) return call.Unknown();
  if (lengths) {
    if (lengths->ndim >= 0 && lengths->ndim != 1) {
      call.Error(1, "reverse_sequence requires 1-d seq_lengths, but got " + call.Describe(1));
      return call.Unknown();
    }
    const std::string& dt = lengths->dtype;
    if (vocab::IsKnownDType(dt) && !(dt == "int32" || dt == "int64" || dt.rfind("int32x", 0) == 0 ||
                                     dt.rfind("int64x", 0) == 0)) {
      call.Error(1, "reverse_sequence requires seq_lengths of dtype int32 or int64, but got " + dt);
      return call.Unknown();
    }
  }
  if (data->ndim >= 0) {
    int ndim = data->ndim;
    static const char* const kNames[] = {"seq_axis", "batch_axis"};
    std::optional<int64_t> axes[2] = {SmallInt(call.Lit(2)), SmallInt(call.Lit(3))};
    for (int k = 0; k < 2; ++k) {
      if (axes[k] && (*axes[k] < -ndim || *axes[k] >= ndim)) {
        call.Error(2 + k, std::string("reverse_sequence ") + kNames[k] + " " +
                              std::to_string(*axes[k]) + " is out of range for data of ndim " +
                              std::to_string(ndim) + " (valid: [" + std::to_string(-ndim) + ", " +
                              std::to_string(ndim) + "))");
        return call.Unknown();
      }
    }
    if (axes[1] && lengths && data->values && lengths->values && !lengths->values->empty()) {
      int64_t batch = *axes[1] < 0 ? *axes[1] + ndim : *axes[1];
      const Expr& extent = (*data->values)[static_cast<size_t>(batch)];
      const Expr& len = (*lengths->values)[0];
      if (ProvablyDifferent(call, len, extent)) {
        call.Error(1, "reverse_sequence requires seq_lengths.shape[0] (" + len.ToString() +
                          ") to equal data's batch dim " + std::to_string(batch) + " (" +
                          extent.ToString() + ")");
        return call.Unknown();
      }
    }
  }
  return call.Done(*data);
}

// ---- meshgrid, einsum ---------------------------------------------------------------------

// InferTypeMeshgrid: a non-empty tuple of 1-D tensors of one dtype. Tensors of unknown dtype are
// skipped (they then make the shape unknown). Result: a tuple of N tensors of shape
// (len0, ..., lenN-1), else of ndim N; the vdevice kept when all that have one agree. `indexing`
// does not change the shapes.
InferResult InferMeshgrid(const OpInfo&, const std::vector<ArgValue>& args,
                          const InferContext& ctx) {
  Call call(args, ctx);
  auto tensors = TensorTuple(call, 0, "meshgrid");
  if (!tensors) return call.Unknown();
  int n = static_cast<int>(tensors->size());
  if (n == 0) {
    call.Error(0, "meshgrid expects at least one 1-d tensor");
    return call.Unknown();
  }
  std::vector<Expr> lengths;
  std::string dtype;
  bool shape_unknown = false;
  std::string vdevice;
  bool vdevice_unknown = false;
  for (int i = 0; i < n; ++i) {
    const StructInfo& t = (*tensors)[static_cast<size_t>(i)];
    if (t.ndim < 0) return call.Unknown();  // TVM: an error (ndim must be 1); silent here
    if (t.ndim != 1) {
      call.Error(0, "meshgrid expects 1-d tensors, but tensor " + std::to_string(i) + " is " +
                        types::Print(t));
      return call.Unknown();
    }
    if (t.dtype.empty()) continue;
    if (dtype.empty()) {
      dtype = t.dtype;
    } else if (t.dtype != dtype) {
      call.Error(0, "meshgrid expects tensors of one dtype, but got " + t.dtype + " and " + dtype);
      return call.Unknown();
    }
    if (t.values && t.values->size() == 1) {
      lengths.push_back((*t.values)[0]);
    } else {
      shape_unknown = true;
    }
    if (!vdevice_unknown && !t.vdevice.empty()) {
      if (vdevice.empty()) {
        vdevice = t.vdevice;
      } else if (VDeviceKey(t.vdevice) != VDeviceKey(vdevice)) {
        vdevice_unknown = true;
      }
    }
  }
  if (vdevice_unknown) vdevice.clear();
  bool known = !shape_unknown && lengths.size() == static_cast<size_t>(n);
  std::vector<StructInfo> fields;
  for (int i = 0; i < n; ++i) {
    fields.push_back(known ? MakeTensor(lengths, -1, dtype, vdevice)
                           : MakeTensor(std::nullopt, n, dtype, vdevice));
  }
  return call.Done(StructInfo::Tuple(std::move(fields)));
}

namespace {

constexpr char kEllipsis = '\0';

struct EinsumEquation {
  std::vector<std::string> inputs;  // labels; kEllipsis for `...`
  std::string output;
};

// EinsumEquation::FromString: nullopt (with *error set) where TVM's parser fails.
std::optional<EinsumEquation> ParseEinsum(const std::string& text, std::string* error) {
  EinsumEquation out;
  std::string current;
  bool has_arrow = false, has_ellipsis = false;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    if (c == ' ') continue;
    if (c == '-' || c == ',') {
      if (c == '-') {
        if (has_arrow) {
          *error = "an einsum equation can only have one arrow";
          return std::nullopt;
        }
        if (!(i + 1 < n && text[i + 1] == '>')) {
          *error = "invalid arrow in the einsum equation";
          return std::nullopt;
        }
        ++i;
        has_arrow = true;
      }
      out.inputs.push_back(current);
      current.clear();
      has_ellipsis = false;
    } else if (c == '.') {
      if (has_ellipsis) {
        *error = "an ellipsis can only appear once in each einsum operand and the output";
        return std::nullopt;
      }
      if (!(i + 2 < n && text[i + 1] == '.' && text[i + 2] == '.')) {
        *error = "invalid ellipsis in the einsum equation";
        return std::nullopt;
      }
      current.push_back(kEllipsis);
      has_ellipsis = true;
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      current.push_back(c);
    } else {
      *error = std::string("invalid character '") + c + "' in the einsum equation";
      return std::nullopt;
    }
  }
  if (has_arrow) {
    out.output = current;
  } else {
    out.inputs.push_back(current);
    std::map<char, int> counts;  // implicit mode: labels seen once, sorted, ellipsis first
    for (const std::string& s : out.inputs) {
      for (char label : s) ++counts[label];
    }
    for (const auto& [label, count] : counts) {
      if (label == kEllipsis || count == 1) out.output.push_back(label);
    }
  }
  return out;
}

std::string LabelText(char label) { return label == kEllipsis ? "..." : std::string(1, label); }

// InferEinsumShape's error: the parameter at fault and the message.
struct EinsumError {
  int param = 0;
  std::string message;
};

// GetBroadcastedExtent (per label): equal constants, or a constant 1 (the max); one constant ->
// the symbolic one; two symbolic -> max. Two different non-1 constants are an error.
std::optional<Expr> LabelExtent(const Expr& a, const Expr& b) {
  auto ca = a.AsConst(), cb = b.AsConst();
  if (ca && cb) {
    if (*ca == *cb) return a;
    if (*ca == 1 || *cb == 1) return Expr(std::max(*ca, *cb));
    return std::nullopt;
  }
  if (ca) return b;
  if (cb) return a;
  return Expr::Max(a, b);
}

// topi::detail::BroadcastShape for the ellipsis sub-shapes (a static dim wins over a symbolic
// one, unlike LabelExtent).
std::optional<std::vector<Expr>> BroadcastEllipsis(const std::vector<Expr>& s1,
                                                   const std::vector<Expr>& s2) {
  size_t n1 = s1.size(), n2 = s2.size(), n = std::max(n1, n2);
  std::vector<Expr> out(n);
  size_t i = 1;
  for (; i <= std::min(n1, n2); ++i) {
    const Expr& a = s1[n1 - i];
    const Expr& b = s2[n2 - i];
    auto ca = a.AsConst(), cb = b.AsConst();
    Expr& slot = out[n - i];
    if (a == b) {
      slot = a;
    } else if (ca && *ca == 1) {
      slot = b;
    } else if (cb && *cb == 1) {
      slot = a;
    } else if (!ca && !cb) {
      slot = Expr::Max(a, b);
    } else if (!ca) {
      slot = b;
    } else if (!cb) {
      slot = a;
    } else {
      return std::nullopt;
    }
  }
  const std::vector<Expr>& longer = n1 > n2 ? s1 : s2;
  for (; i <= n; ++i) out[n - i] = longer[n - i];
  return out;
}

std::optional<std::vector<Expr>> EinsumShape(const EinsumEquation& eq,
                                             const std::vector<std::vector<Expr>>& shapes,
                                             EinsumError* error) {
  if (eq.inputs.size() != shapes.size()) {
    *error = {1, "the einsum equation has " + std::to_string(eq.inputs.size()) + " operands, but " +
                     std::to_string(shapes.size()) + " tensors are given"};
    return std::nullopt;
  }
  std::map<char, Expr> extents;
  std::vector<std::vector<Expr>> ellipsis_shapes;
  for (size_t k = 0; k < shapes.size(); ++k) {
    const std::string& labels = eq.inputs[k];
    const std::vector<Expr>& shape = shapes[k];
    int rank = static_cast<int>(shape.size());
    std::string where = "operand " + std::to_string(k) + " " + DimsText(shape);
    int dim = 0;
    for (char label : labels) {
      if (label == kEllipsis) {
        int count = rank - static_cast<int>(labels.size()) + 1;
        if (count < 0) {
          *error = {0, "einsum: " + where + " has fewer dims than its subscript has labels"};
          return std::nullopt;
        }
        ellipsis_shapes.emplace_back(shape.begin() + dim, shape.begin() + dim + count);
        dim += count;
        continue;
      }
      if (dim >= rank) {
        *error = {0, "einsum: " + where + " has fewer dims than its subscript has labels"};
        return std::nullopt;
      }
      const Expr& extent = shape[static_cast<size_t>(dim++)];
      auto it = extents.find(label);
      if (it == extents.end()) {
        extents.emplace(label, extent);
        continue;
      }
      auto merged = LabelExtent(it->second, extent);
      if (!merged) {
        *error = {0, "einsum: label '" + LabelText(label) + "' has extents " +
                         it->second.ToString() + " and " + extent.ToString() +
                         ", which do not broadcast"};
        return std::nullopt;
      }
      it->second = *merged;
    }
    if (dim != rank) {
      *error = {0, "einsum: " + where + " has more dims than its subscript has labels"};
      return std::nullopt;
    }
  }
  std::vector<Expr> ellipsis;
  if (!ellipsis_shapes.empty()) {
    ellipsis = *std::max_element(
        ellipsis_shapes.begin(), ellipsis_shapes.end(),
        [](const std::vector<Expr>& a, const std::vector<Expr>& b) { return a.size() < b.size(); });
    for (const std::vector<Expr>& s : ellipsis_shapes) {
      auto merged = BroadcastEllipsis(ellipsis, s);
      if (!merged) {
        *error = {0, "einsum: the dims covered by the ellipsis do not broadcast (" +
                         DimsText(ellipsis) + " and " + DimsText(s) + ")"};
        return std::nullopt;
      }
      ellipsis = *merged;
    }
  }
  std::vector<Expr> out;
  for (char label : eq.output) {
    if (label == kEllipsis) {
      out.insert(out.end(), ellipsis.begin(), ellipsis.end());
      continue;
    }
    auto it = extents.find(label);
    if (it == extents.end()) {
      *error = {1, "einsum: output label '" + LabelText(label) + "' appears in no operand"};
      return std::nullopt;
    }
    out.push_back(it->second);
  }
  return out;
}

}  // namespace

// InferTypeEinsum: a non-empty tuple of tensors of one dtype (the first operand's). The first
// operand without shape values ends inference with R.Tensor(dtype, ndim=<its ndim>) (a TVM
// quirk); with all shapes known, the shape of topi::InferEinsumShape. vdevice: the first one,
// dropped when a later operand has another.
InferResult InferEinsum(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  auto operands = TensorTuple(call, 0, "einsum");
  if (!operands) return call.Unknown();
  if (operands->empty()) {
    call.Error(0, "einsum expects at least one tensor");
    return call.Unknown();
  }
  std::string vdevice;
  bool vdevice_unknown = false;
  for (const StructInfo& t : *operands) {
    if (vdevice_unknown || t.vdevice.empty()) continue;
    if (vdevice.empty()) {
      vdevice = t.vdevice;
    } else if (VDeviceKey(t.vdevice) != VDeviceKey(vdevice)) {
      vdevice_unknown = true;
    }
  }
  if (vdevice_unknown) vdevice.clear();
  const std::string& dtype = (*operands)[0].dtype;
  std::vector<std::vector<Expr>> shapes;
  for (const StructInfo& t : *operands) {
    if (t.dtype != dtype) {
      // TVM compares the optional dtypes: known vs unknown is an error there; silent here.
      if (dtype.empty() || t.dtype.empty()) return call.Unknown();
      call.Error(0, "einsum expects tensors of one dtype, but got " + dtype + " and " + t.dtype);
      return call.Unknown();
    }
    if (!t.values) return call.Done(MakeTensor(std::nullopt, t.ndim, dtype, vdevice));
    shapes.push_back(*t.values);
  }
  auto subscripts = call.Lit(1).AsString();
  if (!subscripts) return call.Done(MakeTensor(std::nullopt, -1, dtype, vdevice));
  std::string parse_error;
  auto eq = ParseEinsum(*subscripts, &parse_error);
  if (!eq) {
    call.Error(1, parse_error + " \"" + *subscripts + "\"");
    return call.Unknown();
  }
  EinsumError error;
  auto shape = EinsumShape(*eq, shapes, &error);
  if (!shape) {
    call.Error(error.param, error.message + " (subscripts \"" + *subscripts + "\")");
    return call.Unknown();
  }
  return call.Done(MakeTensor(*shape, -1, dtype, vdevice));
}

}  // namespace tvmls::ops
