// Inference of the call family, memory/VM/builtin ops, misc ops and script-level value helpers
// (relax_ops.md §1 leaf expressions, §5.12, §5.13, §8).
#include <algorithm>

#include "ops/infer_common.h"
#include "vocab/dtype.h"

namespace tvmls::ops {

using arith::Expr;
using types::Kind;

namespace {

// The annotations of an out_ty / ty_args argument: several when written as a list (or given as
// a tuple), one otherwise; nullopt when unknown. `*none` is set when the argument is absent/None.
std::optional<std::vector<StructInfo>> Annotations(const Call& call, size_t param, bool* none) {
  const ArgValue& arg = call.Arg(param);
  *none = false;
  if (!arg.annotation) {
    if (arg.literal.kind == Literal::Kind::kList && arg.literal.items.empty()) {
      return std::vector<StructInfo>{};  // `ty_args=[]`
    }
    *none = !arg.present || arg.literal.IsNone();
    return std::nullopt;
  }
  const StructInfo& ann = *arg.annotation;
  if (arg.literal.kind == Literal::Kind::kList && ann.kind == Kind::kTuple) return ann.fields;
  return std::vector<StructInfo>{ann};
}

// The index of op's first parameter that takes struct info annotations (Param::annotation):
// out_ty / ty_args. nullopt when it has none.
std::optional<size_t> AnnotationParam(const OpInfo& op) {
  for (size_t i = 0; i < op.params.size(); ++i) {
    if (op.params[i].annotation) return i;
  }
  return std::nullopt;
}

// call_tir / call_dps_packed: one entry of the annotation parameter is the result, several a
// tuple; unknown when the row has no annotation parameter.
InferResult OutTy(const OpInfo& op, const std::vector<ArgValue>& args, const InferContext& ctx,
                  bool require_shape) {
  Call call(args, ctx);
  auto annotation_param = AnnotationParam(op);
  if (!annotation_param) return call.Unknown();
  const size_t param = *annotation_param;
  bool none = false;
  auto anns = Annotations(call, param, &none);
  if (!anns) return call.Unknown();
  const ArgValue& arg = call.Arg(param);
  // A bare R.Tuple(...) annotation is treated like a list of its fields (tvmls cannot always
  // tell the two spellings apart).
  if (arg.literal.kind != Literal::Kind::kList && anns->size() == 1 &&
      (*anns)[0].kind == Kind::kTuple) {
    anns = (*anns)[0].fields;
  }
  for (const StructInfo& entry : *anns) {
    if (entry.kind == Kind::kUnknown) continue;
    if (entry.kind != Kind::kTensor) {
      call.Error(static_cast<int>(param),
                 "out_sinfo entries must be R.Tensor annotations, but got " + types::Print(entry));
    } else if (require_shape && !entry.values && entry.shape_var.empty()) {
      call.Error(static_cast<int>(param),
                 "out_sinfo entry " + types::Print(entry) + " needs an explicit shape");
    }
  }
  if (call.HasErrors()) return call.Unknown();
  if (anns->size() == 1) return call.Done((*anns)[0]);
  return call.Done(StructInfo::Tuple(*anns));
}

}  // namespace

InferResult InferCallTir(const OpInfo& op, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  return OutTy(op, args, ctx, /*require_shape=*/true);
}

InferResult InferCallDpsPacked(const OpInfo& op, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  return OutTy(op, args, ctx, /*require_shape=*/false);
}

InferResult InferCallTirInplace(const OpInfo& op, const std::vector<ArgValue>& args,
                                const InferContext& ctx) {
  InferResult result = OutTy(op, args, ctx, /*require_shape=*/true);
  if (!result.errors.empty()) return result;
  Call call(args, ctx);
  auto indices = SmallIntList(call.Lit(2), true);
  if (!indices) return result;
  std::vector<StructInfo> outputs;
  if (result.info.kind == Kind::kTuple) {
    outputs = result.info.fields;
  } else if (!result.info.IsUnknown()) {
    outputs = {result.info};
  }
  if (!outputs.empty() && indices->size() != outputs.size()) {
    call.Error(2, "inplace_indices has " + std::to_string(indices->size()) +
                      " entries but there are " + std::to_string(outputs.size()) + " outputs");
    return call.Unknown();
  }
  // TVM wraps an argument that is not a tuple into a tuple of one (_wrap_inline_arg_tuple).
  const StructInfo& given = call.Info(1);
  const StructInfo inputs = given.kind == Kind::kTuple || given.IsUnknown() ? given : StructInfo::Tuple({given});
  bool any_inplace = false;
  std::vector<int64_t> seen;
  for (size_t i = 0; i < indices->size(); ++i) {
    int64_t idx = (*indices)[i];
    if (idx == -1) continue;
    any_inplace = true;
    if (idx < -1) {
      call.Error(2, "inplace index " + std::to_string(idx) + " is negative (only -1 is allowed)");
      return call.Unknown();
    }
    if (std::find(seen.begin(), seen.end(), idx) != seen.end()) {
      call.Error(2, "inplace index " + std::to_string(idx) + " is used more than once");
      return call.Unknown();
    }
    seen.push_back(idx);
    if (inputs.kind != Kind::kTuple) continue;
    if (static_cast<size_t>(idx) >= inputs.fields.size()) {
      call.Error(2, "inplace index " + std::to_string(idx) + " is out of range for " +
                        std::to_string(inputs.fields.size()) + " arguments");
      return call.Unknown();
    }
    const StructInfo& in = inputs.fields[static_cast<size_t>(idx)];
    if (outputs.empty() || in.kind != Kind::kTensor || outputs[i].kind != Kind::kTensor) continue;
    const StructInfo& out = outputs[i];
    std::string pair = " (argument " + std::to_string(idx) + ": " + types::Print(in) + ", output " +
                       std::to_string(i) + ": " + types::Print(out) + ")";
    if (!in.dtype.empty() && !out.dtype.empty() && in.dtype != out.dtype) {
      call.Error(3, "an in-place output must have its argument's dtype" + pair);
      return call.Unknown();
    }
    if (in.values && out.values) {
      bool equal = in.values->size() == out.values->size();
      for (size_t d = 0; equal && d < in.values->size(); ++d) {
        equal = ProvablyEqual(call, (*in.values)[d], (*out.values)[d]);
      }
      if (!equal) {
        call.Error(3, "an in-place output must have a provably equal shape to its argument" + pair);
        return call.Unknown();
      }
    }
  }
  if (!any_inplace) {
    call.Error(2, "call_tir_inplace needs at least one inplace index other than -1");
    return call.Unknown();
  }
  return call.Done(result.info);
}

// ExternFunc / invoke_closure rule: none -> Object, one -> it, several -> Tuple.
InferResult InferTyArgs(const OpInfo& op, const std::vector<ArgValue>& args,
                        const InferContext& ctx) {
  Call call(args, ctx);
  auto param = AnnotationParam(op);
  if (!param) return call.Unknown();
  bool none = false;
  auto anns = Annotations(call, *param, &none);
  if (!anns) return none ? call.Done(StructInfo::Object()) : call.Unknown();
  if (anns->empty()) return call.Done(StructInfo::Object());
  if (anns->size() == 1) return call.Done((*anns)[0]);
  return call.Done(StructInfo::Tuple(*anns));
}

InferResult InferCallBuiltinWithCtx(const OpInfo& op, const std::vector<ArgValue>& args,
                                    const InferContext& ctx) {
  Call call(args, ctx);
  auto param = AnnotationParam(op);
  if (!param) return call.Unknown();
  bool none = false;
  auto anns = Annotations(call, *param, &none);
  if (!anns) return none ? call.Done(StructInfo::Void()) : call.Unknown();
  if (anns->empty()) return call.Done(StructInfo::Void());
  return call.Done((*anns)[0]);
}

InferResult InferObject(const OpInfo&, const std::vector<ArgValue>&, const InferContext&) {
  return {StructInfo::Object(), {}};
}

InferResult InferVoid(const OpInfo&, const std::vector<ArgValue>&, const InferContext&) {
  return {StructInfo::Void(), {}};
}

InferResult InferAssert(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo& cond = call.Info(0);
  bool ok = true;
  if (cond.kind == Kind::kPrim) {
    ok = cond.dtype.empty() || cond.dtype == "bool";
  } else if (cond.kind == Kind::kTensor) {
    bool rank_ok = cond.ndim == 0 || cond.ndim == -1;
    ok = rank_ok && (cond.dtype.empty() || cond.dtype == "bool");
  } else if (cond.kind != Kind::kUnknown) {
    ok = false;
  }
  if (!ok) {
    call.Error(0,
               "the condition must be a bool scalar (R.Prim(\"bool\") or a 0-d bool tensor), "
               "but got " +
                   call.Describe(0));
    return call.Unknown();
  }
  return call.Done(StructInfo::Void());
}

// memory.alloc_tensor / vm.alloc_tensor(storage, offset, shape, dtype, runtime_device_ind).
InferResult InferMemAllocTensor(const OpInfo&, const std::vector<ArgValue>& args,
                                const InferContext& ctx) {
  Call call(args, ctx);
  auto shape = GetShapeArg(call, 2);
  if (!shape) return call.Unknown();
  return call.Done(MakeTensor(shape->dims, shape->ndim, DTypeAttr(call.Lit(3)).value_or("")));
}

// builtin.alloc_tensor(shape, dtype, runtime_device_index, storage_scope).
InferResult InferBuiltinAllocTensor(const OpInfo&, const std::vector<ArgValue>& args,
                                    const InferContext& ctx) {
  Call call(args, ctx);
  auto shape = GetShapeArg(call, 0);
  if (!shape) return call.Unknown();
  return call.Done(MakeTensor(shape->dims, shape->ndim, DTypeAttr(call.Lit(1)).value_or("")));
}

// memory.view(data, shape=None, dtype=None, relative_byte_offset=None).
InferResult InferView(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* data = call.Tensor(0, "data");
  if (!data) return call.Unknown();
  auto absent = [&](size_t i) {
    const ArgValue& a = call.Arg(i);
    return (!a.present && a.literal.kind != Literal::Kind::kList) || a.literal.IsNone() ||
           a.info.IsVoid();
  };
  std::optional<ShapeArg> new_shape;
  if (!absent(1)) {
    new_shape = GetShapeArg(call, 1);
    if (!new_shape) return call.Unknown();
  }
  std::string dtype = data->dtype;
  if (!absent(2)) {
    dtype = DTypeAttr(call.Lit(2)).value_or("");
  }
  std::optional<Expr> offset = Expr(0);
  if (!absent(3)) {
    const ArgValue& a = call.Arg(3);
    offset = a.literal.AsExpr();
    if (!offset && a.info.kind == Kind::kPrim) {
      if (!a.info.dtype.empty() && a.info.dtype != "int64") {
        call.Error(3, "relative_byte_offset must be an int64 value, but got " + call.Describe(3));
        return call.Unknown();
      }
      offset = a.info.prim_value;
    }
  }
  std::optional<std::vector<Expr>> out_shape;
  int out_ndim = -1;
  if (new_shape) {
    out_shape = new_shape->dims;
    out_ndim = new_shape->ndim;
  } else {
    out_shape = data->values;
    out_ndim = data->ndim;
  }
  auto in_elem = vocab::DTypeBytes(data->dtype), out_elem = vocab::DTypeBytes(dtype);
  if (data->values && out_shape && in_elem && out_elem) {
    Expr in_bytes = Product(*data->values) * *in_elem;
    Expr out_bytes = Product(*out_shape) * *out_elem;
    Expr end = offset ? out_bytes + *offset : out_bytes;
    if (!in_bytes.IsOverflow() && !end.IsOverflow() &&
        call.Facts().ProveLess(in_bytes, end) == arith::Tri::kProved) {
      call.Error(new_shape ? 1 : 2, "the view ends at byte " + end.ToString() + " but " +
                                        call.Describe(0) + " has only " + in_bytes.ToString() +
                                        " bytes");
      return call.Unknown();
    }
  } else if (in_elem && out_elem && !new_shape && *out_elem > *in_elem) {
    call.Error(2, "changing the dtype from " + data->dtype + " to " + dtype +
                      " without a new shape makes the view larger than the tensor");
    return call.Unknown();
  }
  return call.Done(MakeTensor(out_shape, out_ndim, dtype, data->vdevice));
}

InferResult InferShapeOf(const OpInfo&, const std::vector<ArgValue>& args,
                         const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  if (x->values) return call.Done(StructInfo::Shape(*x->values));
  return call.Done(StructInfo::ShapeNdim(x->ndim));
}

InferResult InferSize(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* x = call.Tensor(0);
  if (!x) return call.Unknown();
  return call.Done(MakeTensor(std::vector<Expr>{}, -1, "int64", x->vdevice));
}

InferResult InferShapeToTensor(const OpInfo&, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  Call call(args, ctx);
  auto shape = GetShapeArg(call, 0);
  if (!shape) return call.Unknown();
  if (shape->ndim < 0) return call.Done(MakeTensor(std::nullopt, 1, "int64"));
  return call.Done(MakeTensor(std::vector<Expr>{shape->ndim}, -1, "int64"));
}

InferResult InferTensorToShape(const OpInfo&, const std::vector<ArgValue>& args,
                               const InferContext& ctx) {
  Call call(args, ctx);
  const StructInfo* t = call.Tensor(0);
  if (!t) return call.Unknown();
  if (t->ndim >= 0 && t->ndim != 1) {
    call.Error(0, "tensor_to_shape requires a 1-d tensor, but got " + call.Describe(0));
    return call.Unknown();
  }
  if (t->values) {
    if (auto len = (*t->values)[0].AsConst(); len && *len >= 0 && *len < (int64_t{1} << 20)) {
      return call.Done(StructInfo::ShapeNdim(static_cast<int>(*len)));
    }
  }
  return call.Done(StructInfo::ShapeNdim(-1));
}

namespace {

struct ConstScan {
  std::vector<int64_t> dims;
  int leaf_depth = -1;  // depth of the scalars, once one is seen
  bool has_float = false, has_int = false, has_bool = false;
};

// Shape and element class of a nested list literal; false when ragged or not numeric.
bool ConstShape(const Literal& lit, int depth, ConstScan* scan) {
  if (depth > 32) return false;
  auto leaf = [&](bool* flag) {
    *flag = true;
    if (scan->leaf_depth < 0) scan->leaf_depth = depth;
    return scan->leaf_depth == depth && scan->dims.size() == static_cast<size_t>(depth);
  };
  switch (lit.kind) {
    case Literal::Kind::kInt:
      return leaf(&scan->has_int);
    case Literal::Kind::kFloat:
      return leaf(&scan->has_float);
    case Literal::Kind::kBool:
      return leaf(&scan->has_bool);
    case Literal::Kind::kList:
      break;
    default:
      return false;
  }
  if (scan->leaf_depth >= 0 && depth >= scan->leaf_depth) return false;
  std::vector<int64_t>* dims = &scan->dims;
  int64_t n = static_cast<int64_t>(lit.items.size());
  if (dims->size() == static_cast<size_t>(depth)) {
    dims->push_back(n);
  } else if ((*dims)[static_cast<size_t>(depth)] != n) {
    return false;
  }
  for (const Literal& item : lit.items) {
    if (!ConstShape(item, depth + 1, scan)) return false;
  }
  // An empty list fixes the rank here.
  return n > 0 || dims->size() == static_cast<size_t>(depth) + 1;
}

}  // namespace

InferResult InferConst(const OpInfo&, const std::vector<ArgValue>& args, const InferContext& ctx) {
  Call call(args, ctx);
  ConstScan scan;
  if (!ConstShape(call.Lit(0), 0, &scan)) return call.Unknown();
  // numpy's default dtypes, narrowed to 32 bits as R.const does.
  std::string dtype = scan.has_float  ? "float32"
                      : scan.has_int  ? "int32"
                      : scan.has_bool ? "bool"
                                      : "float32";
  if (auto attr = DTypeAttr(call.Lit(1))) dtype = *attr;
  std::vector<Expr> shape(scan.dims.begin(), scan.dims.end());
  return call.Done(MakeTensor(shape, -1, dtype));
}

InferResult InferShapeLiteral(const OpInfo&, const std::vector<ArgValue>& args,
                              const InferContext& ctx) {
  Call call(args, ctx);
  auto shape = GetShapeArg(call, 0);
  if (!shape) return call.Unknown();
  if (shape->dims) return call.Done(StructInfo::Shape(*shape->dims));
  return call.Done(StructInfo::ShapeNdim(shape->ndim));
}

InferResult InferPrimValue(const OpInfo&, const std::vector<ArgValue>& args,
                           const InferContext& ctx) {
  Call call(args, ctx);
  const ArgValue& arg = call.Arg(0);
  // R.prim_value(T.float32(1.0)): the dtype the argument already has.
  if (arg.info.kind == Kind::kPrim && !arg.info.dtype.empty()) {
    StructInfo out = arg.info;
    if (!out.prim_value && arg.literal.AsExpr()) out.prim_value = arg.literal.AsExpr();
    return call.Done(out);
  }
  switch (arg.literal.kind) {
    case Literal::Kind::kInt:
    case Literal::Kind::kExpr: {
      StructInfo out = StructInfo::Prim("int64");
      out.prim_value = arg.literal.AsExpr();
      return call.Done(out);
    }
    case Literal::Kind::kFloat:
      return call.Done(StructInfo::Prim("float64"));
    case Literal::Kind::kBool:
      return call.Done(StructInfo::Prim("bool"));
    default:
      break;
  }
  if (arg.info.kind == Kind::kPrim) return call.Done(arg.info);
  if (!arg.info.IsUnknown()) {
    call.Error(0, "prim_value expects a number or a PrimExpr, but got " + call.Describe(0));
  }
  return call.Unknown();
}

}  // namespace tvmls::ops
