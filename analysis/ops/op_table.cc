// The operator table: one row per Relax operator, written as data (see OpInfo in registry.h).
//
// Rows were first generated from ../shared/reference/relax_ops.json (spelling, parameters with
// their defaults and kinds, purity) and then edited by hand: classic-era keyword spellings,
// `tir_vars`, the inference functions with their per-row data (Rank, ResultDType) and the docs.
// Script-level helpers that are not registered ops (`R.call_packed`, `R.const`, ...) come last,
// named "script.<path>". The table is split into sections only to keep functions short; the
// order of the rows is the order of AllOps().
#include "ops/op_table.h"

#include <iterator>
#include <utility>

#include "ops/infer_common.h"

namespace tvmls::ops {

namespace {

using rows::Any;
using rows::Attr;
using rows::Op;
using rows::Prim;
using rows::Shape;
using rows::Tensor;

// clang-format off

// Builtins, the call family and closures.
std::vector<OpInfo> CallRows() {
  return {
    Op("relax.builtin.alloc_tensor").Script("builtin.alloc_tensor")
        .Params({Shape("shape"), Any("dtype"), Prim("runtime_device_index"),
                 Any("storage_scope", "'global'")})
        .Pure().Infer(InferBuiltinAllocTensor)
        .Doc("High-level tensor allocation emitted by CallTIRRewrite."),
    Op("relax.builtin.stop_lift_params").Script("builtin.stop_lift_params").Params({Tensor("x")})
        .Pure().Infer(InferIdentity).Doc("Marks where parameter lifting stops; identity."),
    Op("relax.call_builtin_with_ctx").Script("call_builtin_with_ctx")
        .Params({Any("func"), Any("args"),
                 Any("ty_args", "None").ClassicName("sinfo_args").Annotation().KeywordOnly()})
        .Impure().Infer(InferCallBuiltinWithCtx)
        .Doc("Calls a VM builtin with the VM context; impure."),
    Op("relax.call_dps_packed").Script("call_dps_packed")
        .Params({Any("func"), Any("args"), Any("out_ty").ClassicName("out_sinfo").Annotation()})
        .Pure().Infer(InferCallDpsPacked)
        .Doc("Calls a packed function in destination-passing style; result given by out_ty."),
    Op("relax.call_inplace_packed").Script("call_inplace_packed")
        .Params({Any("func"), Any("*args"), Attr("inplace_indices"),
                 Any("ty_args").ClassicName("sinfo_args").Annotation()})
        .Pure().Infer(InferTyArgs)
        .Doc("Calls a packed function that writes some results into its arguments."),
    Op("relax.call_pure_packed").Script("call_pure_packed")
        .Params({Any("func"), Any("*args"), Any("ty_args").ClassicName("sinfo_args").Annotation()})
        .Pure().Infer(InferTyArgs)
        .Doc("Calls a packed function treated as pure; result given by ty_args."),
    Op("relax.call_py_func").Script("call_py_func")
        .Params({Attr("py_func_name"), Any("*args"),
                 Any("out_ty").ClassicName("out_sinfo").Annotation()})
        .Pure().Infer(InferCallDpsPacked)
        .Doc("Calls a Python function of the module; result given by out_ty."),
    Op("relax.call_tir").Script("call_tir")
        .Params({Any("gvar"), Any("args"), Any("out_ty").ClassicName("out_sinfo").Annotation(),
                 Shape("tir_vars", "None").ClassicOnly()})
        .Pure().Infer(InferCallTir)
        .Doc("Calls a PrimFunc in destination-passing style; result given by out_ty."),
    Op("relax.call_tir_inplace").Script("call_tir_inplace")
        .Params({Any("gvar"), Any("args"), Attr("inplace_indices"),
                 Any("out_ty").ClassicName("out_sinfo").Annotation(),
                 Shape("tir_vars", "None").ClassicOnly()})
        .Pure().Infer(InferCallTirInplace)
        .Doc("call_tir whose outputs may alias inputs (inplace_indices)."),
    Op("relax.call_tir_with_grad").Script("call_tir_with_grad")
        .Params({Any("gvar"), Any("args"), Any("out_ty").ClassicName("out_sinfo").Annotation(),
                 Attr("te_grad_name"), Attr("te_grad_kwargs", "None"),
                 Shape("tir_vars", "None").ClassicOnly()})
        .Pure().Infer(InferCallTir).Doc("call_tir with a registered TE gradient function."),
    Op("relax.invoke_closure").Script("invoke_closure")
        .Params({Any("closure"), Any("args"),
                 Any("ty_args").ClassicName("sinfo_args").Annotation()})
        .Impure().Infer(InferTyArgs).Doc("Invokes a closure; impure."),
    Op("relax.invoke_pure_closure").Script("invoke_pure_closure")
        .Params({Any("closure"), Any("args"),
                 Any("ty_args").ClassicName("sinfo_args").Annotation()})
        .Pure().Infer(InferTyArgs).Doc("Invokes a closure treated as pure."),
    Op("relax.make_closure").Script("make_closure").Params({Any("func"), Any("args")})
        .Pure().Infer(InferObject).Doc("Builds a closure from a function and captured values."),
  };
}

// Collective communication, comparison, creation, datatype and sharding.
std::vector<OpInfo> CollectiveCreationRows() {
  return {
    Op("relax.ccl.allgather").Script("ccl.allgather")
        .Params({Tensor("x"), Attr("num_workers"), Attr("in_group", "True")})
        .Pure().Infer(InferAllgather).Doc("Gathers data from all workers along dim 0."),
    Op("relax.ccl.allreduce").Script("ccl.allreduce")
        .Params({Tensor("x"), Attr("op_type", "'sum'"), Attr("in_group", "True")})
        .Pure().Infer(InferIdentity).Doc("Reduces data across all workers."),
    Op("relax.ccl.broadcast_from_worker0").Script("ccl.broadcast_from_worker0")
        .Params({Tensor("x")})
        .Pure().Infer(InferIdentity).Doc("Broadcasts worker 0's data to all workers."),
    Op("relax.ccl.scatter_from_worker0").Script("ccl.scatter_from_worker0")
        .Params({Tensor("x"), Attr("num_workers"), Attr("axis", "0")})
        .Pure().Infer(InferScatterFromWorker0).Doc("Scatters worker 0's data along an axis."),
    Op("relax.equal").Script("equal").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryCompare).Doc("Broadcasting elementwise x1 == x2; bool result."),
    Op("relax.greater").Script("greater").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryCompare).Doc("Broadcasting elementwise x1 > x2; bool result."),
    Op("relax.greater_equal").Script("greater_equal").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryCompare).Doc("Broadcasting elementwise x1 >= x2; bool result."),
    Op("relax.less").Script("less").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryCompare).Doc("Broadcasting elementwise x1 < x2; bool result."),
    Op("relax.less_equal").Script("less_equal").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryCompare).Doc("Broadcasting elementwise x1 <= x2; bool result."),
    Op("relax.not_equal").Script("not_equal").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryCompare).Doc("Broadcasting elementwise x1 != x2; bool result."),
    Op("relax.arange").Script("arange")
        .Params({Prim("start"), Prim("end", "None"), Prim("step", "1"), Attr("dtype", "None")})
        .Pure().Infer(InferArange)
        .Doc("Evenly spaced values in [start, end) with the given step, 1-D."),
    Op("relax.eye").Script("eye")
        .Params({Prim("n"), Prim("m", "None"), Prim("k", "0"), Attr("dtype", "'float32'")})
        .Pure().Infer(InferEye).Doc("A 2-D (n, m) tensor with ones on the k-th diagonal."),
    Op("relax.eye_like").Script("eye_like")
        .Params({Tensor("x"), Prim("k", "0"), Attr("dtype", "None")})
        .Pure().Infer(InferEyeLike)
        .Doc("Like eye, with the shape (and default dtype) of a 2-D tensor."),
    Op("relax.full").Script("full")
        .Params({Shape("shape"), Tensor("fill_value"), Attr("dtype", "None")})
        .Pure().Infer(InferFull).Doc("A tensor of the given shape filled with a 0-d fill value."),
    Op("relax.full_like").Script("full_like")
        .Params({Tensor("x"), Tensor("fill_value"), Attr("dtype", "None")})
        .Pure().Infer(InferFullLike).Doc("A tensor shaped like x filled with a 0-d fill value."),
    Op("relax.hamming_window").Script("hamming_window")
        .Params({Prim("window_size"), Prim("periodic"), Prim("alpha"), Prim("beta"), Attr("dtype")})
        .Pure().Infer(InferHammingWindow).Doc("A 1-D Hamming window of window_size float values."),
    Op("relax.ones").Script("ones").Params({Shape("shape"), Attr("dtype")})
        .Pure().Infer(InferZerosOnes)
        .Doc("A tensor of the given shape and dtype filled with ones."),
    Op("relax.ones_like").Script("ones_like").Params({Tensor("x"), Attr("dtype", "None")})
        .Pure().Infer(InferZerosOnesLike).Doc("Ones shaped like x (dtype optional)."),
    Op("relax.tril").Script("tril").Params({Tensor("x"), Prim("k", "0")})
        .Pure().Infer(InferTrilTriu)
        .Doc("Keeps the lower triangle (below diagonal k) of the last two dims."),
    Op("relax.triu").Script("triu").Params({Tensor("x"), Prim("k", "0")})
        .Pure().Infer(InferTrilTriu)
        .Doc("Keeps the upper triangle (above diagonal k) of the last two dims."),
    Op("relax.zeros").Script("zeros").Params({Shape("shape"), Attr("dtype")})
        .Pure().Infer(InferZerosOnes)
        .Doc("A tensor of the given shape and dtype filled with zeros."),
    Op("relax.zeros_like").Script("zeros_like").Params({Tensor("x"), Attr("dtype", "None")})
        .Pure().Infer(InferZerosOnesLike).Doc("Zeros shaped like x (dtype optional)."),
    Op("relax.astype").Script("astype").Params({Tensor("x"), Attr("dtype")})
        .Pure().Infer(InferAstype).Doc("Casts the elements to another dtype; shape unchanged."),
    Op("relax.wrap_param").Script("wrap_param").Params({Tensor("data"), Attr("dtype", "'float32'")})
        .Pure().Infer(InferAstype)
        .Doc("Marks a parameter and casts it to dtype (for mixed precision)."),
    Op("relax.dist.annotate_sharding").Script("dist.annotate_sharding")
        .Params({Tensor("input"), Attr("device_mesh"), Attr("placement")})
        .Pure().Infer(InferIdentity).Doc("Annotates the sharding of a tensor."),
    Op("relax.dist.call_tir_local_view").Script("dist.call_tir_local_view")
        .Params({Any("gvar"), Any("args"), Any("out_ty").ClassicName("out_sinfo").Annotation(),
                 Shape("tir_vars", "None").ClassicOnly()})
        .Pure().Infer(InferCallDpsPacked).Doc("call_tir on the local shard view."),
    Op("relax.dist.redistribute").Script("dist.redistribute")
        .Params({Tensor("input"), Attr("device_mesh"), Attr("placement")})
        .Pure().Infer(InferUnknown).Doc("Changes the sharding of a distributed tensor."),
    Op("relax.dist.redistribute_replica_to_shard").Script("dist.redistribute_replica_to_shard")
        .Params({Tensor("input"), Attr("num_workers"), Attr("axis")})
        .Pure().Infer(InferUnknown).Doc("Slices a replicated tensor into the local shard."),
  };
}

