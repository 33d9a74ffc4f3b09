"""treadle.sim.integrator_xpbd -- the name of Warp's position-based (XPBD) integrator, which
treadle.sim does not implement yet (constructing one raises NotImplementedError)."""

from .integrator import UnimplementedIntegrator


class XPBDIntegrator(UnimplementedIntegrator):
    """Warp's position-based (XPBD) integrator; not in treadle.sim yet."""
