"""treadle._src.optim.linear: Warp's private ``warp._src.optim.linear`` as Warp's tests import
it -- the public solvers of ``treadle.optim.linear`` plus the reduction helper ``TiledDot``,
the segmented-reduction kernel factory and the host-checked solver loop."""

from ...optim.linear import CG as CG
from ...optim.linear import CR as CR
from ...optim.linear import GMRES as GMRES
from ...optim.linear import BiCGSTAB as BiCGSTAB
from ...optim.linear import LinearOperator as LinearOperator
from ...optim.linear import LinearSolverState as LinearSolverState
from ...optim.linear import aslinearoperator as aslinearoperator
from ...optim.linear import bicgstab as bicgstab
from ...optim.linear import cg as cg
from ...optim.linear import cr as cr
from ...optim.linear import gmres as gmres
from ...optim.linear import preconditioner as preconditioner
from ...optim.linear.dots import TiledDot as TiledDot
from ...optim.linear.dots import (
    _create_segmented_tiled_dot_kernels as _create_segmented_tiled_dot_kernels,
)
from ...optim.linear.loops import _run_solver_loop as _run_solver_loop
