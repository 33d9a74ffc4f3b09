"""Warp's geometry query types: ``wp.HashGridQuery``, ``wp.BvhQuery``, ``wp.MeshQueryAABB``,
``wp.MeshQueryPoint`` and ``wp.MeshQueryRay``.

Each class stands for a struct the native library defines (``_treadle.types.native_struct``):
the value a query builtin returns inside a kernel, with the fields a kernel may read
(``q.face``, ``q.u``). The classes serve as annotations of @wp.func parameters and results;
query values live in kernel locals only, never in arrays or kernel arguments.
"""

from . import _treadle, scalar_types
from .type_classes import register


def _query_class(name, shown=None):
    """The class of native struct `name`, called `shown` (default: `name`) in Python."""
    t = _treadle.types.native_struct(name)
    shown = shown or name
    doc = f"The kernel type {shown}" + (
        f" (fields: {', '.join(f[0] for f in t.fields)})." if t.fields else " (a query's state)."
    )
    return register(type(shown, (), {"_type": t, "__module__": "treadle", "__doc__": doc}))


HashGridQuery = _query_class("HashGridQuery")
HashGridQuery.__class_getitem__ = classmethod(lambda cls, dtype: hash_grid_query_type(dtype))
# The half and double queries are HashGridQuery[wp.float16] / [wp.float64]: Warp names all
# three HashGridQuery.
_HashGridQueryH = _query_class("HashGridQueryH", "HashGridQuery")
_HashGridQueryD = _query_class("HashGridQueryD", "HashGridQuery")
BvhQuery = _query_class("BvhQuery")
MeshQueryAABB = _query_class("MeshQueryAABB")
MeshQueryPoint = _query_class("MeshQueryPoint")
MeshQueryRay = _query_class("MeshQueryRay")


def hash_grid_query_type(dtype):
    """The query type of a hash grid of coordinate type ``dtype`` (float16, float32, float64):
    ``wp.HashGridQuery[dtype]``."""
    name = getattr(scalar_types.resolve_dtype(dtype), "__name__", "")
    found = {"float16": _HashGridQueryH, "float32": HashGridQuery, "float64": _HashGridQueryD}
    if name not in found:
        raise TypeError(f"HashGridQuery[...] takes float16, float32 or float64, got {dtype!r}")
    return found[name]
