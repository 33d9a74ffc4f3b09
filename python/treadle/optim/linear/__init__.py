"""treadle.optim.linear: Warp's iterative linear solvers (``warp.optim.linear``) -- conjugate
gradients (``cg``), conjugate residuals (``cr``), BiCGSTAB (``bicgstab``) and restarted GMRES
(``gmres``), their reusable states (``CG``, ``CR``, ``BiCGSTAB``, ``GMRES``), and the operators
they solve for (``LinearOperator``, ``aslinearoperator``, ``preconditioner``).

Every iteration is treadle kernels on the operator's device (products, per-batch reductions,
updates); the host reads residuals back only every ``check_every`` iterations. Start reading at
state.py (what the solvers share) and loops.py (when they stop); layout.py says how vectors and
batches are seen, dots.py how they are reduced.
"""

from .bicgstab_solver import BiCGSTAB as BiCGSTAB
from .bicgstab_solver import bicgstab as bicgstab
from .conjugate import CG as CG
from .conjugate import CR as CR
from .conjugate import cg as cg
from .conjugate import cr as cr
from .gmres_solver import GMRES as GMRES
from .gmres_solver import gmres as gmres
from .operators import LinearOperator as LinearOperator
from .operators import aslinearoperator as aslinearoperator
from .operators import preconditioner as preconditioner
from .state import LinearSolverState as LinearSolverState
