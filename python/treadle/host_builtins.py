"""The host (plain Python) versions of kernel builtins: one mapping, builtin name -> function.

The modules that implement them list theirs in ``HOST_BUILTINS`` (host_math: scalars, matrices,
quaternions, transforms and the operators as functions; host_rotations: Euler angles, twists
and velocity_at_point; host_utility: special functions,
interpolations and checks; vec_types: vectors and spatial vectors;
quat_types: quaternion and transform constructors); they are merged here and nowhere else.
Every name here is a builtin whose table entry says ``host``, and every such builtin is here
(tests/python/test_builtin_table.py checks both directions).
"""

from . import host_math, host_rotations, host_utility, quat_types, vec_types


def _merge(*modules):
    merged = {}
    for module in modules:
        for name, function in module.HOST_BUILTINS.items():
            if name in merged:
                raise ImportError(f"treadle: two host versions of builtin {name!r} "
                                  f"({module.__name__} and another module)")
            merged[name] = function
    return merged


HOST = _merge(host_math, host_rotations, host_utility, vec_types, quat_types)
"""Builtin name -> the Python function that computes it outside kernels."""
