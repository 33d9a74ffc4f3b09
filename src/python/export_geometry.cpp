// src/python/export_geometry.cpp -- isosurface extraction (treadle/marching_cubes.h) for Python
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <tuple>

#include "api/bvh_lbvh.h"
#include "api/bvh_refit.h"
#include "api/device_sort.h"
#include "api/marching_cubes.h"
#include "exports.h"
#include "treadle/bvh.h"
#include "treadle/hash_grid.h"
#include "treadle/marching_cubes.h"
#include "treadle/mesh.h"

namespace {

using treadle::Array;
using Corner = std::optional<std::array<float, 3>>;

treadle::SurfaceBounds bounds_of(const Corner& lower, const Corner& upper) {
    return treadle::SurfaceBounds{lower, upper};
}

using Boxes = nb::ndarray<const float, nb::shape<-1, 3>, nb::c_contig, nb::device::cpu>;
using Ids = nb::ndarray<const int32_t, nb::shape<-1>, nb::c_contig, nb::device::cpu>;

std::vector<std::array<float, 3>> corners_of(const Boxes& a) {
    std::vector<std::array<float, 3>> out(a.shape(0));
    for (size_t i = 0; i < out.size(); ++i)
        for (int k = 0; k < 3; ++k) out[i][k] = a(i, k);
    return out;
}

/// `count` vec3 at `address` in the memory of `device`, as float32 words (borrowed).
Array words_at(uint64_t address, int64_t count, treadle::Device device) {
    return Array::wrap(reinterpret_cast<void*>(address),
                       treadle::DType(treadle::ScalarType::Float32), {3 * count}, {4}, device,
                       nullptr);
}

/// treadle::Bvh for Python: boxes as (n, 3) float32 host arrays, groups as int32.
void export_bvh(nb::module_& m) {
    nb::class_<treadle::Bvh>(m, "Bvh")
        .def(
            "__init__",
            [](treadle::Bvh* self, const Boxes& lowers, const Boxes& uppers,
               const std::string& constructor, std::optional<Ids> groups, int leaf_size,
               const std::string& device) {
                std::vector<int32_t> g;
                if (groups) g.assign(groups->data(), groups->data() + groups->shape(0));
                new (self) treadle::Bvh(corners_of(lowers), corners_of(uppers),
                                        treadle::bvh_constructor_from_name(constructor),
                                        std::move(g), leaf_size, treadle::Device::parse(device));
            },
            nb::arg("lowers"), nb::arg("uppers"), nb::arg("constructor"), nb::arg("groups").none(),
            nb::arg("leaf_size"), nb::arg("device"))
        .def_static(
            "from_device",
            [](uint64_t lowers, uint64_t uppers, int64_t count, const std::string& constructor,
               std::optional<Ids> groups, int leaf_size, const std::string& device) {
                std::vector<int32_t> g;
                if (groups) g.assign(groups->data(), groups->data() + groups->shape(0));
                const treadle::Device d = treadle::Device::parse(device);
                return new treadle::Bvh(words_at(lowers, count, d), words_at(uppers, count, d),
                                        treadle::bvh_constructor_from_name(constructor),
                                        std::move(g), leaf_size);
            },
            nb::arg("lowers"), nb::arg("uppers"), nb::arg("count"), nb::arg("constructor"),
            nb::arg("groups").none(), nb::arg("leaf_size"), nb::arg("device"),
            "A BVH over contiguous vec3 boxes in the memory of `device` (addresses); lbvh on "
            "CUDA builds there")
        .def(
            "rebuild_device",
            [](treadle::Bvh& b, uint64_t lowers, uint64_t uppers, int64_t count,
               const std::string& name) {
                b.rebuild(words_at(lowers, count, b.device()), words_at(uppers, count, b.device()),
                          treadle::bvh_constructor_from_name(name));
            },
            nb::arg("lowers"), nb::arg("uppers"), nb::arg("count"), nb::arg("constructor"))
        .def_prop_ro("id", &treadle::Bvh::id)
        .def_prop_ro("depth", &treadle::Bvh::depth)
        .def_prop_ro("num_nodes", [](const treadle::Bvh& b) { return b.nodes().size(); })
        .def("group_root", &treadle::Bvh::group_root)
        .def("refit", [](treadle::Bvh& b, const Boxes& lo,
                         const Boxes& hi) { b.refit(corners_of(lo), corners_of(hi)); })
        .def(
            "refit_device",
            [](treadle::Bvh& b, uint64_t lowers, uint64_t uppers, int64_t count) {
                b.refit(words_at(lowers, count, b.device()), words_at(uppers, count, b.device()));
            },
            nb::arg("lowers"), nb::arg("uppers"), nb::arg("count"),
            "Refits to contiguous vec3 boxes in the memory of the BVH's device (addresses)")
        .def("rebuild", [](treadle::Bvh& b, const Boxes& lo, const Boxes& hi,
                           const std::string& name) {
            b.rebuild(corners_of(lo), corners_of(hi), treadle::bvh_constructor_from_name(name));
        });
}

using Vec3 = treadle::Mesh::Vec3;

const Vec3* vec3_at(uint64_t address) { return reinterpret_cast<const Vec3*>(address); }

/// treadle::Mesh for Python over host memory the caller keeps alive (wp.Mesh passes its
/// arrays' addresses: points and velocities contiguous vec3, indices contiguous int32).
void export_mesh(nb::module_& m) {
    nb::class_<treadle::Mesh>(m, "Mesh")
        .def(
            "__init__",
            [](treadle::Mesh* self, uint64_t points, int32_t num_points, uint64_t indices,
               int32_t num_indices, uint64_t velocities, bool winding,
               const std::string& constructor, std::optional<Ids> groups, int leaf_size) {
                std::vector<int32_t> g;
                if (groups) g.assign(groups->data(), groups->data() + groups->shape(0));
                new (self) treadle::Mesh(
                    vec3_at(points), num_points, reinterpret_cast<const int32_t*>(indices),
                    num_indices, velocities ? vec3_at(velocities) : nullptr, winding,
                    treadle::bvh_constructor_from_name(constructor), std::move(g), leaf_size);
            },
            nb::arg("points"), nb::arg("num_points"), nb::arg("indices"), nb::arg("num_indices"),
            nb::arg("velocities"), nb::arg("support_winding_number"), nb::arg("constructor"),
            nb::arg("groups").none(), nb::arg("leaf_size"))
        .def_static(
            "for_device",
            [](const std::string& device, uint64_t points, int32_t num_points, uint64_t indices,
               int32_t num_indices, uint64_t velocities, bool winding,
               const std::string& constructor, std::optional<Ids> groups, int leaf_size) {
                std::vector<int32_t> g;
                if (groups) g.assign(groups->data(), groups->data() + groups->shape(0));
                return treadle::Mesh::for_device(
                           treadle::Device::parse(device), vec3_at(points), num_points,
                           reinterpret_cast<const int32_t*>(indices), num_indices,
                           velocities ? vec3_at(velocities) : nullptr, winding,
                           treadle::bvh_constructor_from_name(constructor), std::move(g), leaf_size)
                    .release();
            },
            nb::arg("device"), nb::arg("points"), nb::arg("num_points"), nb::arg("indices"),
            nb::arg("num_indices"), nb::arg("velocities"), nb::arg("support_winding_number"),
            nb::arg("constructor"), nb::arg("groups").none(), nb::arg("leaf_size"),
            "A mesh over CUDA device arrays (addresses); lbvh without winding numbers builds "
            "there")
        .def(
            "bind_device",
            [](treadle::Mesh& x, const std::string& device, uint64_t points, uint64_t indices,
               uint64_t velocities) {
                x.bind_device(treadle::Device::parse(device), vec3_at(points),
                              reinterpret_cast<const int32_t*>(indices),
                              velocities ? vec3_at(velocities) : nullptr);
            },
            nb::arg("device"), nb::arg("points"), nb::arg("indices"), nb::arg("velocities"))
        .def_prop_ro("id", &treadle::Mesh::id)
        .def_prop_ro("bvh_id", &treadle::Mesh::bvh_id)
        .def_prop_ro("num_nodes", [](const treadle::Mesh& x) { return x.bvh().nodes().size(); })
        .def("refit", [](treadle::Mesh& x) { x.refit(); })
        .def("set_points",
             [](treadle::Mesh& x, uint64_t points, int32_t n) { x.set_points(vec3_at(points), n); })
        .def("set_velocities", [](treadle::Mesh& x, uint64_t velocities, int32_t n) {
            x.set_velocities(velocities ? vec3_at(velocities) : nullptr, n);
        });
}

}  // namespace

