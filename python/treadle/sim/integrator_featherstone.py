"""treadle.sim.integrator_featherstone -- the name of Warp's reduced-coordinate (Featherstone) integrator, which
treadle.sim does not implement yet (constructing one raises NotImplementedError)."""

from .integrator import UnimplementedIntegrator


class FeatherstoneIntegrator(UnimplementedIntegrator):
    """Warp's reduced-coordinate (Featherstone) integrator; not in treadle.sim yet."""
