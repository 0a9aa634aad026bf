# A small pre-norm transformer block, classic era (TVM <= v0.23 spelling). CLEAN: no bugs.
# hidden = 64, 4 heads of 16, MLP width 256, dtype float16, symbolic batch `b` and sequence
# length `s`. RMSNorm, the attention output projection and the SwiGLU activation are TIR
# kernels called through R.call_tir; everything else uses Relax operators.
from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script import relax as R


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def linear_64x64(var_x: T.handle, w: T.Buffer((T.int64(64), T.int64(64)), "float16"), var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        b, s = T.int64(), T.int64()
        X = T.match_buffer(var_x, (b, s, T.int64(64)), "float16")
        Y = T.match_buffer(var_y, (b, s, T.int64(64)), "float16")
        # with T.block("root"):
        for i0, i1, j, k in T.grid(b, s, T.int64(64), T.int64(64)):
            with T.block("matmul"):
                v_i0, v_i1, v_j, v_k = T.axis.remap("SSSR", [i0, i1, j, k])
                T.reads(X[v_i0, v_i1, v_k], w[v_k, v_j])
                T.writes(Y[v_i0, v_i1, v_j])
                with T.init():
                    Y[v_i0, v_i1, v_j] = T.float16(0)
                Y[v_i0, v_i1, v_j] = Y[v_i0, v_i1, v_j] + X[v_i0, v_i1, v_k] * w[v_k, v_j]

    @T.prim_func(private=True)
    def rms_norm(var_x: T.handle, weight: T.Buffer((T.int64(64),), "float16"), var_y: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        b, s = T.int64(), T.int64()
        X = T.match_buffer(var_x, (b, s, T.int64(64)), "float16")
        Y = T.match_buffer(var_y, (b, s, T.int64(64)), "float16")
        # with T.block("root"):
        sq_sum = T.alloc_buffer((b, s))
        for i0, i1, k in T.grid(b, s, T.int64(64)):
            with T.block("sq_sum"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(X[v_i0, v_i1, v_k])
                T.writes(sq_sum[v_i0, v_i1])
                with T.init():
                    sq_sum[v_i0, v_i1] = T.float32(0)
                sq_sum[v_i0, v_i1] = sq_sum[v_i0, v_i1] + T.Cast("float32", X[v_i0, v_i1, v_k]) * T.Cast(
                    "float32", X[v_i0, v_i1, v_k]
                )
        for i0, i1, i2 in T.grid(b, s, T.int64(64)):
            with T.block("rms_norm"):
                v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(X[v_i0, v_i1, v_i2], sq_sum[v_i0, v_i1], weight[v_i2])
                T.writes(Y[v_i0, v_i1, v_i2])
                Y[v_i0, v_i1, v_i2] = (
                    T.Cast(
                        "float16",
                        T.Cast("float32", X[v_i0, v_i1, v_i2])
                        * T.rsqrt(sq_sum[v_i0, v_i1] * T.float32(0.015625) + T.float32(1.0000000000000001e-05)),
                    )
                    * weight[v_i2]
                )

    @T.prim_func(private=True)
    def silu_mul(var_gate: T.handle, var_up: T.handle, var_out: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        b, s = T.int64(), T.int64()
        gate = T.match_buffer(var_gate, (b, s, T.int64(256)), "float16")
        up = T.match_buffer(var_up, (b, s, T.int64(256)), "float16")
        out = T.match_buffer(var_out, (b, s, T.int64(256)), "float16")
        # with T.block("root"):
        for i0, i1, i2 in T.grid(b, s, T.int64(256)):
            with T.block("silu_mul"):
                v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(gate[v_i0, v_i1, v_i2], up[v_i0, v_i1, v_i2])
                T.writes(out[v_i0, v_i1, v_i2])
                g: T.float32 = T.Cast("float32", gate[v_i0, v_i1, v_i2])
                out[v_i0, v_i1, v_i2] = T.Cast(
                    "float16", g * T.sigmoid(g) * T.Cast("float32", up[v_i0, v_i1, v_i2])
                )

    @R.function
    def main(
        x: R.Tensor(("b", "s", 64), dtype="float16"),
        attn_norm_w: R.Tensor((64,), dtype="float16"),
        wq: R.Tensor((64, 64), dtype="float16"),
        wk: R.Tensor((64, 64), dtype="float16"),
        wv: R.Tensor((64, 64), dtype="float16"),
        wo: R.Tensor((64, 64), dtype="float16"),
        mlp_norm_gamma: R.Tensor((64,), dtype="float16"),
        mlp_norm_beta: R.Tensor((64,), dtype="float16"),
        w_gate: R.Tensor((64, 256), dtype="float16"),
        w_up: R.Tensor((64, 256), dtype="float16"),
        w_down: R.Tensor((256, 64), dtype="float16"),
    ) -> R.Tensor(("b", "s", 64), dtype="float16"):
        R.func_attr({"num_input": 1})
        b = T.int64()
        s = T.int64()
        cls = Module
        with R.dataflow():
            # attention sub-block
            h: R.Tensor((b, s, 64), dtype="float16") = R.call_tir(
                cls.rms_norm, (x, attn_norm_w), out_sinfo=R.Tensor((b, s, 64), dtype="float16")
            )
            q: R.Tensor((b, s, 64), dtype="float16") = R.matmul(h, wq, out_dtype="void")
            k: R.Tensor((b, s, 64), dtype="float16") = R.matmul(h, wk, out_dtype="void")
            v = R.matmul(h, wv)
            q_h: R.Tensor((b, s, 4, 16), dtype="float16") = R.reshape(q, R.shape([b, s, 4, 16]))
            k_h: R.Tensor((b, s, 4, 16), dtype="float16") = R.reshape(k, R.shape([b, s, 4, 16]))
            v_h = R.reshape(v, R.shape([b, s, 4, 16]))
            q_t: R.Tensor((b, 4, s, 16), dtype="float16") = R.permute_dims(q_h, axes=[0, 2, 1, 3])
            k_t: R.Tensor((b, 4, 16, s), dtype="float16") = R.permute_dims(k_h, axes=[0, 2, 3, 1])
            v_t: R.Tensor((b, 4, s, 16), dtype="float16") = R.permute_dims(v_h, axes=[0, 2, 1, 3])
            scores: R.Tensor((b, 4, s, s), dtype="float16") = R.matmul(q_t, k_t, out_dtype="void")
            scaled: R.Tensor((b, 4, s, s), dtype="float16") = R.multiply(
                scores, R.const(0.25, "float16")
            )
            probs = R.nn.softmax(scaled, axis=-1)
            ctx: R.Tensor((b, 4, s, 16), dtype="float16") = R.matmul(probs, v_t, out_dtype="void")
            ctx_t: R.Tensor((b, s, 4, 16), dtype="float16") = R.permute_dims(ctx, axes=[0, 2, 1, 3])
            ctx_m: R.Tensor((b, s, 64), dtype="float16") = R.reshape(ctx_t, R.shape([b, s, 64]))
            attn: R.Tensor((b, s, 64), dtype="float16") = R.call_tir(
                cls.linear_64x64, (ctx_m, wo), out_sinfo=R.Tensor((b, s, 64), dtype="float16")
            )
            h1: R.Tensor((b, s, 64), dtype="float16") = R.add(x, attn)
            # MLP sub-block (SwiGLU)
            n2: R.Tensor((b, s, 64), dtype="float16") = R.nn.layer_norm(
                h1,
                mlp_norm_gamma,
                mlp_norm_beta,
                axes=[-1],
                epsilon=1.0000000000000001e-05,
                center=True,
                scale=True,
            )
            gate: R.Tensor((b, s, 256), dtype="float16") = R.matmul(n2, w_gate, out_dtype="void")
            up = R.matmul(n2, w_up)
            act: R.Tensor((b, s, 256), dtype="float16") = R.call_tir(
                cls.silu_mul, (gate, up), out_sinfo=R.Tensor((b, s, 256), dtype="float16")
            )
            down: R.Tensor((b, s, 64), dtype="float16") = R.matmul(act, w_down, out_dtype="void")
            gv: R.Tensor((b, s, 64), dtype="float16") = R.add(h1, down)
            R.output(gv)
        return gv
