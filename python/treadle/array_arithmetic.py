"""Warp's arithmetic operators on arrays (``a + s``, ``s * a``, ``a -= b``, ``-a``): the methods
``wp.array`` inherits, which run elementwise through the one implementation registered here
(``treadle.array_ops``, which launches kernels and so sits in a layer above the array type).
Each returns a new array, except the in-place forms, which write their left operand."""

_impl = [None]


def register(impl):
    """Makes ``impl(name, a, b, reflected, out)`` the implementation of the operators."""
    _impl[0] = impl


def _apply(name, a, b=None, reflected=False, out=None):
    if _impl[0] is None:
        raise NotImplementedError("array arithmetic needs the treadle package to be imported")
    return _impl[0](name, a, b, reflected, out)


class ArrayArithmetic:
    """The arithmetic operators of ``wp.array``."""

    __slots__ = ()

    def __add__(self, other):
        return _apply("add", self, other)

    def __radd__(self, other):
        return _apply("add", self, other, reflected=True)

    def __sub__(self, other):
        return _apply("sub", self, other)

    def __rsub__(self, other):
        return _apply("sub", self, other, reflected=True)

    def __mul__(self, other):
        return _apply("mul", self, other)

    def __rmul__(self, other):
        return _apply("mul", self, other, reflected=True)

    def __truediv__(self, other):
        return _apply("div", self, other)

    def __rtruediv__(self, other):
        return _apply("div", self, other, reflected=True)

    def __floordiv__(self, other):
        return _apply("floordiv", self, other)

    def __rfloordiv__(self, other):
        return _apply("floordiv", self, other, reflected=True)

    def __mod__(self, other):
        return _apply("mod", self, other)

    def __rmod__(self, other):
        return _apply("mod", self, other, reflected=True)

    def __pow__(self, other):
        return _apply("pow", self, other)

    def __rpow__(self, other):
        return _apply("pow", self, other, reflected=True)

    def __neg__(self):
        return _apply("neg", self)

    def __pos__(self):
        return _apply("pos", self)

    def __iadd__(self, other):
        return _apply("add", self, other, out=self)

    def __isub__(self, other):
        return _apply("sub", self, other, out=self)

    def __imul__(self, other):
        return _apply("mul", self, other, out=self)

    def __itruediv__(self, other):
        return _apply("div", self, other, out=self)

    def __ifloordiv__(self, other):
        return _apply("floordiv", self, other, out=self)

    def __imod__(self, other):
        return _apply("mod", self, other, out=self)

    def __ipow__(self, other):
        return _apply("pow", self, other, out=self)
