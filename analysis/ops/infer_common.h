// Shared machinery of the inference functions, and their declarations for the op table.
//
// Every inference function has the InferFn signature (registry.h): it gets the op's row, whose
// per-row data (rank, result_dtype, the annotation parameter) lets one function serve several
// rows. They read arguments through Call, which never indexes out of range, records provable
// errors, and answers "unknown" (the silent result) whenever an input is not known well enough. Rules follow ../shared/reference/relax_ops.md;
// the section numbers in comments refer to it.
#ifndef TVMLS_ANALYSIS_OPS_INFER_COMMON_H_
#define TVMLS_ANALYSIS_OPS_INFER_COMMON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/registry.h"

namespace tvmls::ops {

using types::StructInfo;

/// One inference in progress: argument access, the facts, and the errors found so far.
class Call {
 public:
  Call(const std::vector<ArgValue>& args, const InferContext& ctx);

  /// The argument bound to parameter `i` (an absent one when out of range).
  const ArgValue& Arg(size_t i) const;
  const StructInfo& Info(size_t i) const { return Arg(i).info; }
  const Literal& Lit(size_t i) const { return Arg(i).literal; }
  const arith::Facts& Facts() const { return *facts_; }

  /// The tensor struct info of argument `i`, or nullptr. When the argument's struct info is
  /// known but is not a tensor (Shape, Tuple, Prim, Object, Callable), records "requires a
  /// tensor" as an error at `i`; unknown struct info is silent.
  const StructInfo* Tensor(size_t i, const char* what = nullptr);

  /// Records a provable error at parameter `param`.
  void Error(int param, std::string message);
  bool HasErrors() const { return !errors_.empty(); }

  /// The result: `info` with the errors recorded (any error turns the result unknown: TVM would
  /// not produce a value).
  InferResult Done(StructInfo info);
  InferResult Unknown() { return Done(StructInfo::Unknown()); }

  /// Printer spelling of argument `i` for messages ("unknown" when tvmls does not know it).
  std::string Describe(size_t i) const;

