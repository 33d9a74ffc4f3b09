// src/api/marching_cubes.cpp -- isosurface extraction: kernels of a small DSL module
//
// Four passes, one implementation for every device: `mc_count` gives each node the number of
// its three edges (+x, +y, +z) the surface crosses and the number of triangles of the cell it
// is the lower corner of; both counts are scanned (chunked inclusive scans, `scan_chunks` and
// `add_chunk_offsets`, recursing on the chunk totals); the totals size the outputs; `mc_verts`
// writes each crossed edge's vertex (differentiable: its backward pass is the extraction's) and
// `mc_tris` each cell's triangles, mapping a case's edges to vertex numbers through the scan.
#include "api/marching_cubes.h"

#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <string>

#include "treadle/error.h"
#include "treadle/marching_cubes.h"
#include "treadle/module.h"
#include "treadle/tape.h"

namespace treadle {

namespace {

constexpr int64_t k_scan_chunk = 256;

const char* const k_source = R"(import treadle as wp


@wp.func
def below(field: wp.array(dtype=wp.float32, ndim=3), i: int, j: int, k: int, threshold: float):
    if field[i, j, k] < threshold:
        return 1
    return 0


@wp.func
def edge_crossed(field: wp.array(dtype=wp.float32, ndim=3), i: int, j: int, k: int, axis: int,
                 threshold: float):
    # 1 when the edge from node (i, j, k) along `axis` exists and the surface crosses it.
    a = below(field, i, j, k, threshold)
    b = a
    if axis == 0:
        if i + 1 < field.shape[0]:
            b = below(field, i + 1, j, k, threshold)
    elif axis == 1:
        if j + 1 < field.shape[1]:
            b = below(field, i, j + 1, k, threshold)
    else:
        if k + 1 < field.shape[2]:
            b = below(field, i, j, k + 1, threshold)
    if a != b:
        return 1
    return 0


@wp.func
def cube_case(field: wp.array(dtype=wp.float32, ndim=3), i: int, j: int, k: int,
              threshold: float):
    c = below(field, i, j, k, threshold)
    c = c + 2 * below(field, i + 1, j, k, threshold)
    c = c + 4 * below(field, i + 1, j + 1, k, threshold)
    c = c + 8 * below(field, i, j + 1, k, threshold)
    c = c + 16 * below(field, i, j, k + 1, threshold)
    c = c + 32 * below(field, i + 1, j, k + 1, threshold)
    c = c + 64 * below(field, i + 1, j + 1, k + 1, threshold)
    c = c + 128 * below(field, i, j + 1, k + 1, threshold)
    return c


@wp.func
def vertex_start(vertex_ends: wp.array(dtype=wp.int32), node: int):
    if node == 0:
        return 0
    return vertex_ends[node - 1]


@wp.kernel(enable_backward=False)
def mc_count(field: wp.array(dtype=wp.float32, ndim=3), threshold: float,
             case_first: wp.array(dtype=wp.int32), node_verts: wp.array(dtype=wp.int32),
             cell_tris: wp.array(dtype=wp.int32)):
    i, j, k = wp.tid()
    ny = field.shape[1]
    nz = field.shape[2]
    node = (i * ny + j) * nz + k
    node_verts[node] = (edge_crossed(field, i, j, k, 0, threshold)
                        + edge_crossed(field, i, j, k, 1, threshold)
                        + edge_crossed(field, i, j, k, 2, threshold))
    tris = int(0)
    if i + 1 < field.shape[0] and j + 1 < ny and k + 1 < nz:
        c = cube_case(field, i, j, k, threshold)
        tris = (case_first[c + 1] - case_first[c]) // 3
    cell_tris[node] = tris


@wp.kernel(enable_backward=False)
def scan_chunks(values: wp.array(dtype=wp.int32), totals: wp.array(dtype=wp.int32), count: int,
                chunk: int):
    t = wp.tid()
    start = t * chunk
    end = wp.min(start + chunk, count)
    running = int(0)
    for i in range(start, end):
        running = running + values[i]
        values[i] = running
    totals[t] = running


@wp.kernel(enable_backward=False)
def add_chunk_offsets(values: wp.array(dtype=wp.int32), totals: wp.array(dtype=wp.int32),
                      chunk: int):
    i = wp.tid()
    c = i // chunk
    if c > 0:
        values[i] = values[i] + totals[c - 1]


@wp.kernel
def mc_verts(field: wp.array(dtype=wp.float32, ndim=3), threshold: float, lower: wp.vec3,
             spacing: wp.vec3, vertex_ends: wp.array(dtype=wp.int32),
             verts: wp.array(dtype=wp.vec3)):
    i, j, k = wp.tid()
    ny = field.shape[1]
    nz = field.shape[2]
    node = (i * ny + j) * nz + k
    slot = vertex_start(vertex_ends, node)
    a = field[i, j, k]
    base = wp.vec3(float(i), float(j), float(k))
    for axis in range(3):
        if edge_crossed(field, i, j, k, axis, threshold) == 1:
            b = float(0.0)
            if axis == 0:
                b = field[i + 1, j, k]
            elif axis == 1:
                b = field[i, j + 1, k]
            else:
                b = field[i, j, k + 1]
            t = (threshold - a) / (b - a)
            p = base
            p[axis] = p[axis] + t
            verts[slot] = lower + wp.cw_mul(p, spacing)
            slot = slot + 1


@wp.kernel(enable_backward=False)
def mc_tris(field: wp.array(dtype=wp.float32, ndim=3), threshold: float,
            case_first: wp.array(dtype=wp.int32), tri_edges: wp.array(dtype=wp.int32),
            edge_places: wp.array(dtype=wp.int32), vertex_ends: wp.array(dtype=wp.int32),
            tri_ends: wp.array(dtype=wp.int32), indices: wp.array(dtype=wp.int32)):
    i, j, k = wp.tid()
    ny = field.shape[1]
    nz = field.shape[2]
    if i + 1 >= field.shape[0] or j + 1 >= ny or k + 1 >= nz:
        return
    node = (i * ny + j) * nz + k
    c = cube_case(field, i, j, k, threshold)
    first = case_first[c]
    last = case_first[c + 1]
    out = wp.int64(tri_ends[node]) * wp.int64(3) - wp.int64(last - first)
    for e in range(first, last):
        edge = tri_edges[e]
        ni = i + edge_places[4 * edge]
        nj = j + edge_places[4 * edge + 1]
        nk = k + edge_places[4 * edge + 2]
        axis = edge_places[4 * edge + 3]
        v = vertex_start(vertex_ends, (ni * ny + nj) * nz + nk)
        for a in range(axis):
            v = v + edge_crossed(field, ni, nj, nk, a, threshold)
        indices[out + wp.int64(e - first)] = v
)";

/// The module's kernels and the tables as arrays, for one device.
struct DeviceKernels {
    Kernel count, scan, add_offsets, verts, tris;
    Array case_first, tri_edges, edge_places;
};

const DeviceKernels& kernels_for(Device device) {
    static std::mutex mutex;
    static std::map<std::string, DeviceKernels> per_device;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = per_device.find(device.alias());
    if (it != per_device.end()) return it->second;
    static const Module module = Module::load_string(k_source, "<marching_cubes>");
    const MarchingCubesTables& t = marching_cubes_tables();
    std::vector<int32_t> places;
    for (const auto& e : t.edge_corners) {
        const auto& from = t.corner_offsets[e[0]];
        const auto& to = t.corner_offsets[e[1]];
        int axis = 0;
        while (to[axis] == from[axis]) ++axis;
        places.insert(places.end(), {from[0], from[1], from[2], axis});
    }
    DeviceKernels k;
    k.count = module.kernel("mc_count", device);
    k.scan = module.kernel("scan_chunks", device);
    k.add_offsets = module.kernel("add_chunk_offsets", device);
    k.verts = module.kernel("mc_verts", device);
    k.tris = module.kernel("mc_tris", device);
    k.case_first = from_vector(t.case_first, device);
    k.tri_edges = from_vector(t.tri_edges, device);
    k.edge_places = from_vector(places, device);
    return per_device.emplace(device.alias(), std::move(k)).first->second;
}

/// Turns `values` (int32, 1-D, contiguous) into its inclusive scan, in place.
void inclusive_scan(const DeviceKernels& k, const Array& values) {
    const int64_t n = values.size();
    const int64_t chunks = (n + k_scan_chunk - 1) / k_scan_chunk;
    Array totals = Array::empty(ScalarType::Int32, {chunks}, values.device());
    k.scan.launch({chunks}, values, totals, n, k_scan_chunk);
    if (chunks == 1) return;
    inclusive_scan(k, totals);
    k.add_offsets.launch({n}, values, totals, k_scan_chunk);
}

int32_t last_element(const Array& a) {
    const Array last = a.slice(0, a.size() - 1, a.size(), 1).clone(Device::cpu());
    return *last.data_as<int32_t>();
}

std::string shape_text(const Array& a) {
    std::string s = "(";
    for (int d = 0; d < a.ndim(); ++d) {
        if (d) s += ", ";
        s += std::to_string(a.shape(d));
    }
    return s + (a.ndim() == 1 ? ",)" : ")");
}

std::string element_name(const DType& t) {
    const std::string s = scalar_name(t.scalar);
    if (t.is_struct()) return "a struct";
    if (t.rows == 0) return s;
    if (t.cols == 0) return "vector(length=" + std::to_string(t.rows) + ", dtype=" + s + ")";
    return "matrix(shape=(" + std::to_string(t.rows) + ", " + std::to_string(t.cols) +
           "), dtype=" + s + ")";
}

void check_field(const Array& field) {
    if (field.ndim() != 3)
        throw Error(ErrorKind::Value,
                    "Expected a 3D array for 'field', but got an array with shape " +
                        shape_text(field) + ".");
    if (field.size() == 0) throw Error(ErrorKind::Value, "The 'field' array cannot be empty.");
    if (field.dtype() != DType(ScalarType::Float32))
        throw Error(ErrorKind::Type, "Expected a dtype of wp.float32 for 'field', but got " +
                                         element_name(field.dtype()) + ".");
    for (int d = 0; d < 3; ++d)
        if (field.shape(d) < 2)
            throw Error(ErrorKind::Value,
                        "The 'field' array needs at least 2 nodes along each axis, but has shape " +
                            shape_text(field) + ".");
    // Node numbers, vertex and index counts are int32 in the kernels and the outputs.
    if (field.size() > INT32_MAX / 3)
        throw Error(ErrorKind::Value, "The 'field' array has " + std::to_string(field.size()) +
                                          " nodes; at most " + std::to_string(INT32_MAX / 3) +
                                          " are supported.");
}

/// The launch arguments lower and spacing of mc_verts.
void placement(const Array& field, const SurfaceBounds& bounds, std::array<float, 3>& lower,
               std::array<float, 3>& spacing) {
    lower = bounds.lower.value_or(std::array<float, 3>{0.0f, 0.0f, 0.0f});
    std::array<float, 3> upper{};
    for (int d = 0; d < 3; ++d) upper[d] = (float)(field.shape(d) - 1);
    if (bounds.upper) upper = *bounds.upper;
    for (int d = 0; d < 3; ++d) spacing[d] = (upper[d] - lower[d]) / (float)(field.shape(d) - 1);
}

std::vector<KernelArg> vert_args(const Array& field, float threshold,
                                 const std::array<float, 3>& lower,
                                 const std::array<float, 3>& spacing, const SurfaceMesh& mesh) {
    return {field, threshold, lower, spacing, mesh.vertex_ends, mesh.verts};
}

}  // namespace