// Broadcasting binary arithmetic and ewise_fma.
std::vector<OpInfo> BinaryRows() {
  return {
    Op("relax.add").Script("add").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise sum."),
    Op("relax.atan2").Script("atan2").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise atan2(x1, x2)."),
    Op("relax.bitwise_and").Script("bitwise_and").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise bitwise and."),
    Op("relax.bitwise_or").Script("bitwise_or").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise bitwise or."),
    Op("relax.bitwise_xor").Script("bitwise_xor").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise bitwise xor."),
    Op("relax.divide").Script("divide").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise true division."),
    Op("relax.floor_divide").Script("floor_divide").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith)
        .Doc("Broadcasting elementwise division rounded toward negative infinity."),
    Op("relax.floor_mod").Script("floor_mod").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith)
        .Doc("Broadcasting elementwise remainder with the sign of the divisor."),
    Op("relax.left_shift").Script("left_shift").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise left bit shift."),
    Op("relax.log_add_exp").Script("log_add_exp").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise log(exp(x1) + exp(x2))."),
    Op("relax.logical_and").Script("logical_and").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise logical and."),
    Op("relax.logical_or").Script("logical_or").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise logical or."),
    Op("relax.logical_xor").Script("logical_xor").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise logical xor."),
    Op("relax.maximum").Script("maximum").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise maximum."),
    Op("relax.minimum").Script("minimum").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise minimum."),
    Op("relax.mod").Script("mod").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise remainder (truncating)."),
    Op("relax.multiply").Script("multiply").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise product."),
    Op("relax.power").Script("power").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise x1**x2."),
    Op("relax.right_shift").Script("right_shift").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise right bit shift."),
    Op("relax.subtract").Script("subtract").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferBinaryArith).Doc("Broadcasting elementwise difference."),
    Op("relax.ewise_fma").Script("ewise_fma").Params({Tensor("x1"), Tensor("x2"), Tensor("x3")})
        .Pure().Infer(InferEwiseFma)
        .Doc("Fused x1 * x2 + x3 over identically shaped tensors (no broadcasting)."),
  };
}

