"""treadle.fem: the parts of Warp's finite-element module ``warp.fem`` that treadle has so far.

Only the ``Sample`` struct (the point context that Warp's integrands receive) and the index
types and null constants it is built from exist; fields, geometry, quadrature and integration
do not yet.
"""

from .struct import struct
from .vec_types import vec2i, vec3

ElementIndex = int
"""Index of a geometry element."""
QuadraturePointIndex = int
"""Index of a quadrature point."""
DofIndex = vec2i
"""A degree of freedom: (node index in the element, degree of freedom of that node)."""
Coords = vec3
"""Coordinates of a point inside an element."""

NULL_ELEMENT_INDEX = -1
"""No element."""
NULL_QP_INDEX = -1
"""No quadrature point."""
NULL_DOF_INDEX = DofIndex(-1, -1)
"""No degree of freedom."""


@struct
class Sample:
    """A point at which an integrand is evaluated: its element and coordinates in it, its
    quadrature point and weight when it is one, and the test and trial degrees of freedom of a
    form being assembled (NULL_* when there are none)."""

    element_index: ElementIndex
    element_coords: Coords
    qp_index: QuadraturePointIndex = NULL_QP_INDEX
    qp_weight: float = 0.0
    test_dof: DofIndex = NULL_DOF_INDEX
    trial_dof: DofIndex = NULL_DOF_INDEX
