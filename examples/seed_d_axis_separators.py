# Seed bug (d), classic era (TVM <= v0.23): invalid `axis_separators` on TIR buffers
# (cf. apache/tvm issue #17215, PR #17219). `B` is the reported case: [1] on a rank-1 buffer
# leaves the last physical axis empty (TVM <= v0.17 fails late in FlattenBuffer; v0.18+ accepts
# it and builds a (16, 1) physical buffer). `stage` is out of range (2 > rank 1), which v0.18+
# rejects already in the Buffer constructor. v0.26+ removed `axis_separators` altogether.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy_staged(a: T.handle, b: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        A = T.match_buffer(a, (16,), "float32")
        # BUG (d): separator 1 on a rank-1 buffer leaves the last physical axis without input
        # axes ("Last output axis must contain at least one input axis" in TVM <= v0.17).
        # Fix: remove `axis_separators=[1]` (or use []).
        B = T.match_buffer(b, (16,), "float32", axis_separators=[1])  # BUG (d)
        # with T.block("root"):
        # BUG (d), variant: axis_separators must be non-decreasing and within 0..rank (rank = 1);
        # 2 is out of range. Fix: drop the separator.
        stage = T.alloc_buffer((16,), axis_separators=[2])  # BUG (d)
        for i in range(16):
            with T.block("stage"):
                vi = T.axis.spatial(16, i)
                T.reads(A[vi])
                T.writes(stage[vi])
                stage[vi] = A[vi]
        for i in range(16):
            with T.block("copy"):
                vi = T.axis.spatial(16, i)
                T.reads(stage[vi])
                T.writes(B[vi])
                B[vi] = stage[vi]

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        cls = Module
        with R.dataflow():
            y: R.Tensor((16,), dtype="float32") = R.call_tir(
                cls.copy_staged, (x,), out_sinfo=R.Tensor((16,), dtype="float32")
            )
            R.output(y)
        return y
