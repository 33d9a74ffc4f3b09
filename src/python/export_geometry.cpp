// src/python/export_geometry.cpp -- isosurface extraction (treadle/marching_cubes.h) for Python
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <tuple>

#include "api/marching_cubes.h"
#include "exports.h"
#include "treadle/marching_cubes.h"

namespace {

using treadle::Array;
using Corner = std::optional<std::array<float, 3>>;

treadle::SurfaceBounds bounds_of(const Corner& lower, const Corner& upper) {
    return treadle::SurfaceBounds{lower, upper};
}

}  // namespace

void export_geometry(nb::module_& m) {
    m.def(
        "marching_cubes_tables",
        [] {
            const treadle::MarchingCubesTables& t = treadle::marching_cubes_tables();
            std::vector<std::array<int, 3>> corners(t.corner_offsets.begin(),
                                                    t.corner_offsets.end());
            std::vector<std::array<int, 2>> edges(t.edge_corners.begin(), t.edge_corners.end());
            return std::make_tuple(corners, edges, t.case_first, t.tri_edges);
        },
        "(corner offsets, edge corners, case_first, tri_edges): the marching-cubes tables");
    m.def("marching_cubes_kernel_source", &treadle::marching_cubes_kernel_source,
          "The DSL module text of the extraction's kernels (for compile checks)");
    m.def(
        "extract_surface",
        [](const Array& field, float threshold, const Corner& lower, const Corner& upper) {
            treadle::SurfaceMesh mesh;
            {
                // The extraction never calls back into Python: other threads may run meanwhile
                // (its first use compiles the kernels).
                nb::gil_scoped_release released;
                mesh = treadle::extract_surface(field, threshold, bounds_of(lower, upper));
            }
            return std::make_tuple(mesh.verts, mesh.indices, mesh.vertex_ends);
        },
        nb::arg("field"), nb::arg("threshold"), nb::arg("lower").none(), nb::arg("upper").none(),
        "(verts, indices, vertex_ends) of the isosurface of `field` at `threshold`");
    m.def(
        "extract_surface_adjoint",
        [](const Array& field, float threshold, const Corner& lower, const Corner& upper,
           const Array& verts, const Array& indices, const Array& vertex_ends,
           const Array& adj_verts, const Array& adj_field) {
            treadle::SurfaceMesh mesh{verts, indices, vertex_ends};
            nb::gil_scoped_release released;
            treadle::extract_surface_adjoint(field, threshold, bounds_of(lower, upper), mesh,
                                             adj_verts, adj_field);
        },
        nb::arg("field"), nb::arg("threshold"), nb::arg("lower").none(), nb::arg("upper").none(),
        nb::arg("verts"), nb::arg("indices"), nb::arg("vertex_ends"), nb::arg("adj_verts"),
        nb::arg("adj_field"),
        "Adds d loss / d field, from adj_verts, to adj_field (the extraction's backward pass)");
}
