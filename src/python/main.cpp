// src/python/main.cpp -- entry point of the _treadle extension module
#include "exports.h"

NB_MODULE(_treadle, m) {
    m.doc() = "treadle native runtime and compiler (use the treadle package, not this module)";
    export_errors(m);
    export_device(m);
    export_array(m);
    export_kernel(m);
    export_builtins(m);
    export_stream(m);
}
