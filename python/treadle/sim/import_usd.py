"""treadle.sim.import_usd -- the name of Warp's USD (Universal Scene Description) importer, which treadle.sim does
not implement yet: calling it raises NotImplementedError (parse_mjcf is implemented)."""


def parse_usd(*args, **kwargs):
    """Warp's USD (Universal Scene Description) importer; not in treadle.sim yet."""
    raise NotImplementedError("parse_usd(): not implemented in treadle.sim yet (parse_mjcf is)")


def resolve_usd_from_url(url: str, target_folder_name: str = None, export_usda: bool = False):
    """Warp's download helper for USD files referenced by URL; not in treadle.sim yet."""
    raise NotImplementedError("resolve_usd_from_url(): not implemented in treadle.sim yet")
