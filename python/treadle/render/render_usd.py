"""treadle.render.render_usd -- Warp's ``UsdRenderer`` name; treadle has no USD renderer."""


class UsdRenderer:
    """Warp's USD renderer, which treadle does not have: constructing one raises."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("UsdRenderer(): treadle has no USD renderer")
