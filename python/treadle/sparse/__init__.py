"""treadle.sparse: Warp's ``warp.sparse`` -- block sparse row (BSR) matrices, with CSR as the
case of scalar blocks, and their construction, copies, transposes, sums, products and
matrix-vector products, written as treadle kernels (the same code on the CPU and CUDA).

Import it explicitly (``import treadle.sparse``), as with Warp. matrix.py holds the matrix and
its storage layout; coo.py the one topology builder every operation uses.
"""

from . import operators as _operators  # noqa: F401 - registers the BsrMatrix operators
from .assign import bsr_assign as bsr_assign
from .assign import bsr_copy as bsr_copy
from .axpy import bsr_axpy as bsr_axpy
from .axpy import bsr_axpy_work_arrays as bsr_axpy_work_arrays
from .compress import bsr_compress as bsr_compress
from .construct import bsr_set_zero as bsr_set_zero
from .construct import bsr_zeros as bsr_zeros
from .diag import bsr_diag as bsr_diag
from .diag import bsr_get_diag as bsr_get_diag
from .diag import bsr_identity as bsr_identity
from .diag import bsr_set_diag as bsr_set_diag
from .diag import bsr_set_identity as bsr_set_identity
from .funcs import bsr_block_index as bsr_block_index
from .funcs import bsr_row_index as bsr_row_index
from .matrix import BSR_STATUS_ROW_CAPACITY_EXCEEDED as BSR_STATUS_ROW_CAPACITY_EXCEEDED
from .matrix import BSR_STATUS_SUCCESS as BSR_STATUS_SUCCESS
from .matrix import BsrMatrix as BsrMatrix
from .matrix import bsr_matrix_t as bsr_matrix_t
from .mm import bsr_mm as bsr_mm
from .mm import bsr_mm_work_arrays as bsr_mm_work_arrays
from .mv import bsr_mv as bsr_mv
from .scale import bsr_scale as bsr_scale
from .transpose import bsr_set_transpose as bsr_set_transpose
from .transpose import bsr_transposed as bsr_transposed
from .triplets import bsr_from_triplets as bsr_from_triplets
from .triplets import bsr_set_from_triplets as bsr_set_from_triplets
