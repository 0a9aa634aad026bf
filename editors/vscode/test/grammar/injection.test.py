# SYNTAX TEST "source.python" "TVM names injected into Python files (the language stays python)"
from tvm.script import relax as R
# <- keyword.control.import.python


@R.function(pure=False)
# <- entity.name.function.decorator.tvmscript
#^^^^^^^^^^ entity.name.function.decorator.tvmscript
def main(x: R.Tensor((4,), dtype="float32")):
#           ^ entity.name.namespace.tvmscript
#             ^^^^^^ support.type.tvmscript
#                                 ^^^^^^^ support.type.dtype.tvmscript
# <- storage.type.function.python
    y = R.nn.conv2d(x, x, out_dtype="int64")
#       ^ entity.name.namespace.tvmscript
#         ^^ entity.name.namespace.tvmscript
#            ^^^^^^ support.function.builtin.tvmscript
#                                    ^^^^^ support.type.dtype.tvmscript
    print("R.add", "not a dtype")  # R.add
#          ^^^^^ string.quoted.single.python - support.function.builtin.tvmscript
#                   ^^^^^^^^^^^ string.quoted.single.python - support.type.dtype.tvmscript
#                                    ^^^^^ comment.line.number-sign.python - support.function.builtin.tvmscript
    return y
