"""treadle.sim.render -- Warp's simulation renderer names (``SimRenderer``,
``SimRendererOpenGL``, ``SimRendererUsd``); treadle has no renderer, so constructing one
raises, while programs that import the module without rendering run."""


class SimRendererUsd:
    """Warp's USD renderer of a Model's states, which treadle does not have."""

    def __init__(self, model=None, path=None, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}(): treadle.sim has no renderer")


class SimRendererOpenGL(SimRendererUsd):
    """Warp's OpenGL renderer of a Model's states, which treadle does not have."""


SimRenderer = SimRendererUsd
"""Warp's default simulation renderer (the USD one)."""