 private:
  const std::vector<ArgValue>& args_;
  const arith::Facts* facts_;
  std::vector<InferError> errors_;
};

// ---- Struct info helpers ------------------------------------------------------------------

/// A tensor struct info with the given shape (nullopt: unknown), ndim (used when the shape is
/// unknown), dtype and vdevice.
StructInfo MakeTensor(const std::optional<std::vector<arith::Expr>>& shape, int ndim,
                      const std::string& dtype, const std::string& vdevice = "");
/// Printer spelling of a dim list: `(2, 3)`.
std::string DimsText(const std::vector<arith::Expr>& dims);

/// Proof helpers over the call's facts.
bool ProvablyEqual(const Call& call, const arith::Expr& a, const arith::Expr& b);
bool ProvablyDifferent(const Call& call, const arith::Expr& a, const arith::Expr& b);

/// The product of dims (arith keeps it canonical).
arith::Expr Product(const std::vector<arith::Expr>& dims);
/// ceildiv for a positive constant divisor: floordiv(a + b - 1, b).
arith::Expr CeilDiv(const arith::Expr& a, const arith::Expr& b);

// ---- Attributes ---------------------------------------------------------------------------

/// A small-enough integer (|v| < 2^31), so index arithmetic never overflows.
std::optional<int64_t> SmallInt(const Literal& literal);
std::optional<std::vector<int64_t>> SmallIntList(const Literal& literal, bool allow_scalar);
/// A dtype attribute: kString (`"float32"`, also the model's mapping of `R.dtype(...)`).
/// nullopt when absent/None or not a literal string.
std::optional<std::string> DTypeAttr(const Literal& literal);

/// §3.5: normalizes `axes` against `ndim` (each in [-ndim, ndim), negatives + ndim, no
/// duplicates). Records an error at `param` and returns nullopt when one is out of range or
/// repeated.
std::optional<std::vector<int>> NormalizeAxes(Call& call, int param, int ndim,
                                              const std::vector<int64_t>& axes);
std::optional<int> NormalizeAxis(Call& call, int param, int ndim, int64_t axis);

/// A shape argument (§3.7): a literal list of dims, `R.shape([...])` or a Shape-typed value.
struct ShapeArg {
  std::optional<std::vector<arith::Expr>> dims;  // known values
  int ndim = -1;                                 // known rank (dims->size() when dims known)
  /// The Shape-typed variable the argument is (ArgValue::var), empty for a literal shape.
  std::string var;
};
/// The tensor TVM makes with `TensorType(/*shape=*/call->args[i], ...)`: shaped by the variable
/// itself when the argument is a Shape-typed variable (`R.Tensor(s, dtype=...)`), else by the
/// known dims (or rank).
StructInfo ShapedTensor(const ShapeArg& shape, const std::string& dtype,
                        const std::string& vdevice = "");
/// nullopt when nothing is known; records an error at `param` when the argument is provably not
/// a shape (a tensor, a tuple of tensors, ...).
std::optional<ShapeArg> GetShapeArg(Call& call, size_t param);

// ---- Shared rules -------------------------------------------------------------------------

/// §3.1 broadcasting of two dim lists.
struct Broadcast {
  enum class Status { kOk, kUnknown, kConflict } status = Status::kOk;
  std::vector<arith::Expr> dims;
  std::string conflict;  // "dims 3 and 4 are not broadcastable"
};
Broadcast BroadcastShapes(const Call& call, const std::vector<arith::Expr>& a,
                          const std::vector<arith::Expr>& b);

/// §3.2 arithmetic output dtype: "" when either is unknown; nullopt (after recording an error at
/// `param`) when both are known, different, and neither is bool; else the lhs dtype.
std::optional<std::string> ArithDType(Call& call, int param, const std::string& lhs,
                                      const std::string& rhs, const std::string& what);

/// §3.3 vdevice of a binary op: one-sided or equal keeps it; two different ones are an error at
/// `param` (nullopt).
std::optional<std::string> BinaryVDevice(Call& call, int param, const std::string& lhs,
                                         const std::string& rhs);

/// Layout strings (§4): a layout like "NHWC" or "NCHW4c" against a canonical one ("NCHW").
struct Layout {
  std::string text;
  /// For each primal axis of the canonical layout, its position in `text`'s dims.
  std::vector<int> canonical_to_user;
  int ndim = 0;  // dims of the user layout (sub-axes like `4c` count)
  bool has_subaxes = false;
  /// For each user dim: its axis letter in upper case (`C` for both `C` and `4c`), and the factor
  /// of a sub-axis (`4c`: 4) or 0 for a primal axis.
  std::vector<char> letters;
  std::vector<int64_t> factors;
};
/// A shape in layout `layout` read into canonical order, as TVM's BijectiveLayout::BackwardShape:
/// a primal dim times the factors of its sub-axes (NCHW16c (1, 2, 8, 8, 16) is (1, 32, 8, 8));
/// the sub-axis dims themselves are not read.
std::vector<arith::Expr> LayoutToCanonical(const std::vector<arith::Expr>& dims,
                                           const Layout& layout);
/// A canonical shape written in `layout`, as BijectiveLayout::ForwardShape: a primal dim
/// floor-divided by the product of its sub-axis factors, each sub-axis dim its factor.
std::vector<arith::Expr> CanonicalToLayout(const std::vector<arith::Expr>& canonical,
                                           const Layout& layout);
std::optional<Layout> ParseLayout(Call& call, int param, const Literal& literal,
                                  const std::string& canonical);

// ---- Inference functions (the op table refers to these) ------------------------------------

// Each has the InferFn contract. Rows name them with OpInfo::Infer; a function that reads per-row
// data says which, and gives an unknown result for a row without it.
#define TVMLS_DECLARE_INFER(name) \
  InferResult name(const OpInfo& op, const std::vector<ArgValue>& args, const InferContext& ctx)

// infer_tensor.cc
TVMLS_DECLARE_INFER(InferUnknown);
TVMLS_DECLARE_INFER(InferUnaryArith);
TVMLS_DECLARE_INFER(InferUnaryFloat);
TVMLS_DECLARE_INFER(InferUnaryBool);
TVMLS_DECLARE_INFER(InferIdentity);
TVMLS_DECLARE_INFER(InferSecondArg);
TVMLS_DECLARE_INFER(InferToVDevice);
TVMLS_DECLARE_INFER(InferBinaryArith);
TVMLS_DECLARE_INFER(InferBinaryCompare);
TVMLS_DECLARE_INFER(InferEwiseFma);
TVMLS_DECLARE_INFER(InferFull);
TVMLS_DECLARE_INFER(InferFullLike);
TVMLS_DECLARE_INFER(InferZerosOnes);
TVMLS_DECLARE_INFER(InferZerosOnesLike);
TVMLS_DECLARE_INFER(InferArange);
TVMLS_DECLARE_INFER(InferEye);
TVMLS_DECLARE_INFER(InferEyeLike);
TVMLS_DECLARE_INFER(InferTrilTriu);
TVMLS_DECLARE_INFER(InferHammingWindow);
TVMLS_DECLARE_INFER(InferAstype);
TVMLS_DECLARE_INFER(InferTake);
TVMLS_DECLARE_INFER(InferStridedSlice);
TVMLS_DECLARE_INFER(InferDynamicStridedSlice);
TVMLS_DECLARE_INFER(InferMatmul);
TVMLS_DECLARE_INFER(InferLinear);
TVMLS_DECLARE_INFER(InferOuter);
TVMLS_DECLARE_INFER(InferWhere);
TVMLS_DECLARE_INFER(InferBucketize);
TVMLS_DECLARE_INFER(InferArgsort);
TVMLS_DECLARE_INFER(InferSort);
TVMLS_DECLARE_INFER(InferTopk);
TVMLS_DECLARE_INFER(InferNonzero);
/// inspect.*: a scalar of dtype op.result_dtype (the argument must be a tensor).
TVMLS_DECLARE_INFER(InferInspect);

// infer_manipulate.cc
TVMLS_DECLARE_INFER(InferBroadcastTo);
TVMLS_DECLARE_INFER(InferConcat);
TVMLS_DECLARE_INFER(InferExpandDims);
TVMLS_DECLARE_INFER(InferFlatten);
TVMLS_DECLARE_INFER(InferPermuteDims);
TVMLS_DECLARE_INFER(InferReshape);
TVMLS_DECLARE_INFER(InferSplit);
TVMLS_DECLARE_INFER(InferSqueeze);
TVMLS_DECLARE_INFER(InferStack);
TVMLS_DECLARE_INFER(InferRepeat);
TVMLS_DECLARE_INFER(InferTile);
TVMLS_DECLARE_INFER(InferFlip);
TVMLS_DECLARE_INFER(InferCollapseSumLike);
TVMLS_DECLARE_INFER(InferCollapseSumTo);
TVMLS_DECLARE_INFER(InferReduce);
TVMLS_DECLARE_INFER(InferArgReduce);
TVMLS_DECLARE_INFER(InferMedian);
TVMLS_DECLARE_INFER(InferCumulative);
TVMLS_DECLARE_INFER(InferAllgather);
TVMLS_DECLARE_INFER(InferScatterFromWorker0);

// infer_nn.cc
/// nn.conv{1,2,3}d(data, weight, strides, padding, dilation, groups, data_layout, kernel_layout,
/// out_layout, out_dtype) with op.rank spatial dims (1, 2 or 3).
TVMLS_DECLARE_INFER(InferConv);
/// nn.conv{1,2,3}d_transpose: like InferConv with output_padding after padding; op.rank as there.
TVMLS_DECLARE_INFER(InferConvTranspose);
/// nn.{avg,max}_pool{1,2,3}d(data, pool_size, strides, padding, dilation, ceil_mode,
/// count_include_pad, layout, out_layout) with op.rank spatial dims.
TVMLS_DECLARE_INFER(InferPool);
/// nn.adaptive_avg_pool{1,2,3}d(data, output_size, layout, out_layout) with op.rank spatial dims.
TVMLS_DECLARE_INFER(InferAdaptivePool);
TVMLS_DECLARE_INFER(InferSoftmax);
TVMLS_DECLARE_INFER(InferLayerNorm);
TVMLS_DECLARE_INFER(InferRmsNorm);
TVMLS_DECLARE_INFER(InferBatchNorm);
TVMLS_DECLARE_INFER(InferDropout);
TVMLS_DECLARE_INFER(InferBatchFlatten);
TVMLS_DECLARE_INFER(InferPad);
TVMLS_DECLARE_INFER(InferPixelShuffle);
TVMLS_DECLARE_INFER(InferPrelu);
TVMLS_DECLARE_INFER(InferAttention);
TVMLS_DECLARE_INFER(InferCrossEntropy);
TVMLS_DECLARE_INFER(InferNllLoss);

// infer_memory_call.cc
/// The result given by the row's annotation parameter (out_ty / out_sinfo): one tensor
/// annotation -> it, several -> a Tuple. call_tir requires explicit shapes; call_tir_inplace also
/// checks inplace_indices (parameter 2) against the outputs; call_dps_packed takes any tensors.
TVMLS_DECLARE_INFER(InferCallTir);
TVMLS_DECLARE_INFER(InferCallTirInplace);
TVMLS_DECLARE_INFER(InferCallDpsPacked);
/// The result given by the row's annotation parameter (ty_args / sinfo_args): none -> Object,
/// one -> it, several -> a Tuple (call_packed, call_pure_packed, call_inplace_packed,
/// invoke_closure, invoke_pure_closure).
TVMLS_DECLARE_INFER(InferTyArgs);
TVMLS_DECLARE_INFER(InferCallBuiltinWithCtx);
TVMLS_DECLARE_INFER(InferObject);
TVMLS_DECLARE_INFER(InferVoid);
TVMLS_DECLARE_INFER(InferAssert);
TVMLS_DECLARE_INFER(InferMemAllocTensor);
TVMLS_DECLARE_INFER(InferBuiltinAllocTensor);
TVMLS_DECLARE_INFER(InferView);
TVMLS_DECLARE_INFER(InferShapeOf);
TVMLS_DECLARE_INFER(InferSize);
TVMLS_DECLARE_INFER(InferShapeToTensor);
TVMLS_DECLARE_INFER(InferTensorToShape);
TVMLS_DECLARE_INFER(InferConst);
TVMLS_DECLARE_INFER(InferShapeLiteral);
TVMLS_DECLARE_INFER(InferPrimValue);

// infer_index.cc
TVMLS_DECLARE_INFER(InferScatterElements);
TVMLS_DECLARE_INFER(InferScatterNd);
TVMLS_DECLARE_INFER(InferGatherElements);
TVMLS_DECLARE_INFER(InferGatherNd);
/// index_put(data, indices, values, accumulate): indices one tensor or a tuple of tensors.
TVMLS_DECLARE_INFER(InferIndexPut);
/// index_tensor(data, indices): indices a tuple of tensors.
TVMLS_DECLARE_INFER(InferIndexTensor);
/// slice_scatter(input_tensor, src, start, end, step, axis).
TVMLS_DECLARE_INFER(InferSliceScatter);
/// one_hot(indices, on_value, off_value, depth, axis): dtype of on_value.
TVMLS_DECLARE_INFER(InferOneHot);
TVMLS_DECLARE_INFER(InferReverseSequence);
/// meshgrid(tensors, indexing): a Tuple of one tensor per input.
TVMLS_DECLARE_INFER(InferMeshgrid);
/// einsum(operands, subscripts): shape by topi::InferEinsumShape.
TVMLS_DECLARE_INFER(InferEinsum);
// infer_image_quant.cc
/// image.resize2d / image.resize3d(data, size, roi, layout, ..., out_dtype).
TVMLS_DECLARE_INFER(InferResize2D);
TVMLS_DECLARE_INFER(InferResize3D);
TVMLS_DECLARE_INFER(InferAffineGrid);
TVMLS_DECLARE_INFER(InferQuantize);
TVMLS_DECLARE_INFER(InferDequantize);
TVMLS_DECLARE_INFER(InferMultinomialFromUniform);
TVMLS_DECLARE_INFER(InferUnique);
TVMLS_DECLARE_INFER(InferGroupNorm);
TVMLS_DECLARE_INFER(InferGetValidCounts);
TVMLS_DECLARE_INFER(InferNonMaxSuppression);
TVMLS_DECLARE_INFER(InferAllClassNonMaxSuppression);
TVMLS_DECLARE_INFER(InferMultiboxTransformLoc);
TVMLS_DECLARE_INFER(InferRoiAlign);
TVMLS_DECLARE_INFER(InferRoiPool);
TVMLS_DECLARE_INFER(InferLayoutTransform);
/// image.grid_sample(data, grid, method, layout, padding_mode, align_corners).
TVMLS_DECLARE_INFER(InferGridSample);
/// nn.instance_norm(data, gamma, beta, channel_axis, axes, epsilon, center, scale).
TVMLS_DECLARE_INFER(InferInstanceNorm);
/// nn.attention_var_len(queries, keys, values, seqstart_q, max_seqlen_q, seqstart_k,
/// max_seqlen_k, ...): InferTypeAttention over the first three, every input a tensor.
TVMLS_DECLARE_INFER(InferAttentionVarLen);

#undef TVMLS_DECLARE_INFER

}  // namespace tvmls::ops

#endif  // TVMLS_ANALYSIS_OPS_INFER_COMMON_H_
