"""Explicit adjoint arrays of ``wp.launch(adjoint=True, adj_inputs=..., adj_outputs=...)``, made
to behave as Warp's: an adjoint buffer other than the argument's own ``.grad`` belongs to the
caller, so the backward pass reads it without consuming (zeroing) it, and it may be laid out
unlike its argument (a strided PyTorch gradient for a packed output).

The native launch gives each argument its adjoint as its gradient, which kernels address with
the argument's strides and consume unless the argument retains its gradient. So an argument
with a foreign adjoint is passed as a view that retains its gradient, and a differently laid
out adjoint runs through a packed copy written back after the launch (the launch reads and
accumulates into the same values it would have seen in place)."""

from . import _treadle


def _own_gradient(a, g):
    """Whether adjoint ``g`` is argument ``a``'s own gradient memory."""
    grad = a._get_grad() if a._has_grad else None
    return grad is not None and grad._ptr == g._ptr and grad._strides == g._strides


def _retaining_view(a):
    view = _treadle.Array()
    view._init_view_of(a)
    view._retain_grad = True
    return view


def prepare(args, adj):
    """``(args, adj, write_back)`` for a backward launch: see the module's docstring;
    ``write_back`` copies staged adjoints back after the launch (None when there are none)."""
    if not adj:
        return args, adj, None
    staged, args, adj = [], list(args), list(adj)
    for i, (a, g) in enumerate(zip(args, adj)):
        if not (isinstance(a, _treadle.Array) and isinstance(g, _treadle.Array)) or \
                a._is_null or g._is_null or _own_gradient(a, g):
            continue
        args[i] = _retaining_view(a)
        if g._strides != a._strides and a._is_contiguous and g._shape == a._shape and \
                g._dtype == a._dtype and g._device_alias == a._device_alias:
            adj[i] = g._clone(g._device_alias)
            staged.append((g, adj[i]))
    if not staged:
        return args, adj, None

    def write_back():
        for g, packed in staged:
            g._assign(packed)

    return args, adj, write_back
