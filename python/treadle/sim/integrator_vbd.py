"""treadle.sim.integrator_vbd -- the name of Warp's vertex block descent (VBD) integrator, which
treadle.sim does not implement yet (constructing one raises NotImplementedError)."""

from .integrator import UnimplementedIntegrator


class VBDIntegrator(UnimplementedIntegrator):
    """Warp's vertex block descent (VBD) integrator; not in treadle.sim yet."""
