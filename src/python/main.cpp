// src/python/main.cpp -- entry point of the _treadle extension module
#include "exports.h"

NB_MODULE(_treadle, m) {
    m.doc() = "treadle native runtime and compiler (use the treadle package, not this module)";
    // Kernels keep their compiled handles in caches (per-kernel dicts, tapes, generic
    // specialisations) that Python may finalise after this module at interpreter exit; those
    // are not leaks, and nanobind's exit-time report of them only alarms users.
    nb::set_leak_warnings(false);
    export_errors(m);
    export_types(m);
    export_device(m);
    export_array(m);
    export_function(m);
    export_kernel(m);
    export_launch(m);
    export_tape(m);
    export_builtins(m);
    export_stream(m);
    export_graph_nodes(m);
    export_geometry(m);
}
