"""treadle.sparse scaled-matrix expressions: ``alpha * A`` as a lazy (matrix, scale) pair that the
operations fold into their own scale factors (Warp's ``_BsrScalingExpression``), and the one
function that takes an operand apart."""

from .matrix import BsrMatrix, operators


class BsrScalingExpression:
    """``scale * mat`` not yet evaluated; ``eval()`` makes the matrix. It reads like the matrix
    (shape, block type, topology arrays) and combines with the BsrMatrix operators."""

    def __init__(self, mat, scale):
        self.mat = mat
        self.scale = scale

    def eval(self):
        """The scaled matrix, as a new BsrMatrix."""
        return operators().copied(self)

    nrow = property(lambda self: self.mat.nrow, doc="Rows of blocks.")
    ncol = property(lambda self: self.mat.ncol, doc="Columns of blocks.")
    nnz = property(lambda self: self.mat.nnz, doc="The matrix's stored-block bound.")
    offsets = property(lambda self: self.mat.offsets, doc="The matrix's row offsets.")
    row_counts = property(lambda self: self.mat.row_counts, doc="The matrix's row counts.")
    columns = property(lambda self: self.mat.columns, doc="The matrix's block columns.")
    values = property(lambda self: self.mat.values, doc="The matrix's (unscaled) values.")
    scalar_type = property(lambda self: self.mat.scalar_type, doc="The scalar type.")
    block_shape = property(lambda self: self.mat.block_shape, doc="The block shape.")
    block_size = property(lambda self: self.mat.block_size, doc="Coefficients per block.")
    shape = property(lambda self: self.mat.shape, doc="Scalar rows and columns.")
    dtype = property(lambda self: self.mat.dtype, doc="The block type.")
    requires_grad = property(lambda self: self.mat.requires_grad, doc="Whether values need grad.")
    device = property(lambda self: self.mat.device, doc="The device.")

    def __add__(self, y):
        return operators().add(self.mat, self.scale, y)

    def __radd__(self, x):
        return operators().add(self.mat, self.scale, x)

    def __sub__(self, y):
        return operators().subtract(self.mat, self.scale, y)

    def __rsub__(self, x):
        return operators().subtract_from(x, self.mat, self.scale)

    def __mul__(self, y):
        return BsrScalingExpression(self.mat, y * self.scale)

    def __rmul__(self, x):
        return BsrScalingExpression(self.mat, x * self.scale)

    def __truediv__(self, y):
        return BsrScalingExpression(self.mat, self.scale / y)

    def __neg__(self):
        return BsrScalingExpression(self.mat, -self.scale)

    def __matmul__(self, y):
        return operators().matmul(self.mat, self.scale, y)

    def __rmatmul__(self, x):
        return operators().rmatmul(x, self.mat, self.scale)

    def transpose(self):
        """The transposed expression (the matrix transposed now, the scale kept)."""
        return BsrScalingExpression(self.mat.transpose(), self.scale)


def matrix_and_scale(operand, function):
    """(matrix, scale) of a BsrMatrix (scale 1) or a scaled expression; ValueError otherwise."""
    if isinstance(operand, BsrMatrix):
        return operand, 1.0
    if isinstance(operand, BsrScalingExpression):
        return operand.mat, operand.scale
    raise ValueError(f"{function}(): Argument cannot be interpreted as a BsrMatrix (got "
                     f"{type(operand).__name__})")
