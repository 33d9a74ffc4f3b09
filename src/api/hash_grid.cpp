// src/api/hash_grid.cpp -- hash grid builds (treadle/hash_grid.h): the cells of the points, the
// device sort of (cell, index) pairs, the cells' ranges and the descriptor, by kernels in
// treadle's kernel language on the points' device
#include "treadle/hash_grid.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "api/device_sort.h"
#include "api/internal_module.h"
#include "treadle/error.h"

namespace treadle {

namespace {

const char* const k_source = R"(import treadle as wp


@wp.func
def cell(x: int, y: int, z: int, dx: int, dy: int, dz: int):
    x = ((x % dx) + dx) % dx
    y = ((y % dy) + dy) % dy
    z = ((z % dz) + dz) % dz
    return (z * dy + y) * dx + x


@wp.kernel(enable_backward=False)
def cells_f32(points: wp.array2d(dtype=wp.float32), width: wp.float32, dx: int, dy: int, dz: int,
              keys: wp.array(dtype=int), values: wp.array(dtype=int)):
    i = wp.tid()
    x = int(wp.floor(points[i, 0] / width))
    y = int(wp.floor(points[i, 1] / width))
    z = int(wp.floor(points[i, 2] / width))
    keys[i] = cell(x, y, z, dx, dy, dz)
    values[i] = i


@wp.kernel(enable_backward=False)
def cells_f16(points: wp.array2d(dtype=wp.float16), width: wp.float32, dx: int, dy: int, dz: int,
              keys: wp.array(dtype=int), values: wp.array(dtype=int)):
    i = wp.tid()
    x = int(wp.floor(float(points[i, 0]) / width))
    y = int(wp.floor(float(points[i, 1]) / width))
    z = int(wp.floor(float(points[i, 2]) / width))
    keys[i] = cell(x, y, z, dx, dy, dz)
    values[i] = i


@wp.kernel(enable_backward=False)
def cells_f64(points: wp.array2d(dtype=wp.float64), width: wp.float64, dx: int, dy: int, dz: int,
              keys: wp.array(dtype=int), values: wp.array(dtype=int)):
    i = wp.tid()
    x = int(wp.floor(points[i, 0] / width))
    y = int(wp.floor(points[i, 1] / width))
    z = int(wp.floor(points[i, 2] / width))
    keys[i] = cell(x, y, z, dx, dy, dz)
    values[i] = i


@wp.kernel(enable_backward=False)
def ranges(keys: wp.array(dtype=int), count: int, starts: wp.array(dtype=int),
           ends: wp.array(dtype=int)):
    i = wp.tid()
    k = keys[i]
    if i == 0:
        starts[k] = i
    elif keys[i - 1] != k:
        starts[k] = i
    if i == count - 1:
        ends[k] = i + 1
    elif keys[i + 1] != k:
        ends[k] = i + 1


@wp.kernel(enable_backward=False)
def sorted_groups(values: wp.array(dtype=int), groups: wp.array(dtype=int),
                  out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = groups[values[i]]


@wp.kernel(enable_backward=False)
def store_words(desc: wp.array(dtype=wp.int64), w0: wp.int64, w1: wp.int64, w2: wp.int64,
                w3: wp.int64, w4: wp.int64, w5: wp.int64, w6: wp.int64):
    desc[0] = w0
    desc[1] = w1
    desc[2] = w2
    desc[3] = w3
    desc[4] = w4
    desc[5] = w5
    desc[6] = w6
)";

constexpr int64_t k_max_cells = 2147483647;

Kernel grid_kernel(const char* name, Device device) {
    return internal_kernel("<hash_grid>", k_source, name, device);
}

void check_ints(const Array& a, int64_t at_least, Device device, const char* what) {
    if (a.is_null() || a.dtype() != DType(ScalarType::Int32) || !a.is_contiguous() ||
        a.device() != device || a.size() < at_least)
        throw Error(ErrorKind::Value, std::string("HashGrid: ") + what +
                                          " must be a contiguous int32 array of at least " +
                                          std::to_string(at_least) + " values on " +
                                          device.alias());
}

int64_t pointer_word(const Array& a) {
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(a.data()));
}

int64_t pair_word(int32_t lo, int32_t hi) {
    return static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) |
                                static_cast<uint32_t>(lo));
}

void check_descriptor(const Array& d, Device device) {
    if (d.is_null() || d.device() != device ||
        d.size() * static_cast<int64_t>(d.dtype().size()) < 56)
        throw Error(ErrorKind::Value,
                    "HashGrid: the descriptor must hold 56 bytes on " + device.alias());
}

/// Writes the descriptor (wp::hash_grid_t) of a grid of `count` points, by a kernel.
void write_descriptor(const HashGridArrays& a, std::array<int, 3> dims, double radius,
                      int32_t count, bool grouped) {
    const Device device = a.cell_starts.device();
    check_descriptor(a.descriptor, device);
    int64_t width = 0;
    std::memcpy(&width, &radius, sizeof(width));
    const Array desc = Array::wrap(a.descriptor.data(), DType(ScalarType::Int64), {7}, {8}, device,
                                   a.descriptor.buffer());
    grid_kernel("store_words", device)
        .launch({1}, desc, width, count > 0 ? pointer_word(a.values) : int64_t{0},
                pointer_word(a.cell_starts), pointer_word(a.cell_ends),
                count > 0 && grouped ? pointer_word(a.groups) : int64_t{0},
                pair_word(dims[0], dims[1]), pair_word(dims[2], count));
}

}  // namespace

