"""treadle.sim.import_snu -- the name of Warp's SNU (skeleton and muscle) importer, which treadle.sim does
not implement yet: calling it raises NotImplementedError (parse_mjcf is implemented)."""


def parse_snu(*args, **kwargs):
    """Warp's SNU (skeleton and muscle) importer; not in treadle.sim yet."""
    raise NotImplementedError("parse_snu(): not implemented in treadle.sim yet (parse_mjcf is)")
