"""wp.MarchingCubes: isosurfaces of 3-D float32 fields (Warp 1.17's class), over the C++
extraction of treadle/marching_cubes.h (_treadle.extract_surface), which runs on the field's
device.

Inside a ``wp.Tape``, an extraction from a field with a gradient is recorded as one custom step
whose backward pass adds the vertices' gradient into the field's (through each vertex's
interpolation between its edge's two values); triangle indices carry no gradient."""

from . import _treadle
from . import tape as _tape
from .array import _wrap, array
from .context import get_device
from .logger import log_warning

_CORNERS, _EDGES, _CASE_FIRST, _TRI_EDGES = _treadle.marching_cubes_tables()

_REMOVAL = "is deprecated and will be removed in Warp 1.19."
_SIZED = "Output arrays are sized dynamically; remove this argument from calls."


def _deprecated(message):
    log_warning(message, DeprecationWarning, stacklevel=3)


def _corner(value):
    """A domain corner as a tuple of 3 floats (or None)."""
    if value is None:
        return None
    values = tuple(value)
    if len(values) != 3:
        raise ValueError("Invalid number of arguments in vector constructor, expected 3 "
                         f"elements, got {len(values)}")
    return tuple(float(v) for v in values)


def _extract(field, threshold, lower, upper):
    if not isinstance(field, array):
        raise TypeError("Expected a warp array for 'field', but got "
                        f"{type(field).__name__}.")
    try:
        threshold = float(threshold)
    except (TypeError, ValueError):
        raise TypeError("Expected a float for 'threshold', but got "
                        f"{type(threshold).__name__}.") from None
    lower, upper = _corner(lower), _corner(upper)
    native_verts, native_indices, vertex_ends = _treadle.extract_surface(field, threshold, lower,
                                                                         upper)
    verts, indices = _wrap(native_verts), _wrap(native_indices)
    tape = _tape.current()
    if tape is not None and field.requires_grad:

        def backward():
            if verts.grad is None or field.grad is None:
                return
            _treadle.extract_surface_adjoint(field, threshold, lower, upper, verts, indices,
                                             vertex_ends, verts.grad, field.grad)

        tape.record_func(backward, [field, verts])
    return verts, indices


class MarchingCubes:
    """A reusable context for marching cubes surface extraction: a grid of ``nx * ny * nz``
    nodes and the domain it spans; ``surface(field, threshold)`` fills ``verts`` (vec3) and
    ``indices`` (int32, three per triangle)."""

    CUBE_CORNER_OFFSETS = tuple(tuple(c) for c in _CORNERS)
    """The (x, y, z) offset of each of a cell's 8 corners from its lower node."""
    EDGE_TO_CORNERS = tuple(tuple(e) for e in _EDGES)
    """The two corners each of a cell's 12 edges joins (along +x, +y or +z)."""
    CASE_TO_TRI_RANGE = tuple(_CASE_FIRST)
    """Per case (bit c set: corner c below the threshold), where its triangles' edges start in
    TRI_LOCAL_INDICES (257 entries: case c uses [CASE_TO_TRI_RANGE[c], CASE_TO_TRI_RANGE[c+1]))."""
    TRI_LOCAL_INDICES = tuple(_TRI_EDGES)
    """The edges of every case's triangles, three per triangle (normals towards higher values)."""

    def __init__(self, nx, ny, nz, max_verts=0, max_tris=0, device=None,
                 domain_bounds_lower_corner=None, domain_bounds_upper_corner=None):
        if max_verts != 0:
            _deprecated(f"MarchingCubes() argument `max_verts` {_REMOVAL} {_SIZED}")
        if max_tris != 0:
            _deprecated(f"MarchingCubes() argument `max_tris` {_REMOVAL} {_SIZED}")
        if device is not None:
            _deprecated(f"MarchingCubes() argument `device` {_REMOVAL} The input field "
                        "determines where extraction runs; remove this argument from calls.")
        self.nx = nx
        self.ny = ny
        self.nz = nz
        self.domain_bounds_lower_corner = domain_bounds_lower_corner
        self.domain_bounds_upper_corner = domain_bounds_upper_corner
        self.verts = None
        self.indices = None
        self._device = get_device(device)

    # --- Warp's deprecated attributes ------------------------------------------------------
    @property
    def device(self):
        _deprecated(f"MarchingCubes.device {_REMOVAL} Use the input field's `device` attribute "
                    "instead.")
        return self._device

    @property
    def max_verts(self):
        _deprecated(f"MarchingCubes.max_verts {_REMOVAL} Output arrays are sized dynamically; "
                    "remove this access.")
        return 0

    @property
    def max_tris(self):
        _deprecated(f"MarchingCubes.max_tris {_REMOVAL} Output arrays are sized dynamically; "
                    "remove this access.")
        return 0

    @property
    def id(self):
        _deprecated(f"MarchingCubes.id {_REMOVAL} This value no longer identifies a native "
                    "resource; remove this access.")
        return 0

    # --- extraction ------------------------------------------------------------------------
    def resize(self, nx, ny, nz, max_verts=0, max_tris=0):
        """Sets new grid dimensions for the next ``surface()`` call."""
        if max_verts != 0:
            _deprecated(f"MarchingCubes.resize() argument `max_verts` {_REMOVAL} {_SIZED}")
        if max_tris != 0:
            _deprecated(f"MarchingCubes.resize() argument `max_tris` {_REMOVAL} {_SIZED}")
        self.nx = nx
        self.ny = ny
        self.nz = nz

    def surface(self, field, threshold):
        """Extracts the isosurface of `field` (shape (nx, ny, nz)) at `threshold` into
        ``verts`` and ``indices``. ValueError when the shape differs from the grid's."""
        shape = tuple(getattr(field, "shape", ()))
        if shape != (self.nx, self.ny, self.nz):
            raise ValueError(f"Field shape {shape} does not match context grid dimensions "
                             f"{(self.nx, self.ny, self.nz)}.")
        self.verts, self.indices = _extract(field, threshold, self.domain_bounds_lower_corner,
                                            self.domain_bounds_upper_corner)

    @staticmethod
    def extract_surface_marching_cubes(field, threshold=0.0, domain_bounds_lower_corner=None,
                                       domain_bounds_upper_corner=None):
        """``(verts, indices)`` of the isosurface of `field` (a 3-D float32 array) at
        `threshold`. Node (0, 0, 0) lies at `domain_bounds_lower_corner` (default the origin)
        and node (nx-1, ny-1, nz-1) at `domain_bounds_upper_corner` (default (nx-1, ny-1,
        nz-1)). ValueError for a field that is not 3-D, is empty or has fewer than 2 nodes
        along an axis; TypeError for a dtype other than float32."""
        return _extract(field, threshold, domain_bounds_lower_corner, domain_bounds_upper_corner)
