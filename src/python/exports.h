// src/python/exports.h -- the export_* functions that fill the _treadle extension module
#pragma once

#include <nanobind/nanobind.h>

#include "treadle/error.h"

namespace nb = nanobind;

/// Exception classes and the translator of treadle::Error into Python exceptions.
void export_errors(nb::module_& m);

/// Raises `e` in Python as an error of the compiler (treadle._src.codegen's WarpCodegen*
/// classes, which derive from the builtin class the generic translation would use) and throws
/// nb::python_error. The mapping itself lives in export_errors.cpp.
[[noreturn]] void raise_compile_error(const treadle::Error& e);

/// Runs `f` (a step that compiles kernel source); a treadle::Error it throws is raised as an
/// error of the compiler (raise_compile_error).
template <class F>
decltype(auto) compiling(F&& f) {
    try {
        return f();
    } catch (const treadle::Error& e) {
        raise_compile_error(e);
    }
}

/// The interned compiler type (_treadle.Type) and its factories (_treadle.types).
void export_types(nb::module_& m);
/// _treadle.Device and device queries.
void export_device(nb::module_& m);
/// _treadle.Array: the native base of treadle.array.
void export_array(nb::module_& m);
/// _treadle.FunctionSource (how Python hands a function to the compiler) and the resolver of
/// Python names behind it.
void export_function(nb::module_& m);
/// Kernel compilation (_treadle.CompiledKernel).
void export_kernel(nb::module_& m);
/// wp.launch's native half: Python arguments through the runtime's packer.
void export_launch(nb::module_& m);
/// _treadle.Tape: the C++ tape as wp.Tape uses it.
void export_tape(nb::module_& m);
/// The builtin table (names, documentation, signatures).
void export_builtins(nb::module_& m);
/// _treadle.Stream, Event, Graph, graph capture and memory pool settings.
void export_stream(nb::module_& m);
/// Capture pause/resume and the shape queries of captured graphs.
void export_graph_nodes(nb::module_& m);
/// Isosurface extraction (marching cubes) and its tables.
void export_geometry(nb::module_& m);
