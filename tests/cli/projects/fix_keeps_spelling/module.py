# Fixes keep how the user wrote things: T.int64(...) dims stay T.int64(...), a positional dtype
# stays positional, single quotes stay single, and only what differs is edited.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def relu(
        inp: T.Buffer((T.int64(8), T.int64(4)), "float32"),
        out: T.Buffer((T.int64(1), T.int64(4)), "float32"),
    ):
        for i, j in T.grid(T.int64(1), T.int64(4)):
            with T.block("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                out[vi, vj] = T.max(inp[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor((1, 4), 'float32')) -> R.Tensor((1, 4), 'float32'):
        cls = Module
        a: R.Tensor((1, 5), 'float32') = R.add(x, x)
        b: R.Tensor((1, 4), "int32") = R.multiply(x, x)
        c = R.call_tir(cls.relu, (x,), out_sinfo=R.Tensor((1, 4), "float32"))
        return c
