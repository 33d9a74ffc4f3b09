"""treadle.sim.import_urdf -- the name of Warp's URDF (robot description) importer, which treadle.sim does
not implement yet: calling it raises NotImplementedError (parse_mjcf is implemented)."""


def parse_urdf(*args, **kwargs):
    """Warp's URDF (robot description) importer; not in treadle.sim yet."""
    raise NotImplementedError("parse_urdf(): not implemented in treadle.sim yet (parse_mjcf is)")
