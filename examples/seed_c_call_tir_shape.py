# Seed bug (c), classic era (TVM <= v0.23): R.call_tir passes a (1, 64, 56, 56) tensor to a
# PrimFunc whose buffer parameter is declared (64, 64, 56, 56) (cf. apache/tvm issue #17310).
# The Relax annotations agree with each other; only the TIR signature of `relu` is wrong.
# TVM v0.17 accepted this at parse time and failed late in relax.build; v0.18+ rejects it in
# the well-formed check ("Argument 0 type mismatch").
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def conv2d(
        data: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32"),
        weight: T.Buffer((T.int64(64), T.int64(64), T.int64(3), T.int64(3)), "float32"),
        conv2d_nchw: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32"),
    ):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        pad_temp = T.alloc_buffer((T.int64(1), T.int64(64), T.int64(58), T.int64(58)))
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(64), T.int64(58), T.int64(58)):
            with T.block("pad_temp"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(data[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)])
                T.writes(pad_temp[v_i0, v_i1, v_i2, v_i3])
                pad_temp[v_i0, v_i1, v_i2, v_i3] = T.if_then_else(
                    T.int64(1) <= v_i2 and v_i2 < T.int64(57) and T.int64(1) <= v_i3 and v_i3 < T.int64(57),
                    data[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)],
                    T.float32(0),
                )
        for nn, ff, yy, xx, rc, ry, rx in T.grid(
            T.int64(1), T.int64(64), T.int64(56), T.int64(56), T.int64(64), T.int64(3), T.int64(3)
        ):
            with T.block("conv2d_nchw"):
                v_nn, v_ff, v_yy, v_xx, v_rc, v_ry, v_rx = T.axis.remap(
                    "SSSSRRR", [nn, ff, yy, xx, rc, ry, rx]
                )
                T.reads(pad_temp[v_nn, v_rc, v_yy + v_ry, v_xx + v_rx], weight[v_ff, v_rc, v_ry, v_rx])
                T.writes(conv2d_nchw[v_nn, v_ff, v_yy, v_xx])
                with T.init():
                    conv2d_nchw[v_nn, v_ff, v_yy, v_xx] = T.float32(0)
                conv2d_nchw[v_nn, v_ff, v_yy, v_xx] = (
                    conv2d_nchw[v_nn, v_ff, v_yy, v_xx]
                    + pad_temp[v_nn, v_rc, v_yy + v_ry, v_xx + v_rx] * weight[v_ff, v_rc, v_ry, v_rx]
                )

    @T.prim_func(private=True)
    def relu(
        # Related location for bug (c): declared (64, 64, 56, 56), but the only caller passes a
        # (1, 64, 56, 56) tensor. Fix: declare (T.int64(1), T.int64(64), T.int64(56), T.int64(56)).
        inp: T.Buffer((T.int64(64), T.int64(64), T.int64(56), T.int64(56)), "float32"),
        compute: T.Buffer((T.int64(1), T.int64(64), T.int64(56), T.int64(56)), "float32"),
    ):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(64), T.int64(56), T.int64(56)):
            with T.block("compute"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(inp[v_i0, v_i1, v_i2, v_i3])
                T.writes(compute[v_i0, v_i1, v_i2, v_i3])
                compute[v_i0, v_i1, v_i2, v_i3] = T.max(inp[v_i0, v_i1, v_i2, v_i3], T.float32(0))

    @R.function
    def main(
        x: R.Tensor((1, 64, 56, 56), dtype="float32"),
        w: R.Tensor((64, 64, 3, 3), dtype="float32"),
    ) -> R.Tensor((1, 64, 56, 56), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((1, 64, 56, 56), dtype="float32") = R.call_tir(
                cls.conv2d, (x, w), out_sinfo=R.Tensor((1, 64, 56, 56), dtype="float32")
            )
            # BUG (c): argument 0 (`lv`) has shape (1, 64, 56, 56), but PrimFunc `relu` parameter
            # `inp` expects (64, 64, 56, 56). Fix: change the buffer shape of `inp` in `relu` to
            # (1, 64, 56, 56) (its loops already iterate over (1, 64, 56, 56)).
            gv: R.Tensor((1, 64, 56, 56), dtype="float32") = R.call_tir(
                cls.relu, (lv,), out_sinfo=R.Tensor((1, 64, 56, 56), dtype="float32")  # BUG (c)
            )
            R.output(gv)
        return gv