// Unary elementwise ops.
std::vector<OpInfo> UnaryRows() {
  return {
    Op("relax.abs").Script("abs").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise absolute value."),
    Op("relax.acos").Script("acos").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise arc cosine (float dtypes only)."),
    Op("relax.acosh").Script("acosh").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat)
        .Doc("Elementwise inverse hyperbolic cosine (float dtypes only)."),
    Op("relax.asin").Script("asin").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise arc sine (float dtypes only)."),
    Op("relax.asinh").Script("asinh").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat)
        .Doc("Elementwise inverse hyperbolic sine (float dtypes only)."),
    Op("relax.atan").Script("atan").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise arc tangent (float dtypes only)."),
    Op("relax.atanh").Script("atanh").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat)
        .Doc("Elementwise inverse hyperbolic tangent (float dtypes only)."),
    Op("relax.bitwise_not").Script("bitwise_not").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise bitwise complement."),
    Op("relax.ceil").Script("ceil").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise rounding up to an integer value."),
    Op("relax.clip").Script("clip").Params({Tensor("x"), Prim("min"), Prim("max")})
        .Pure().Infer(InferUnaryArith)
        .Doc("Clamps every element into [min, max]; keeps the input type."),
    Op("relax.cos").Script("cos").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise cosine (float dtypes only)."),
    Op("relax.cosh").Script("cosh").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise hyperbolic cosine (float dtypes only)."),
    Op("relax.erf").Script("erf").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise Gauss error function (float dtypes only)."),
    Op("relax.exp").Script("exp").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise e**x (float dtypes only)."),
    Op("relax.floor").Script("floor").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise rounding down to an integer value."),
    Op("relax.isfinite").Script("isfinite").Params({Tensor("x")})
        .Pure().Infer(InferUnaryBool).Doc("Elementwise test for finite values; bool result."),
    Op("relax.isinf").Script("isinf").Params({Tensor("x")})
        .Pure().Infer(InferUnaryBool).Doc("Elementwise test for infinities; bool result."),
    Op("relax.isnan").Script("isnan").Params({Tensor("x")})
        .Pure().Infer(InferUnaryBool).Doc("Elementwise test for NaN; bool result."),
    Op("relax.log").Script("log").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise natural logarithm (float dtypes only)."),
    Op("relax.logical_not").Script("logical_not").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise logical negation."),
    Op("relax.negative").Script("negative").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise negation."),
    Op("relax.round").Script("round").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise rounding to the nearest integer value."),
    Op("relax.rsqrt").Script("rsqrt").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise 1/sqrt(x) (float dtypes only)."),
    Op("relax.sigmoid").Script("sigmoid").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise logistic function (float dtypes only)."),
    Op("relax.sign").Script("sign").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise sign (-1, 0 or 1)."),
    Op("relax.sin").Script("sin").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise sine (float dtypes only)."),
    Op("relax.sinh").Script("sinh").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise hyperbolic sine (float dtypes only)."),
    Op("relax.sqrt").Script("sqrt").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise square root (float dtypes only)."),
    Op("relax.square").Script("square").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise x*x."),
    Op("relax.tan").Script("tan").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise tangent (float dtypes only)."),
    Op("relax.tanh").Script("tanh").Params({Tensor("x")})
        .Pure().Infer(InferUnaryFloat).Doc("Elementwise hyperbolic tangent (float dtypes only)."),
    Op("relax.trunc").Script("trunc").Params({Tensor("x")})
        .Pure().Infer(InferUnaryArith).Doc("Elementwise rounding toward zero."),
  };
}

