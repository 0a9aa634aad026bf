# Seed bug (a), classic era (TVM <= v0.23): a fixed-size R.memory.alloc_storage backs a
# tensor whose byte size grows with the symbolic dim `n` (cf. apache/tvm issue #17322).
# The storage holds 1024 bytes, the (n, 64) float32 view needs 256 * n bytes, so the program
# is only valid for n <= 4. The pooled VM allocator rounds the request up to a 4096-byte page,
# so nothing fails until n > 16; between those sizes the kernel writes past the allocation.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def relu(var_x: T.handle, var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        X = T.match_buffer(var_x, (n, T.int64(64)))
        Y = T.match_buffer(var_y, (n, T.int64(64)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(64)):
            with T.block("relu"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(X[v_i, v_j])
                T.writes(Y[v_i, v_j])
                Y[v_i, v_j] = T.max(X[v_i, v_j], T.float32(0))

    @R.function(pure=False)
    def main(x: R.Tensor(("n", 64), dtype="float32")) -> R.Tensor(("n", 64), dtype="float32"):
        n = T.int64()
        cls = Module
        storage: R.Object = R.memory.alloc_storage(
            R.shape([1024]), R.prim_value(0), R.str("global"), R.dtype("uint8")  # 1024 bytes
        )
        y: R.Tensor((n, 64), dtype="float32") = R.memory.alloc_tensor(
            storage,
            R.prim_value(0),
            # BUG (a): the view needs 0 + 4 * (n * 64) = 256 * n bytes, but `storage` was
            # allocated with R.shape([1024]) = 1024 bytes, so this only holds for n <= 4. The
            # pooled allocator rounds 1024 up to a 4096-byte page, so the overflow is silent
            # until 256 * n > 4096 (n > 16), then fails with "storage allocation failure".
            # Fix: size the storage from the shape, R.memory.alloc_storage(R.shape([n * 256]), ...),
            # or guard it first: R.assert_op(n * 256 <= 1024, format="input too large for storage").
            R.shape([n, 64]),  # BUG (a): needs 256 * n bytes > 1024 for n > 4
            R.dtype("float32"),
        )
        _: R.Tuple = cls.relu(x, y)
        return y
