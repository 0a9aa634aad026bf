import pytest
from tvm.script import relax as R


def test_raises():
    with pytest.raises(ValueError):

        @R.function
        def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            _y: R.Tensor((8,), "float32") = R.add(x, x)
            return x