// Gradients, image ops, indexing, inspection and linear algebra.
std::vector<OpInfo> GradImageIndexRows() {
  return {
    Op("relax.grad.avg_pool2d_backward").Script("grad.avg_pool2d_backward")
        .Params({Tensor("output_grad"), Tensor("data"), Attr("pool_size", "(1, 1)"),
                 Attr("strides", "(1, 1)"), Attr("padding", "(0, 0, 0, 0)"),
                 Attr("dilation", "(1, 1)"), Attr("ceil_mode", "False"),
                 Attr("count_include_pad", "False"), Attr("layout", "'NCHW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferSecondArg).Doc("Gradient of avg_pool2d."),
    Op("relax.grad.end_checkpoint").Script("grad.end_checkpoint").Params({Any("input")})
        .Pure().Infer(InferIdentity).Doc("Ends a gradient checkpoint region; identity."),
    Op("relax.grad.max_pool2d_backward").Script("grad.max_pool2d_backward")
        .Params({Tensor("output_grad"), Tensor("data"), Attr("pool_size", "(1, 1)"),
                 Attr("strides", "(1, 1)"), Attr("padding", "(0, 0, 0, 0)"),
                 Attr("dilation", "(1, 1)"), Attr("ceil_mode", "False"),
                 Attr("count_include_pad", "False"), Attr("layout", "'NCHW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferSecondArg).Doc("Gradient of max_pool2d."),
    Op("relax.grad.nll_loss_backward").Script("grad.nll_loss_backward")
        .Params({Tensor("output_grad"), Tensor("predictions"), Tensor("targets"),
                 Tensor("weights", "None"), Attr("reduction", "'mean'"),
                 Attr("ignore_index", "-100")})
        .Pure().Infer(InferSecondArg).Doc("Gradient of nll_loss."),
    Op("relax.grad.no_grad").Script("grad.no_grad").Params({Any("input")})
        .Pure().Infer(InferIdentity).Doc("Stops gradient propagation; identity."),
    Op("relax.grad.start_checkpoint").Script("grad.start_checkpoint").Params({Any("input")})
        .Pure().Infer(InferIdentity).Doc("Starts a gradient checkpoint region; identity."),
    Op("relax.grad.take_backward").Script("grad.take_backward")
        .Params({Tensor("output_grad"), Tensor("x"), Tensor("indices"), Attr("axis", "None")})
        .Pure().Infer(InferSecondArg).Doc("Gradient of take."),
    Op("relax.image.affine_grid").Script("image.affine_grid")
        .Params({Tensor("data"), Shape("size"), Attr("align_corners", "True")})
        .Pure().Infer(InferAffineGrid).Doc("Sampling grid of an affine transform."),
    Op("relax.image.grid_sample").Script("image.grid_sample")
        .Params({Tensor("data"), Tensor("grid"), Attr("method", "'bilinear'"),
                 Attr("layout", "'NCHW'"), Attr("padding_mode", "'zeros'"),
                 Attr("align_corners", "False")})
        .Pure().Infer(InferGridSample).Doc("Samples data at grid positions."),
    Op("relax.image.resize2d").Script("image.resize2d")
        .Params({Tensor("data"), Shape("size"), Attr("roi", "None"), Attr("layout", "'NCHW'"),
                 Attr("method", "'linear'"), Attr("coordinate_transformation_mode", "'half_pixel'"),
                 Attr("rounding_method", "'round'"), Attr("cubic_alpha", "-0.75"),
                 Attr("cubic_exclude", "0"), Attr("extrapolation_value", "0.0"),
                 Attr("out_dtype", "None")})
        .Pure().Infer(InferResize2D).Doc("2-D image resize."),
    Op("relax.image.resize3d").Script("image.resize3d")
        .Params({Tensor("data"), Shape("size"), Attr("roi", "None"), Attr("layout", "'NCDHW'"),
                 Attr("method", "'linear'"), Attr("coordinate_transformation_mode", "'half_pixel'"),
                 Attr("rounding_method", "''"), Attr("cubic_alpha", "-0.75"),
                 Attr("cubic_exclude", "0"), Attr("extrapolation_value", "0.0"),
                 Attr("out_dtype", "None")})
        .Pure().Infer(InferResize3D).Doc("3-D volume resize."),
    Op("relax.dynamic_strided_slice").Script("dynamic_strided_slice")
        .Params({Tensor("x"), Tensor("begin"), Tensor("end"), Tensor("strides")})
        .Pure().Infer(InferDynamicStridedSlice)
        .Doc("Strided slice whose begin/end/strides are runtime 1-D tensors."),
    Op("relax.strided_slice").Script("strided_slice")
        .Params({Tensor("x"), Any("axes"), Any("begin"), Any("end"), Any("strides", "None"),
                 Attr("assume_inbound", "False")})
        .Pure().Infer(InferStridedSlice)
        .Doc("Slices x along the listed axes with begin/end/strides."),
    Op("relax.take").Script("take")
        .Params({Tensor("x"), Any("indices"), Attr("axis", "None"), Attr("mode", "'fast'")})
        .Pure().Infer(InferTake)
        .Doc("Gathers entries of x along axis at the given indices (numpy.take)."),
    Op("relax.inspect.tensor_byte_offset").Params({Tensor("tensor")})
        .Pure().Infer(InferInspect).ResultDType("uint64")
        .Doc("Byte offset of a tensor (compiler internal)."),
    Op("relax.inspect.tensor_dtype_bits").Params({Tensor("tensor")})
        .Pure().Infer(InferInspect).ResultDType("uint8")
        .Doc("Bits of the dtype (compiler internal)."),
    Op("relax.inspect.tensor_dtype_code").Params({Tensor("tensor")})
        .Pure().Infer(InferInspect).ResultDType("uint8")
        .Doc("DLPack code of the dtype (compiler internal)."),
    Op("relax.inspect.tensor_dtype_lanes").Params({Tensor("tensor")})
        .Pure().Infer(InferInspect).ResultDType("uint16")
        .Doc("Lanes of the dtype (compiler internal)."),
    Op("relax.inspect.tensor_elem_offset").Params({Tensor("tensor")})
        .Pure().Infer(InferInspect).ResultDType("uint64")
        .Doc("Element offset of a tensor (compiler internal)."),
    Op("relax.inspect.tensor_ndim").Params({Tensor("tensor")})
        .Pure().Infer(InferInspect).ResultDType("int32")
        .Doc("Rank of a tensor (compiler internal)."),
    Op("relax.inspect.tensor_shape_i").Params({Tensor("tensor"), Prim("axis")})
        .Pure().Infer(InferInspect).ResultDType("int64")
        .Doc("Extent of one dim (compiler internal)."),
    Op("relax.inspect.tensor_stride_i").Params({Tensor("tensor"), Prim("axis")})
        .Pure().Infer(InferInspect).ResultDType("int64")
        .Doc("Stride of one dim (compiler internal)."),
    Op("relax.einsum").Script("einsum").Params({Any("operands"), Attr("subscripts")})
        .Pure().Infer(InferEinsum).Doc("Einstein summation over a tuple of operands."),
    Op("relax.matmul").Script("matmul")
        .Params({Tensor("x1"), Tensor("x2"), Attr("out_dtype", "None")})
        .Pure().Infer(InferMatmul).Doc("Numpy-style matrix product with broadcast batch dims."),
    Op("relax.outer").Script("outer").Params({Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferOuter).Doc("Outer product of two 1-D tensors."),
  };
}

// Shape manipulation.
std::vector<OpInfo> ManipulateRows() {
  return {
    Op("relax.broadcast_to").Script("broadcast_to").Params({Tensor("x"), Shape("shape")})
        .Pure().Infer(InferBroadcastTo).Doc("Broadcasts x to the target shape."),
    Op("relax.collapse_sum_like").Script("collapse_sum_like")
        .Params({Tensor("data"), Tensor("collapse_target")})
        .Pure().Infer(InferCollapseSumLike)
        .Doc("Sums data down to the shape of another tensor (inverse broadcast)."),
    Op("relax.collapse_sum_to").Script("collapse_sum_to").Params({Tensor("data"), Shape("shape")})
        .Pure().Infer(InferCollapseSumTo)
        .Doc("Sums data down to a target shape (inverse broadcast)."),
    Op("relax.concat").Script("concat").Params({Any("tensors"), Attr("axis", "0")})
        .Pure().Infer(InferConcat).Doc("Joins a tuple of tensors along an existing axis."),
    Op("relax.expand_dims").Script("expand_dims").Params({Tensor("x"), Attr("axis")})
        .Pure().Infer(InferExpandDims).Doc("Inserts size-1 dims at the given output positions."),
    Op("relax.flatten").Script("flatten").Params({Tensor("x")})
        .Pure().Infer(InferFlatten).Doc("Flattens a tensor into 1-D."),
    Op("relax.flip").Script("flip").Params({Tensor("data"), Attr("axis")})
        .Pure().Infer(InferFlip).Doc("Reverses the order of elements along one axis."),
    Op("relax.gather_elements").Script("gather_elements")
        .Params({Tensor("data"), Tensor("indices"), Attr("axis", "0")})
        .Pure().Infer(InferGatherElements).Doc("Gathers elements along an axis (torch.gather)."),
    Op("relax.gather_nd").Script("gather_nd")
        .Params({Tensor("data"), Tensor("indices"), Attr("batch_dims", "0")})
        .Pure().Infer(InferGatherNd).Doc("Gathers slices selected by the last dim of indices."),
    Op("relax.index_put").Script("index_put")
        .Params({Tensor("data"), Any("indices"), Tensor("values"), Attr("accumulate", "False")})
        .Pure().Infer(InferIndexPut).Doc("Writes values at tensor-indexed positions."),
    Op("relax.index_tensor").Script("index_tensor").Params({Tensor("data"), Any("indices")})
        .Pure().Infer(InferIndexTensor)
        .Doc("Advanced (numpy-style) indexing by a tuple of index tensors."),
    Op("relax.layout_transform").Script("layout_transform")
        .Params({Tensor("x"), Attr("index_map"), Attr("pad_value", "None"),
                 Attr("axis_separators", "None").ClassicOnly(),
                 Attr("input_axis_separators", "None").ClassicOnly()})
        .Pure().Infer(InferLayoutTransform).Doc("Rearranges data by an index map."),
    Op("relax.meshgrid").Script("meshgrid").Params({Any("tensors"), Attr("indexing", "'ij'")})
        .Pure().Infer(InferMeshgrid).Doc("Coordinate grids from a tuple of 1-D tensors."),
    Op("relax.one_hot").Script("one_hot")
        .Params({Tensor("indices"), Prim("on_value"), Prim("off_value"), Attr("depth"),
                 Attr("axis", "-1")})
        .Pure().Infer(InferOneHot)
        .Doc("One-hot encoding of integer indices with a new depth axis."),
    Op("relax.permute_dims").Script("permute_dims").Params({Tensor("x"), Attr("axes", "None")})
        .Pure().Infer(InferPermuteDims).Doc("Permutes the dims (reverses them when axes is None)."),
    Op("relax.repeat").Script("repeat")
        .Params({Tensor("data"), Attr("repeats"), Attr("axis", "None")})
        .Pure().Infer(InferRepeat).Doc("Repeats elements along an axis (or flattened)."),
    Op("relax.reshape").Script("reshape").Params({Tensor("x"), Shape("shape")})
        .Pure().Infer(InferReshape)
        .Doc("Gives x a new shape with the same number of elements (-1 and 0 allowed)."),
    Op("relax.reverse_sequence").Script("reverse_sequence")
        .Params({Tensor("data"), Tensor("seq_lengths"), Attr("seq_axis", "1"),
                 Attr("batch_axis", "0")})
        .Pure().Infer(InferReverseSequence)
        .Doc("Reverses variable-length prefixes along seq_axis."),
    Op("relax.scatter_elements").Script("scatter_elements")
        .Params({Tensor("data"), Tensor("indices"), Tensor("updates"), Attr("axis", "0"),
                 Attr("reduction", "'update'")})
        .Pure().Infer(InferScatterElements).Doc("Scatters updates into data along an axis."),
    Op("relax.scatter_nd").Script("scatter_nd")
        .Params({Tensor("data"), Tensor("indices"), Tensor("updates"),
                 Attr("reduction", "'update'")})
        .Pure().Infer(InferScatterNd).Doc("Scatters updates into data at n-d indices."),
    Op("relax.slice_scatter").Script("slice_scatter")
        .Params({Tensor("input_tensor"), Tensor("src"), Prim("start"), Prim("end"), Prim("step"),
                 Attr("axis", "0")})
        .Pure().Infer(InferSliceScatter).Doc("Writes src into a strided slice of the input."),
    Op("relax.split").Script("split")
        .Params({Tensor("x"), Attr("indices_or_sections"), Attr("axis", "0")})
        .Pure().Infer(InferSplit)
        .Doc("Splits x into sections or at indices along an axis; a tuple of tensors."),
    Op("relax.squeeze").Script("squeeze").Params({Tensor("x"), Attr("axis", "None")})
        .Pure().Infer(InferSqueeze).Doc("Removes size-1 dims (all of them, or the listed axes)."),
    Op("relax.stack").Script("stack").Params({Any("tensors"), Attr("axis", "0")})
        .Pure().Infer(InferStack).Doc("Joins same-shaped tensors along a new axis."),
    Op("relax.tile").Script("tile").Params({Tensor("data"), Attr("repeats")})
        .Pure().Infer(InferTile).Doc("Repeats the whole tensor per dim (numpy.tile)."),
  };
}

// Memory and miscellaneous ops.
std::vector<OpInfo> MemoryMiscRows() {
  return {
    Op("relax.memory.alloc_storage").Script("memory.alloc_storage")
        .Params({Shape("size"), Prim("virtual_device_index"), Any("storage_scope"), Any("dtype")})
        .Pure().Infer(InferObject)
        .Doc("Allocates a byte storage object (size in bytes) on a virtual device."),
    Op("relax.memory.alloc_tensor").Script("memory.alloc_tensor")
        .Params({Any("storage"), Prim("offset"), Shape("shape"), Any("dtype"),
                 Prim("runtime_device_ind", "prim_value(0)")})
        .Pure().Infer(InferMemAllocTensor)
        .Doc("Creates a tensor of shape/dtype inside a storage at a byte offset."),
    Op("relax.memory.ensure_zero_offset").Script("memory.ensure_zero_offset")
        .Params({Tensor("data")})
        .Pure().Infer(InferIdentity)
        .Doc("A view of data whose byte offset is zero (copies if needed)."),
    Op("relax.memory.kill_storage").Script("memory.kill_storage").Params({Any("storage")})
        .Impure().Infer(InferVoid).Doc("Releases a storage object; impure."),
    Op("relax.memory.kill_tensor").Script("memory.kill_tensor").Params({Tensor("tensor")})
        .Impure().Infer(InferVoid).Doc("Releases a tensor; impure."),
    Op("relax.memory.view").Script("memory.view")
        .Params({Tensor("data"), Shape("shape", "None"), Any("dtype", "None"),
                 Prim("relative_byte_offset", "None")})
        .Pure().Infer(InferView)
        .Doc("Reinterprets a tensor with another shape, dtype or byte offset."),
    Op("relax.assert_op").Script("assert_op")
        .Params({Any("condition"), Any("format_args", "None"), Attr("format", "''")})
        .Impure().Infer(InferAssert)
        .Doc("Runtime assertion on a bool scalar with a formatted message; impure."),
    Op("relax.hint_on_device").Script("hint_on_device")
        .Params({Tensor("data"), Attr("dst_vdevice"), Attr("memory_scope", "'global'")})
        .Pure().Infer(InferIdentity)
        .Doc("Hints that data should live on the given device; type unchanged."),
    Op("relax.null_value").Script("null_value").Params({})
        .Pure().Infer(InferObject).Doc("The null object."),
    Op("relax.print").Script("print").Params({Any("*values"), Attr("format", "''")})
        .Impure().Infer(InferVoid).Doc("Prints values at run time with a format string; impure."),
    Op("relax.shape_of").Script("shape_of").Params({Tensor("expr")})
        .Pure().Infer(InferShapeOf).Doc("The shape of a tensor as a Shape value."),
    Op("relax.shape_to_tensor").Script("shape_to_tensor").Params({Shape("expr")})
        .Pure().Infer(InferShapeToTensor).Doc("Converts a Shape value into a 1-D int64 tensor."),
    Op("relax.size").Script("size").Params({Tensor("expr")})
        .Pure().Infer(InferSize).Doc("Number of elements of a tensor as a 0-d int64 tensor."),
    Op("relax.tensor_to_shape").Script("tensor_to_shape").Params({Tensor("expr")})
        .Pure().Infer(InferTensorToShape).Doc("Converts a 1-D integer tensor into a Shape value."),
    Op("relax.to_vdevice").Script("to_vdevice").Params({Tensor("data"), Attr("dst_vdevice")})
        .Pure().Infer(InferToVDevice).Doc("Copies data to another virtual device."),
  };
}

// nn.adaptive_avg_pool1d to nn.conv3d_transpose (nn.* is split only to keep functions short).
std::vector<OpInfo> NnRowsAToC() {
  return {
    Op("relax.nn.adaptive_avg_pool1d").Script("nn.adaptive_avg_pool1d")
        .Params({Tensor("data"), Attr("output_size", "None"), Attr("layout", "'NCW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferAdaptivePool).Rank(1).Doc("1-D average pooling to a fixed output size."),
    Op("relax.nn.adaptive_avg_pool2d").Script("nn.adaptive_avg_pool2d")
        .Params({Tensor("data"), Attr("output_size", "None"), Attr("layout", "'NCHW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferAdaptivePool).Rank(2).Doc("2-D average pooling to a fixed output size."),
    Op("relax.nn.adaptive_avg_pool3d").Script("nn.adaptive_avg_pool3d")
        .Params({Tensor("data"), Attr("output_size", "None"), Attr("layout", "'NCDHW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferAdaptivePool).Rank(3).Doc("3-D average pooling to a fixed output size."),
    Op("relax.nn.attention").Script("nn.attention")
        .Params({Tensor("query"), Tensor("key"), Tensor("value"), Tensor("bias", "None"),
                 Attr("scale", "None"), Attr("causal_mask", "None"), Attr("window_size", "None")})
        .Pure().Infer(InferAttention)
        .Doc("Multi-head attention over [batch, seq, heads, dim] tensors."),
    Op("relax.nn.attention_bias").Script("nn.attention_bias")
        .Params({Tensor("query"), Tensor("key"), Tensor("value"), Tensor("bias", "None"),
                 Attr("scale", "None"), Attr("causal_mask", "None"), Attr("window_size", "None")})
        .Pure().Infer(InferAttention)
        .Doc("Multi-head attention with an additive bias (made by nn.attention(bias=...))."),
    Op("relax.nn.attention_var_len").Script("nn.attention_var_len")
        .Params({Tensor("queries"), Tensor("keys"), Tensor("values"), Tensor("seqstart_q"),
                 Tensor("max_seqlen_q"), Tensor("seqstart_k", "None"),
                 Tensor("max_seqlen_k", "None"), Attr("scale", "None"), Attr("causal_mask", "None"),
                 Attr("window_size", "None")})
        .Pure().Infer(InferAttentionVarLen)
        .Doc("Attention over packed variable-length sequences."),
    Op("relax.nn.avg_pool1d").Script("nn.avg_pool1d")
        .Params({Tensor("data"), Attr("pool_size", "(1,)"), Attr("strides", "(1,)"),
                 Attr("padding", "(0, 0)"), Attr("dilation", "(1,)"), Attr("ceil_mode", "False"),
                 Attr("count_include_pad", "True"), Attr("layout", "'NCW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferPool).Rank(1).Doc("1-D average pooling."),
    Op("relax.nn.avg_pool2d").Script("nn.avg_pool2d")
        .Params({Tensor("data"), Attr("pool_size", "(1, 1)"), Attr("strides", "(1, 1)"),
                 Attr("padding", "(0, 0)"), Attr("dilation", "(1, 1)"), Attr("ceil_mode", "False"),
                 Attr("count_include_pad", "False"), Attr("layout", "'NCHW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferPool).Rank(2).Doc("2-D average pooling."),
    Op("relax.nn.avg_pool3d").Script("nn.avg_pool3d")
        .Params({Tensor("data"), Attr("pool_size", "(1, 1, 1)"), Attr("strides", "(1, 1, 1)"),
                 Attr("padding", "(0, 0, 0)"), Attr("dilation", "(1, 1, 1)"),
                 Attr("ceil_mode", "False"), Attr("count_include_pad", "True"),
                 Attr("layout", "'NCDHW'"), Attr("out_layout", "None")})
        .Pure().Infer(InferPool).Rank(3).Doc("3-D average pooling."),
    Op("relax.nn.batch_flatten").Script("nn.batch_flatten").Params({Tensor("data")})
        .Pure().Infer(InferBatchFlatten).Doc("Flattens every dim but the first."),
    Op("relax.nn.batch_norm").Script("nn.batch_norm")
        .Params({Tensor("data"), Tensor("gamma"), Tensor("beta"), Tensor("moving_mean"),
                 Tensor("moving_var"), Attr("axis"), Attr("epsilon", "1e-05"),
                 Attr("center", "True"), Attr("scale", "True"), Attr("momentum", "0.1"),
                 Attr("training", "True")})
        .Pure().Infer(InferBatchNorm)
        .Doc("Batch normalization; returns (output, new moving mean, new moving var)."),
    Op("relax.nn.conv1d").Script("nn.conv1d")
        .Params({Tensor("data"), Tensor("weight"), Attr("strides", "1"), Attr("padding", "0"),
                 Attr("dilation", "1"), Attr("groups", "1"), Attr("data_layout", "'NCW'"),
                 Attr("kernel_layout", "'OIW'"), Attr("out_layout", "None"),
                 Attr("out_dtype", "None")})
        .Pure().Infer(InferConv).Rank(1).Doc("1-D convolution."),
    Op("relax.nn.conv1d_transpose").Script("nn.conv1d_transpose")
        .Params({Tensor("data"), Tensor("weight"), Attr("strides", "1"), Attr("padding", "0"),
                 Attr("output_padding", "0"), Attr("dilation", "1"), Attr("groups", "1"),
                 Attr("data_layout", "'NCW'"), Attr("kernel_layout", "'IOW'"),
                 Attr("out_layout", "None"), Attr("out_dtype", "None")})
        .Pure().Infer(InferConvTranspose).Rank(1).Doc("1-D transposed convolution."),
    Op("relax.nn.conv2d").Script("nn.conv2d")
        .Params({Tensor("data"), Tensor("weight"), Attr("strides", "(1, 1)"),
                 Attr("padding", "(0, 0)"), Attr("dilation", "(1, 1)"), Attr("groups", "1"),
                 Attr("data_layout", "'NCHW'"), Attr("kernel_layout", "'OIHW'"),
                 Attr("out_layout", "None"), Attr("out_dtype", "None")})
        .Pure().Infer(InferConv).Rank(2).Doc("2-D convolution."),
    Op("relax.nn.conv2d_transpose").Script("nn.conv2d_transpose")
        .Params({Tensor("data"), Tensor("weight"), Attr("strides", "(1, 1)"),
                 Attr("padding", "(0, 0)"), Attr("output_padding", "(0, 0)"),
                 Attr("dilation", "(1, 1)"), Attr("groups", "1"), Attr("data_layout", "'NCHW'"),
                 Attr("kernel_layout", "'IOHW'"), Attr("out_layout", "None"),
                 Attr("out_dtype", "None")})
        .Pure().Infer(InferConvTranspose).Rank(2).Doc("2-D transposed convolution."),
    Op("relax.nn.conv3d").Script("nn.conv3d")
        .Params({Tensor("data"), Tensor("weight"), Attr("strides", "(1, 1, 1)"),
                 Attr("padding", "(0, 0, 0)"), Attr("dilation", "(1, 1, 1)"), Attr("groups", "1"),
                 Attr("data_layout", "'NCDHW'"), Attr("kernel_layout", "'OIDHW'"),
                 Attr("out_layout", "None"), Attr("out_dtype", "None")})
        .Pure().Infer(InferConv).Rank(3).Doc("3-D convolution."),
    Op("relax.nn.conv3d_transpose").Script("nn.conv3d_transpose")
        .Params({Tensor("data"), Tensor("weight"), Attr("strides", "(1, 1, 1)"),
                 Attr("padding", "(0, 0, 0)"), Attr("output_padding", "(0, 0, 0)"),
                 Attr("dilation", "(1, 1, 1)"), Attr("groups", "1"), Attr("data_layout", "'NCDHW'"),
                 Attr("kernel_layout", "'IODHW'"), Attr("out_layout", "None"),
                 Attr("out_dtype", "None")})
        .Pure().Infer(InferConvTranspose).Rank(3).Doc("3-D transposed convolution."),
  };
}

// nn.cross_entropy_with_logits to nn.softplus.
std::vector<OpInfo> NnRowsCToS() {
  return {
    Op("relax.nn.cross_entropy_with_logits").Script("nn.cross_entropy_with_logits")
        .Params({Tensor("predictions"), Tensor("labels")})
        .Pure().Infer(InferCrossEntropy).Doc("Cross entropy of logits and labels; a 0-d result."),
    Op("relax.nn.dropout").Script("nn.dropout").Params({Tensor("data"), Attr("rate", "0.5")})
        .Pure().Infer(InferDropout).Doc("Dropout; returns (output, mask)."),
    Op("relax.nn.gelu").Script("nn.gelu").Params({Tensor("data")})
        .Pure().Infer(InferUnaryFloat).Doc("GELU activation (erf form)."),
    Op("relax.nn.gelu_tanh").Script("nn.gelu_tanh").Params({Tensor("data")})
        .Pure().Infer(InferUnaryFloat).Doc("GELU activation (tanh approximation)."),
    Op("relax.nn.group_norm").Script("nn.group_norm")
        .Params({Tensor("data"), Tensor("gamma"), Tensor("beta"), Attr("num_groups"),
                 Attr("channel_axis"), Attr("axes"), Attr("epsilon", "1e-05"),
                 Attr("center", "True"), Attr("scale", "True")})
        .Pure().Infer(InferGroupNorm).Doc("Group normalization."),
    Op("relax.nn.instance_norm").Script("nn.instance_norm")
        .Params({Tensor("data"), Tensor("gamma"), Tensor("beta"), Attr("channel_axis"),
                 Attr("axes"), Attr("epsilon", "1e-05"), Attr("center", "True"),
                 Attr("scale", "True")})
        .Pure().Infer(InferInstanceNorm).Doc("Instance normalization."),
    Op("relax.nn.layer_norm").Script("nn.layer_norm")
        .Params({Tensor("data"), Tensor("gamma"), Tensor("beta"), Attr("axes"),
                 Attr("epsilon", "1e-05"), Attr("center", "True"), Attr("scale", "True")})
        .Pure().Infer(InferLayerNorm).Doc("Layer normalization over the given axes."),
    Op("relax.nn.leakyrelu").Script("nn.leakyrelu").Params({Tensor("data"), Attr("alpha", "0.01")})
        .Pure().Infer(InferUnaryFloat).Doc("Leaky ReLU with slope alpha."),
    Op("relax.nn.log_softmax").Script("nn.log_softmax").Params({Tensor("data"), Attr("axis", "-1")})
        .Pure().Infer(InferSoftmax).Doc("Log of softmax along an axis."),
    Op("relax.nn.max_pool1d").Script("nn.max_pool1d")
        .Params({Tensor("data"), Attr("pool_size", "(1,)"), Attr("strides", "(1,)"),
                 Attr("padding", "(0, 0)"), Attr("dilation", "(1,)"), Attr("ceil_mode", "False"),
                 Attr("count_include_pad", "False"), Attr("layout", "'NCW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferPool).Rank(1).Doc("1-D max pooling."),
    Op("relax.nn.max_pool2d").Script("nn.max_pool2d")
        .Params({Tensor("data"), Attr("pool_size", "(1, 1)"), Attr("strides", "(1, 1)"),
                 Attr("padding", "(0, 0)"), Attr("dilation", "(1, 1)"), Attr("ceil_mode", "False"),
                 Attr("count_include_pad", "False"), Attr("layout", "'NCHW'"),
                 Attr("out_layout", "None")})
        .Pure().Infer(InferPool).Rank(2).Doc("2-D max pooling."),
    Op("relax.nn.max_pool3d").Script("nn.max_pool3d")
        .Params({Tensor("data"), Attr("pool_size", "(1, 1, 1)"), Attr("strides", "(1, 1, 1)"),
                 Attr("padding", "(0, 0, 0)"), Attr("dilation", "(1, 1, 1)"),
                 Attr("ceil_mode", "False"), Attr("count_include_pad", "False"),
                 Attr("layout", "'NCDHW'"), Attr("out_layout", "None")})
        .Pure().Infer(InferPool).Rank(3).Doc("3-D max pooling."),
    Op("relax.nn.nll_loss").Script("nn.nll_loss")
        .Params({Tensor("predictions"), Tensor("targets"), Tensor("weights", "None"),
                 Attr("reduction", "'mean'"), Attr("ignore_index", "-100")})
        .Pure().Infer(InferNllLoss).Doc("Negative log-likelihood loss."),
    Op("relax.nn.pad").Script("nn.pad")
        .Params({Tensor("data"), Attr("pad_width"), Attr("pad_mode", "'constant'"),
                 Attr("pad_value", "0.0")})
        .Pure().Infer(InferPad).Doc("Pads each dim by (before, after) amounts."),
    Op("relax.nn.pixel_shuffle").Script("nn.pixel_shuffle")
        .Params({Tensor("data"), Attr("upscale_factor")})
        .Pure().Infer(InferPixelShuffle)
        .Doc("Moves channel blocks into spatial dims (depth to space)."),
    Op("relax.nn.prelu").Script("nn.prelu")
        .Params({Tensor("data"), Tensor("alpha"), Attr("axis", "1")})
        .Pure().Infer(InferPrelu).Doc("Parametric ReLU with per-channel alpha."),
    Op("relax.nn.relu").Script("nn.relu").Params({Tensor("data")})
        .Pure().Infer(InferUnaryArith).Doc("Rectified linear unit."),
    Op("relax.nn.rms_norm").Script("nn.rms_norm")
        .Params({Tensor("data"), Tensor("weight"), Attr("axes", "-1"), Attr("epsilon", "1e-05")})
        .Pure().Infer(InferRmsNorm).Doc("Root-mean-square normalization over the given axes."),
    Op("relax.nn.selu").Script("nn.selu").Params({Tensor("data")})
        .Pure().Infer(InferUnaryFloat).Doc("Scaled exponential linear unit."),
    Op("relax.nn.silu").Script("nn.silu").Params({Tensor("data")})
        .Pure().Infer(InferUnaryFloat).Doc("SiLU (x * sigmoid(x))."),
    Op("relax.nn.softmax").Script("nn.softmax").Params({Tensor("data"), Attr("axis", "-1")})
        .Pure().Infer(InferSoftmax).Doc("Softmax along an axis."),
    Op("relax.nn.softplus").Script("nn.softplus")
        .Params({Tensor("data"), Attr("beta", "1.0"), Attr("threshold", "20.0")})
        .Pure().Infer(InferUnaryFloat).Doc("Softplus log(1 + exp(beta*x))/beta."),
  };
}

// Quantization, statistics and sampling.
std::vector<OpInfo> QuantizeStatisticsRows() {
  return {
    Op("relax.dequantize").Script("dequantize")
        .Params({Tensor("data"), Tensor("scale"), Tensor("zero_point"), Attr("axis", "-1"),
                 Attr("out_dtype", "'float32'")})
        .Pure().Infer(InferDequantize)
        .Doc("Converts quantized integers to floats with scale and zero point."),
    Op("relax.quantize").Script("quantize")
        .Params({Tensor("data"), Tensor("scale"), Tensor("zero_point"), Attr("axis", "-1"),
                 Attr("out_dtype", "'int8'")})
        .Pure().Infer(InferQuantize)
        .Doc("Converts floats to quantized integers with scale and zero point."),
    Op("relax.max").Script("max")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferReduce).Doc("Maximum over axes."),
    Op("relax.mean").Script("mean")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferReduce).Doc("Mean over axes."),
    Op("relax.median").Script("median")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferMedian).Doc("Median over axes (with indices for a single axis)."),
    Op("relax.min").Script("min")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferReduce).Doc("Minimum over axes."),
    Op("relax.prod").Script("prod")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferReduce).Doc("Product over axes."),
    Op("relax.std").Script("std")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferReduce).Doc("Standard deviation over axes."),
    Op("relax.sum").Script("sum")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferReduce).Doc("Sum over axes."),
    Op("relax.variance").Script("variance")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferReduce).Doc("Variance over axes."),
    Op("relax.multinomial_from_uniform").Script("multinomial_from_uniform")
        .Params({Tensor("prob"), Tensor("uniform_sample"), Tensor("sample_indices"),
                 Attr("dtype", "'int64'")})
        .Pure().Infer(InferMultinomialFromUniform)
        .Doc("Samples category indices from probabilities and uniform draws."),
  };
}

// Search, sorting, cumulative ops, vision and the VM.
std::vector<OpInfo> SearchSortVisionVmRows() {
  return {
    Op("relax.argmax").Script("argmax")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferArgReduce).Doc("Index of the maximum along an axis (int64)."),
    Op("relax.argmin").Script("argmin")
        .Params({Tensor("x"), Attr("axis", "None"), Attr("keepdims", "False")})
        .Pure().Infer(InferArgReduce).Doc("Index of the minimum along an axis (int64)."),
    Op("relax.bucketize").Script("bucketize")
        .Params({Tensor("input_tensor"), Tensor("boundaries"), Attr("out_int32", "False"),
                 Attr("right", "False")})
        .Pure().Infer(InferBucketize).Doc("Bucket index of each element within sorted boundaries."),
    Op("relax.where").Script("where").Params({Tensor("condition"), Tensor("x1"), Tensor("x2")})
        .Pure().Infer(InferWhere)
        .Doc("Selects from x1 where condition holds, else x2 (broadcasting)."),
    Op("relax.nonzero").Script("nonzero").Params({Tensor("x")})
        .Pure().Infer(InferNonzero).Doc("Indices of the non-zero elements, one row per dim."),
    Op("relax.unique").Script("unique")
        .Params({Tensor("x"), Prim("sorted", "True"), Prim("return_index", "False"),
                 Prim("return_inverse", "False"), Prim("return_counts", "False"),
                 Prim("axis", "None")})
        .Pure().Infer(InferUnique).Doc("Unique elements (with optional index/inverse/counts)."),
    Op("relax.argsort").Script("argsort")
        .Params({Tensor("data"), Attr("axis", "-1"), Attr("descending", "False"),
                 Attr("dtype", "'int32'")})
        .Pure().Infer(InferArgsort).Doc("Indices that sort the data along an axis."),
    Op("relax.sort").Script("sort")
        .Params({Tensor("x"), Attr("axis", "-1"), Attr("descending", "False")})
        .Pure().Infer(InferSort).Doc("Sorts along an axis."),
    Op("relax.topk").Script("topk")
        .Params({Tensor("data"), Attr("k", "1"), Attr("axis", "-1"), Attr("ret_type", "'both'"),
                 Attr("largest", "True"), Attr("dtype", "'int32'")})
        .Pure().Infer(InferTopk)
        .Doc("The k largest (or smallest) values and/or indices along an axis."),
    Op("relax.cumprod").Script("cumprod")
        .Params({Tensor("data"), Attr("axis", "None"), Attr("dtype", "None"),
                 Attr("exclusive", "False")})
        .Pure().Infer(InferCumulative)
        .Doc("Cumulative product along an axis (flattened when axis is None)."),
    Op("relax.cumsum").Script("cumsum")
        .Params({Tensor("data"), Attr("axis", "None"), Attr("dtype", "None"),
                 Attr("exclusive", "False")})
        .Pure().Infer(InferCumulative)
        .Doc("Cumulative sum along an axis (flattened when axis is None)."),
    Op("relax.vision.all_class_non_max_suppression").Script("vision.all_class_non_max_suppression")
        .Params({Tensor("boxes"), Tensor("scores"), Tensor("max_output_boxes_per_class"),
                 Tensor("iou_threshold"), Tensor("score_threshold"),
                 Attr("output_format", "'onnx'")})
        .Pure().Infer(InferAllClassNonMaxSuppression)
        .Doc("Non-max suppression over all classes (ONNX style)."),
    Op("relax.vision.get_valid_counts").Script("vision.get_valid_counts")
        .Params({Tensor("data"), Attr("score_threshold", "0"), Attr("id_index", "0"),
                 Attr("score_index", "1")})
        .Pure().Infer(InferGetValidCounts).Doc("Counts boxes above a score threshold and compacts them."),
    Op("relax.vision.multibox_transform_loc").Script("vision.multibox_transform_loc")
        .Params({Tensor("cls_pred"), Tensor("loc_pred"), Tensor("anchor"), Attr("clip", "False"),
                 Attr("threshold", "0.0"), Attr("variances", "(1.0, 1.0, 1.0, 1.0)"),
                 Attr("keep_background", "True")})
        .Pure().Infer(InferMultiboxTransformLoc).Doc("Decodes SSD box predictions against anchors."),
    Op("relax.vision.non_max_suppression").Script("vision.non_max_suppression")
        .Params({Tensor("data"), Tensor("valid_count"), Tensor("indices"),
                 Attr("max_output_size", "-1"), Attr("iou_threshold", "0.5"),
                 Attr("force_suppress", "False"), Attr("top_k", "-1"), Attr("coord_start", "2"),
                 Attr("score_index", "1"), Attr("id_index", "0"), Attr("return_indices", "True"),
                 Attr("invalid_to_bottom", "False"), Attr("soft_nms_sigma", "0.0"),
                 Attr("score_threshold", "0.0")})
        .Pure().Infer(InferNonMaxSuppression).Doc("Non-max suppression of boxes."),
    Op("relax.vision.roi_align").Script("vision.roi_align")
        .Params({Tensor("data"), Tensor("rois"), Attr("pooled_size"), Attr("spatial_scale"),
                 Attr("sample_ratio", "-1"), Attr("aligned", "False"), Attr("layout", "'NCHW'"),
                 Attr("mode", "'avg'")})
        .Pure().Infer(InferRoiAlign).Doc("RoIAlign pooling of regions of interest."),
    Op("relax.vision.roi_pool").Script("vision.roi_pool")
        .Params({Tensor("data"), Tensor("rois"), Attr("pooled_size"), Attr("spatial_scale"),
                 Attr("layout", "'NCHW'")})
        .Pure().Infer(InferRoiPool).Doc("RoI max pooling of regions of interest."),
    Op("relax.vm.alloc_storage").Script("vm.alloc_storage")
        .Params({Shape("shape"), Prim("runtime_device_index"), Any("dtype"),
                 Any("storage_scope", "'global'")})
        .Pure().Infer(InferObject)
        .Doc("VM storage allocation of prod(shape) * sizeof(dtype) bytes."),
    Op("relax.vm.alloc_tensor").Script("vm.alloc_tensor")
        .Params({Any("storage"), Prim("offset"), Shape("shape"), Any("dtype"),
                 Prim("runtime_device_ind", "prim_value(0)")})
        .Pure().Infer(InferMemAllocTensor)
        .Doc("VM tensor creation inside a storage at a byte offset."),
    Op("relax.vm.call_tir_dyn").Script("vm.call_tir_dyn").Params({Any("func"), Any("args")})
        .Impure().Infer(InferVoid)
        .Doc("VM call of a PrimFunc with a trailing shape argument; impure."),
    Op("relax.vm.kill_object").Script("vm.kill_object").Params({Any("obj")})
        .Impure().Infer(InferVoid).Doc("Clears a VM register; impure."),
  };
}

// Script-level helpers (not registered ops), relax_ops.md §6.
std::vector<OpInfo> ScriptHelperRows() {
  return {
    Op("script.call_packed").Script("call_packed")
        .Params({Any("func"), Any("*args"),
                 Any("ty_args", "None").ClassicName("sinfo_args").Annotation(), Any("**kwargs")})
        .Impure().Infer(InferTyArgs)
        .Doc("Calls a packed function by name; impure, result given by ty_args."),
    Op("script.const").Script("const").Params({Any("value"), Attr("dtype", "None")})
        .Pure().Infer(InferConst).Doc("A constant tensor from a Python number or nested list."),
    Op("script.shape").Script("shape").Params({Shape("value")})
        .Pure().Infer(InferShapeLiteral).Doc("A Shape value from a list of integer expressions."),
    Op("script.prim_value").Script("prim_value").Params({Prim("value")})
        .Pure().Infer(InferPrimValue)
        .Doc("A primitive scalar value (int64 for ints, float64 for floats)."),
    Op("script.str").Script("str").Params({Attr("value")})
        .Pure().Infer(InferObject).Doc("A string immediate."),
    Op("script.dtype").Script("dtype").Params({Attr("value")})
        .Pure().Infer(InferObject).Doc("A data type immediate."),
    Op("script.tuple").Script("tuple").Params({Any("*fields")})
        .Pure().Infer(InferUnknown).Doc("A tuple of Relax values."),
    Op("script.linear").Script("linear")
        .Params({Tensor("data"), Tensor("weight"), Tensor("bias", "None"),
                 Attr("out_dtype", "None")})
        .Pure().Infer(InferLinear)
        .Doc("data @ weight.T (+ bias), built from matmul and permute_dims."),
    Op("script.nn.relu6").Script("nn.relu6").Params({Tensor("data")})
        .Pure().Infer(InferUnaryArith).Doc("ReLU clipped at 6 (clip(data, 0, 6))."),
    Op("script.emit_te").Script("emit_te").Params({Any("func"), Any("*args"), Any("**kwargs")})
        .Pure().Infer(InferUnknown).Doc("Emits a call_tir of a TE function built on the fly."),
  };
}

// clang-format on

}  // namespace

std::vector<OpInfo> BuildOpTable() {
  std::vector<OpInfo> table;
  for (auto section : {CallRows, CollectiveCreationRows, BinaryRows, UnaryRows, GradImageIndexRows,
                       ManipulateRows, MemoryMiscRows, NnRowsAToC, NnRowsCToS,
                       QuantizeStatisticsRows, SearchSortVisionVmRows, ScriptHelperRows}) {
    std::vector<OpInfo> part = section();
    table.insert(table.end(), std::make_move_iterator(part.begin()),
                 std::make_move_iterator(part.end()));
  }
  return table;
}

}  // namespace tvmls::ops
