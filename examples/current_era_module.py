# A small CLEAN module in the current (v0.26 / HEAD, "tirx") dialect: `tirx as T`, `T.sblock`,
# `T.sblock_alloc_buffer`, `@T.prim_func(s_tir=True)`, `out_ty=` instead of `out_sinfo=`,
# `R.Any` instead of `R.Object`, and a primitive argument (`n`) passed inside the R.call_tir
# argument tuple instead of `tir_vars=`. `fixed_batch` shows the 5-argument alloc_tensor form.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module(s_tir=True)
class Module:
    @T.prim_func(private=True, s_tir=True)
    def add_bias(var_x: T.handle, bias: T.Buffer((T.int64(64),), "float32"), var_y: T.handle):
        T.func_attr({"tirx.noalias": True})
        n = T.int64()
        X = T.match_buffer(var_x, (n, T.int64(64)))
        Y = T.match_buffer(var_y, (n, T.int64(64)))
        for i, j in T.grid(n, T.int64(64)):
            with T.sblock("add_bias"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(X[v_i, v_j], bias[v_j])
                T.writes(Y[v_i, v_j])
                Y[v_i, v_j] = X[v_i, v_j] + bias[v_j]

    @T.prim_func(private=True, s_tir=True)
    def col_mean(var_x: T.handle, n: T.int64, var_y: T.handle):
        T.func_attr({"tirx.noalias": True})
        X = T.match_buffer(var_x, (n, T.int64(64)))
        Y = T.match_buffer(var_y, (T.int64(64),))
        for j, i in T.grid(T.int64(64), n):
            with T.sblock("col_mean"):
                v_j, v_i = T.axis.remap("SR", [j, i])
                T.reads(X[v_i, v_j])
                T.writes(Y[v_j])
                with T.init():
                    Y[v_j] = T.float32(0)
                Y[v_j] = Y[v_j] + X[v_i, v_j] / T.Cast("float32", n)

    @T.prim_func(private=True, s_tir=True)
    def l2_normalize(A: T.Buffer((T.int64(64),), "float32"), B: T.Buffer((T.int64(64),), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        sq_sum = T.sblock_alloc_buffer((T.int64(1),))
        for k in range(T.int64(64)):
            with T.sblock("sq_sum"):
                v_k = T.axis.reduce(T.int64(64), k)
                T.reads(A[v_k])
                T.writes(sq_sum[T.int64(0)])
                with T.init():
                    sq_sum[T.int64(0)] = T.float32(0)
                sq_sum[T.int64(0)] = sq_sum[T.int64(0)] + A[v_k] * A[v_k]
        for i in range(T.int64(64)):
            with T.sblock("normalize"):
                v_i = T.axis.spatial(T.int64(64), i)
                T.reads(A[v_i], sq_sum[T.int64(0)])
                T.writes(B[v_i])
                B[v_i] = A[v_i] * T.rsqrt(sq_sum[T.int64(0)] + T.float32(9.9999999999999998e-13))

    @R.function(pure=False)
    def fixed_batch(
        x: R.Tensor((8, 64), dtype="float32"), bias: R.Tensor((64,), dtype="float32")
    ) -> R.Tensor((8, 64), dtype="float32"):
        cls = Module
        # 8 * 64 float32 = 2048 bytes, exactly the storage size.
        storage: R.Any = R.memory.alloc_storage(
            R.shape([2048]), R.prim_value(0), R.str("global"), R.dtype("uint8")
        )
        y: R.Tensor((8, 64), dtype="float32") = R.memory.alloc_tensor(
            storage, R.prim_value(0), R.shape([8, 64]), R.dtype("float32"), R.prim_value(0)
        )
        _: R.Tuple = cls.add_bias(x, bias, y)
        return y

    @R.function
    def main(
        x: R.Tensor(("n", 64), dtype="float32"), bias: R.Tensor((64,), dtype="float32")
    ) -> R.Tensor((64,), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            lv: R.Tensor((n, 64), dtype="float32") = R.call_tir(
                cls.add_bias, (x, bias), out_ty=R.Tensor((n, 64), dtype="float32")
            )
            lv1: R.Tensor((n, 64), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((64,), dtype="float32") = R.call_tir(
                cls.col_mean, (lv1, n), out_ty=R.Tensor((64,), dtype="float32")
            )
            gv = R.call_tir(cls.l2_normalize, (lv2,), out_ty=R.Tensor((64,), dtype="float32"))
            R.output(gv)
        return gv