const char* marching_cubes_kernel_source() { return k_source; }

SurfaceMesh extract_surface(const Array& field, float threshold, const SurfaceBounds& bounds,
                            Tape* tape) {
    check_field(field);
    const Device device = field.device();
    const DeviceKernels& k = kernels_for(device);
    const int64_t nx = field.shape(0), ny = field.shape(1), nz = field.shape(2);
    const int64_t nodes = nx * ny * nz;
    SurfaceMesh mesh;
    mesh.vertex_ends = Array::empty(ScalarType::Int32, {nodes}, device);
    const Array tri_ends = Array::empty(ScalarType::Int32, {nodes}, device);
    k.count.launch({nx, ny, nz}, field, threshold, k.case_first, mesh.vertex_ends, tri_ends);
    inclusive_scan(k, mesh.vertex_ends);
    inclusive_scan(k, tri_ends);
    const int64_t n_verts = last_element(mesh.vertex_ends), n_tris = last_element(tri_ends);
    if (n_tris < 0 || 3 * n_tris > INT32_MAX)
        throw Error(ErrorKind::Value,
                    "extract_surface: the surface has too many triangles for int32 indices");
    DType vec3(ScalarType::Float32);
    vec3.rows = 3;
    mesh.verts = Array::empty(vec3, {n_verts}, device);
    mesh.indices = Array::empty(ScalarType::Int32, {3 * n_tris}, device);
    if (field.grad()) mesh.verts.enable_grad();
    std::array<float, 3> lower{}, spacing{};
    placement(field, bounds, lower, spacing);
    if (n_verts > 0)
        k.verts.launch(std::vector<int64_t>{nx, ny, nz},
                       vert_args(field, threshold, lower, spacing, mesh));
    if (n_tris > 0)
        k.tris.launch({nx, ny, nz}, field, threshold, k.case_first, k.tri_edges, k.edge_places,
                      mesh.vertex_ends, tri_ends, mesh.indices);
    if (tape && field.grad()) {
        const Array f = field;
        tape->record_func(
            [f, threshold, bounds, mesh] {
                extract_surface_adjoint(f, threshold, bounds, mesh, *mesh.verts.grad(), *f.grad());
            },
            std::vector<Array>{field, mesh.verts});
    }
    return mesh;
}

void extract_surface_adjoint(const Array& field, float threshold, const SurfaceBounds& bounds,
                             const SurfaceMesh& mesh, const Array& adj_verts,
                             const Array& adj_field) {
    check_field(field);
    if (mesh.verts.size() == 0) return;
    if (adj_verts.shape() != mesh.verts.shape() || adj_field.shape() != field.shape())
        throw Error(ErrorKind::Value,
                    "extract_surface_adjoint: the adjoints must be shaped like the vertices and "
                    "the field");
    const DeviceKernels& k = kernels_for(field.device());
    std::array<float, 3> lower{}, spacing{};
    placement(field, bounds, lower, spacing);
    std::vector<Array> adjoints(6);
    adjoints[0] = adj_field;
    adjoints[5] = adj_verts;
    k.verts.launch_adjoint(std::vector<int64_t>{field.shape(0), field.shape(1), field.shape(2)},
                           vert_args(field, threshold, lower, spacing, mesh), adjoints);
}

}  // namespace treadle
