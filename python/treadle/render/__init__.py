"""treadle.render: the names of Warp's ``warp.render`` that programs reach without drawing.

treadle has no renderer: ``OpenGLRenderer`` and ``UsdRenderer`` refuse to be constructed, but
the OpenGL renderer's static mesh generators (``OpenGLRenderer._create_sphere_mesh``, which
Warp's tests use to make test meshes) work.
"""

from .render_opengl import OpenGLRenderer as OpenGLRenderer
from .render_usd import UsdRenderer as UsdRenderer
