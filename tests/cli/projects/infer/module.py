# The struct info of every parameter, binding and return, as hover shows it (`tvmls infer`).
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 64), "float32"), w: R.Tensor((64, 32), "float32"), s: R.Shape([2, 3])):
        n = T.int64()
        with R.dataflow():
            y = R.matmul(x, w)
            z = R.nn.relu(y)
            t = R.split(z, 2, axis=1)
            u = t[0]
            v = R.unknown_thing(u)
            R.output(u, v)
        return u
