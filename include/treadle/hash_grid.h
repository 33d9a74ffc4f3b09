// include/treadle/hash_grid.h -- uniform hash grids over point sets, for neighbour queries
// (wp.HashGrid): kernels take the grid's id and walk it with hash_grid_query / _next
#pragma once

#include <array>
#include <cstdint>

#include "treadle/array.h"
#include "treadle/device.h"

namespace treadle {

/// The arrays a hash grid build reads and writes, all in the memory of one device.
struct HashGridArrays {
    Array cell_starts;  ///< int32 per cell: the cell's first position in `values`
    Array cell_ends;    ///< int32 per cell: one past its last position (0 with start 0: empty)
    Array descriptor;   ///< 64 bytes (native/treadle/hash_grid.h: wp::hash_grid_t); the id
    Array keys;         ///< int32, at least one per point: the points' cells (scratch)
    Array values;       ///< int32, at least one per point: the point indices sorted by cell
    Array groups;       ///< int32, at least one per point: the sorted points' groups (grouped
                        ///< builds only; may be null otherwise)
};

/// Builds a grid of `dims` cells over `points` (a one-dimensional array, any stride, of vec3
/// of float16, float32 or float64 in the arrays' memory) with cells of width `radius`: each point
/// goes to the cell floor(p / radius) of the infinite lattice wrapped modulo `dims` (computed
/// in float32 for float16 and float32 points, as the queries compute it), the (cell, index)
/// pairs are sorted stably, and each cell's range recorded; with `groups` (int32 per point, or
/// a null Array) each sorted position's group too, so grouped queries see only their group.
/// Then the descriptor is written. All by kernels on the device's current stream, nothing read
/// back, so a graph can capture a build. Throws treadle::Error: Value on arrays of the wrong
/// type, size or device.
void build_hash_grid(const HashGridArrays& arrays, std::array<int, 3> dims, const Array& points,
                     double radius, const Array& groups);

/// An empty grid of `dims` cells in `arrays` (the cell ranges zeroed, the descriptor naming
/// no points), by kernels on their device (capturable). Throws treadle::Error: Value as
/// build_hash_grid does.
void reset_hash_grid(const HashGridArrays& arrays, std::array<int, 3> dims);

/// The build's kernel module text (treadle's kernel language), for compile checks.
const char* hash_grid_kernel_source();

/// A hash grid that owns its arrays. Queries in kernels on device() take id().
class HashGrid {
public:
    /// A grid of dim_x * dim_y * dim_z cells (each at least 1, at most 2^31 - 1 in all).
    /// Throws treadle::Error: Value otherwise.
    HashGrid(int dim_x, int dim_y, int dim_z, Device device = {});
    HashGrid(const HashGrid&) = delete;
    HashGrid& operator=(const HashGrid&) = delete;

    /// Allocates the sort buffers for `num_points` points (and their groups), so later builds
    /// of at most that many allocate nothing.
    void reserve(int64_t num_points, bool with_groups = false);
    /// Sorts `points` into the grid's cells of width `radius` (build_hash_grid), reserving
    /// first when they are more than the buffers hold; with `groups`, grouped queries see only
    /// their group's points.
    void build(const Array& points, double radius, const Array& groups = Array());

    /// The address of the descriptor in the device's memory (stable for the grid's life).
    uint64_t id() const { return reinterpret_cast<uint64_t>(m_arrays.descriptor.data()); }
    Device device() const { return m_device; }
    std::array<int, 3> dims() const { return m_dims; }
    const Array& cell_starts() const { return m_arrays.cell_starts; }
    const Array& cell_ends() const { return m_arrays.cell_ends; }
    /// The point indices sorted by cell (the first num_points of them are valid).
    const Array& point_ids() const { return m_arrays.values; }

private:
    std::array<int, 3> m_dims;
    Device m_device;
    HashGridArrays m_arrays;
    int64_t m_capacity = 0;
};

}  // namespace treadle
