# Seed bug (b), classic era (TVM <= v0.23): R.memory.kill_tensor inside `with R.dataflow():`
# (cf. apache/tvm issue #17340). This is what KillAfterLastUse emits when it runs before
# ToNonDataflow: the impure kill lands in a dataflow block of a pure function. `main_folded`
# shows the same IR after FoldConstant, where the killed value became a metadata constant
# (printed with show_meta=False, so `metadata` is only a placeholder name here).
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function  # related: pure function (default pure=True) contains an impure call
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            w: R.Tensor((4,), dtype="float32") = R.ones(R.shape([4]), dtype="float32")
            y: R.Tensor((4,), dtype="float32") = R.add(x, w)
            # BUG (b): impure operator relax.memory.kill_tensor inside a dataflow block (and in a
            # pure function). Fix: delete this line; the build pipeline inserts kills itself
            # after ToNonDataflow. If a kill is really needed, put it after the dataflow block
            # and mark the function @R.function(pure=False).
            _: R.Tuple = R.memory.kill_tensor(w)  # BUG (b): impure kill in dataflow block
            gv: R.Tensor((4,), dtype="float32") = R.multiply(y, y)
            R.output(gv)
        return gv

    @R.function  # related: pure function (default pure=True) contains an impure call
    def main_folded(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            y: R.Tensor((4,), dtype="float32") = R.add(x, metadata["relax.expr.Constant"][0])
            # BUG (b), after FoldConstant: still an impure kill inside a dataflow block, and now
            # its argument is a constant. kill_tensor/kill_storage/vm.kill_object need a variable
            # that owns a VM register, not a constant (a second KillAfterLastUse aborts with
            # "non-normalized expression"). Fix: delete this line.
            _: R.Tuple = R.memory.kill_tensor(metadata["relax.expr.Constant"][0])  # BUG (b)
            gv: R.Tensor((4,), dtype="float32") = R.multiply(y, y)
            R.output(gv)
        return gv


# Metadata omitted. Use show_meta=True in script() method to show it.