void export_geometry(nb::module_& m) {
    export_bvh(m);
    export_mesh(m);
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
    m.def("bvh_refit_kernel_source", &treadle::bvh_refit::kernel_source,
          "The DSL module text of the BVH refit kernels (for compile checks)");
    m.def("bvh_lbvh_kernel_source", &treadle::bvh_lbvh::kernel_source,
          "The DSL module text of the device LBVH build's kernels (for compile checks)");
    m.def("hash_grid_kernel_source", &treadle::hash_grid_kernel_source,
          "The DSL module text of the hash grid build's kernels (for compile checks)");
    m.def("device_sort_kernel_source", &treadle::device_sort::kernel_source,
          "The DSL module text of the device radix sort's kernels (for compile checks)");
    m.def("device_sort_cuda_kernel_source", &treadle::device_sort::cuda_kernel_source,
          "The DSL module text of the CUDA radix sort's block kernels (for compile checks)");
    m.def(
        "build_hash_grid",
        [](const Array& cell_starts, const Array& cell_ends, const Array& descriptor,
           const Array& keys, const Array& values, std::optional<Array> sorted_groups,
           std::array<int, 3> dims, const Array& points, double radius,
           std::optional<Array> groups) {
            treadle::HashGridArrays arrays{cell_starts, cell_ends,
                                           descriptor,  keys,
                                           values,      sorted_groups ? *sorted_groups : Array()};
            treadle::build_hash_grid(arrays, dims, points, radius, groups ? *groups : Array());
        },
        nb::arg("cell_starts"), nb::arg("cell_ends"), nb::arg("descriptor"), nb::arg("keys"),
        nb::arg("values"), nb::arg("sorted_groups").none(), nb::arg("dims"), nb::arg("points"),
        nb::arg("radius"), nb::arg("groups").none(),
        "treadle::build_hash_grid over the caller's arrays (wp.HashGrid.build)");
    m.def(
        "reset_hash_grid",
        [](const Array& cell_starts, const Array& cell_ends, const Array& descriptor,
           std::array<int, 3> dims) {
            treadle::reset_hash_grid(treadle::HashGridArrays{cell_starts, cell_ends, descriptor},
                                     dims);
        },
        nb::arg("cell_starts"), nb::arg("cell_ends"), nb::arg("descriptor"), nb::arg("dims"),
        "treadle::reset_hash_grid (an empty wp.HashGrid)");
    m.def(
        "device_exclusive_scan",
        [](uint64_t values, int64_t count, const std::string& device) {
            treadle::device_sort::exclusive_scan(
                Array::wrap(reinterpret_cast<void*>(values),
                            treadle::DType(treadle::ScalarType::Int32), {count}, {4},
                            treadle::Device::parse(device), nullptr),
                count);
        },
        nb::arg("values"), nb::arg("count"), nb::arg("device"),
        "Replaces count int32 values at the address by their exclusive prefix sums, on the "
        "device");
    m.def(
        "device_sort_pairs",
        [](uint64_t keys, uint64_t values, int64_t count, int bits, const std::string& device) {
            const treadle::Device d = treadle::Device::parse(device);
            auto ints = [&](uint64_t p) {
                return Array::wrap(reinterpret_cast<void*>(p),
                                   treadle::DType(treadle::ScalarType::Int32), {count}, {4}, d,
                                   nullptr);
            };
            treadle::device_sort::sort_pairs(ints(keys), ints(values), count, bits);
        },
        nb::arg("keys"), nb::arg("values"), nb::arg("count"), nb::arg("bits"), nb::arg("device"),
        "Sorts count (int32 key, int32 value) pairs at the addresses by the keys' low bits "
        "(non-negative keys), stable, on the device");
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
