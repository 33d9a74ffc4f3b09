"""treadle.sparse operators: what ``A + B``, ``A - B``, ``alpha * A``, ``A @ B``, ``A @ x``,
``x @ A``, ``A += B`` and ``A.transpose()`` do on matrices and scaled expressions. This module
sits above every operation and registers itself with matrix.py, so the matrix layer needs no
import of the layers above it."""

from ..array import array
from .assign import bsr_copy
from .axpy import bsr_axpy
from .expression import BsrScalingExpression
from .matrix import register_operators
from .mm import bsr_mm
from .mv import bsr_mv
from .scale import bsr_scale
from .transpose import bsr_transposed


class _Operators:
    """The operator implementations (one instance, registered below). ``scale`` is the factor
    of the matrix operand when it comes from a scaled expression."""

    @staticmethod
    def add(mat, scale, other):
        """scale * mat + other, as a new matrix."""
        return bsr_axpy(other, bsr_copy(mat), alpha=1.0, beta=scale)

    @staticmethod
    def subtract(mat, scale, other):
        """scale * mat - other, as a new matrix."""
        return bsr_axpy(other, bsr_copy(mat), alpha=-1.0, beta=scale)

    @staticmethod
    def subtract_from(other, mat, scale):
        """other - scale * mat, as a new matrix."""
        return bsr_axpy(other, bsr_copy(mat), alpha=1.0, beta=-scale)

    @staticmethod
    def add_to(mat, other, sign):
        """mat += sign * other, in place."""
        return bsr_axpy(other, mat, alpha=sign)

    @staticmethod
    def scaled(mat, scale):
        """The lazy expression scale * mat."""
        return BsrScalingExpression(mat, scale)

    @staticmethod
    def scale_in_place(mat, scale):
        """mat *= scale."""
        return bsr_scale(mat, scale)

    @staticmethod
    def matmul(mat, scale, other):
        """scale * mat @ other: a vector for an array, else a new matrix."""
        if isinstance(other, array):
            return bsr_mv(mat, other, alpha=scale)
        return bsr_mm(mat, other, alpha=scale)

    @staticmethod
    def rmatmul(other, mat, scale):
        """other @ (scale * mat): a vector (the transposed product) for an array."""
        if isinstance(other, array):
            return bsr_mv(mat, other, alpha=scale, transpose=True)
        return bsr_mm(other, mat, alpha=scale)

    @staticmethod
    def matmul_in_place(mat, other):
        """mat = mat @ other."""
        return bsr_mm(mat, other, mat)

    @staticmethod
    def transposed(mat):
        """A transposed copy."""
        return bsr_transposed(mat)

    @staticmethod
    def copied(expression):
        """An expression evaluated into a new matrix."""
        return bsr_copy(expression)


register_operators(_Operators())