const char* hash_grid_kernel_source() { return k_source; }

void build_hash_grid(const HashGridArrays& a, std::array<int, 3> dims, const Array& points,
                     double radius, const Array& groups) {
    const Device device = points.device();
    const DType t = points.dtype();
    const bool vec3 = t.rows == 3 && t.cols == 0 && !t.is_struct() &&
                      (t.scalar == ScalarType::Float16 || t.scalar == ScalarType::Float32 ||
                       t.scalar == ScalarType::Float64);
    if (!vec3 || points.ndim() != 1)
        throw Error(ErrorKind::Value,
                    "HashGrid: points must be a one-dimensional array of vec3 of float16, "
                    "float32 or float64");
    if (!(radius > 0.0)) throw Error(ErrorKind::Value, "HashGrid: radius must be positive");
    const int64_t cells = int64_t{dims[0]} * dims[1] * dims[2];
    const int64_t n = points.size();
    if (n > INT32_MAX) throw Error(ErrorKind::Value, "HashGrid: more than 2^31 - 1 points");
    check_ints(a.cell_starts, cells, device, "cell_starts");
    check_ints(a.cell_ends, cells, device, "cell_ends");
    check_ints(a.keys, n, device, "keys");
    check_ints(a.values, n, device, "values");
    const bool grouped = !groups.is_null();
    if (grouped) {
        check_ints(groups, n, device, "groups");
        check_ints(a.groups, n, device, "the sorted groups");
    }
    check_descriptor(a.descriptor, device);
    Array(a.cell_starts).zero_();  // a view of the same memory
    Array(a.cell_ends).zero_();
    const int32_t count = static_cast<int32_t>(n);
    if (count > 0) {
        // (n, 3) scalars with the points' own stride: any one-dimensional view
        const int64_t scalar = static_cast<int64_t>(scalar_size(t.scalar));
        const Array words = Array::wrap(points.data(), DType(t.scalar), {n, 3},
                                        {points.strides()[0], scalar}, device, points.buffer());
        const int dx = dims[0], dy = dims[1], dz = dims[2];
        if (t.scalar == ScalarType::Float64)
            grid_kernel("cells_f64", device)
                .launch({n}, words, radius, dx, dy, dz, a.keys, a.values);
        else
            grid_kernel(t.scalar == ScalarType::Float16 ? "cells_f16" : "cells_f32", device)
                .launch({n}, words, static_cast<float>(radius), dx, dy, dz, a.keys, a.values);
        // cell ids are below the cell count: only their low bits need sorting
        int bits = 1;
        while (bits < 31 && (int64_t{1} << bits) < cells) ++bits;
        device_sort::sort_pairs(a.keys, a.values, n, bits);
        grid_kernel("ranges", device).launch({n}, a.keys, count, a.cell_starts, a.cell_ends);
        if (grouped) grid_kernel("sorted_groups", device).launch({n}, a.values, groups, a.groups);
    }
    write_descriptor(a, dims, radius, count, grouped);
}

void reset_hash_grid(const HashGridArrays& a, std::array<int, 3> dims) {
    const Device device = a.cell_starts.device();
    const int64_t cells = int64_t{dims[0]} * dims[1] * dims[2];
    check_ints(a.cell_starts, cells, device, "cell_starts");
    check_ints(a.cell_ends, cells, device, "cell_ends");
    Array(a.cell_starts).zero_();  // views of the same memory
    Array(a.cell_ends).zero_();
    write_descriptor(a, dims, 0.0, 0, false);
}

HashGrid::HashGrid(int dim_x, int dim_y, int dim_z, Device device)
    : m_dims{dim_x, dim_y, dim_z}, m_device(device) {
    if (dim_x < 1 || dim_y < 1 || dim_z < 1)
        throw Error(ErrorKind::Value, "HashGrid: dimensions must be positive, got (" +
                                          std::to_string(dim_x) + ", " + std::to_string(dim_y) +
                                          ", " + std::to_string(dim_z) + ")");
    const int64_t cells = int64_t{dim_x} * dim_y * dim_z;
    if (cells > k_max_cells) throw Error(ErrorKind::Value, "HashGrid: more than 2^31 - 1 cells");
    m_arrays.cell_starts = Array::zeros(DType(ScalarType::Int32), {cells}, device);
    m_arrays.cell_ends = Array::zeros(DType(ScalarType::Int32), {cells}, device);
    m_arrays.descriptor = Array::zeros(DType(ScalarType::Int64), {8}, device);
    reset_hash_grid(m_arrays, m_dims);
}

void HashGrid::reserve(int64_t num_points, bool with_groups) {
    if (num_points > m_capacity) {
        m_arrays.keys = Array::empty(DType(ScalarType::Int32), {num_points}, m_device);
        m_arrays.values = Array::empty(DType(ScalarType::Int32), {num_points}, m_device);
        m_arrays.groups = Array();
        m_capacity = num_points;
    }
    if (with_groups && (m_arrays.groups.is_null() || m_arrays.groups.size() < m_capacity))
        m_arrays.groups = Array::empty(DType(ScalarType::Int32), {m_capacity}, m_device);
}

void HashGrid::build(const Array& points, double radius, const Array& groups) {
    if (points.device() != m_device)
        throw Error(ErrorKind::Value, "HashGrid: points must be on the grid's device (" +
                                          m_device.alias() + "), got " + points.device().alias());
    reserve(std::max<int64_t>(points.size(), 1), !groups.is_null());
    build_hash_grid(m_arrays, m_dims, points, radius, groups);
}

}  // namespace treadle
