// native/treadle/hash_grid.h -- hash-grid neighbour queries: hash_grid_query/_next/_point_id
//
// A grid id is the address of a hash_grid_t descriptor in the memory of the kernel's device,
// written by the build (python/treadle/hash_grid.py): the cell width, the dimensions, and
// device pointers to the point indices sorted by cell and each cell's [start, end) range in
// them. Cells wrap around the grid's dimensions (cell (x, y, z) of the infinite lattice is
// cell (x mod dim_x, y mod dim_y, z mod dim_z)). A query visits every point of every cell the
// box [point - max_dist, point + max_dist] touches; callers filter by distance themselves.
// Queries have no gradient: their adjoints do nothing.
#pragma once

#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// The build's descriptor of a grid (its id is this struct's address).
struct hash_grid_t {
    double cell_width;
    const int* point_ids;    ///< point indices sorted by cell
    const int* cell_starts;  ///< per cell, its first position in point_ids
    const int* cell_ends;    ///< per cell, one past its last position
    const int* groups;       ///< per sorted position, its point's group (null: no groups)
    int dim_x, dim_y, dim_z, num_points;
};

/// The traversal state of a query over a grid, for coordinate precision T.
template <typename T>
struct hash_grid_query_t {
    uint64 id = 0;
    int x_start = 0, y_start = 0, z_start = 0;
    int x_end = -1, y_end = -1, z_end = -1;
    int x = 0, y = 0, z = 0;
    int cell_index = 0, cell_end = 0;
    int group = 0;
    bool grouped = false;  ///< only points of `group`
};

using hash_grid_query_f = hash_grid_query_t<float>;
using hash_grid_query_h = hash_grid_query_t<half>;
using hash_grid_query_d = hash_grid_query_t<double>;

namespace hash_grid_detail {

CUDA_CALLABLE int wrap(int v, int n) {
    int r = v % n;
    return r < 0 ? r + n : r;
}

CUDA_CALLABLE int cell_of(const hash_grid_t& g, int x, int y, int z) {
    return (wrap(z, g.dim_z) * g.dim_y + wrap(y, g.dim_y)) * g.dim_x + wrap(x, g.dim_x);
}

/// The precision a query computes in: float for half and float, double for double.
template <typename T>
struct calc {
    typedef float type;
};
template <>
struct calc<double> {
    typedef double type;
};

template <typename T>
CUDA_CALLABLE double as_double(T v) {
    return double(float(v));
}
template <>
CUDA_CALLABLE double as_double<double>(double v) {
    return v;
}

/// floor(v / w) as an int, v in the query's precision (half computed in float).
template <typename T>
CUDA_CALLABLE int lattice(T v, double w) {
    typedef typename calc<T>::type C;
    C q = C(as_double(v)) / C(w);
    C f = q < C(0) ? C(int(q)) - (C(int(q)) != q ? C(1) : C(0)) : C(int(q));
    return int(f);
}

}  // namespace hash_grid_detail

template <typename T>
CUDA_CALLABLE hash_grid_query_t<T> hash_grid_query(uint64 id, vec_t<3, T> point, T max_dist) {
    using namespace hash_grid_detail;
    hash_grid_query_t<T> q;
    q.id = id;
    const hash_grid_t* g = (const hash_grid_t*)id;
    if (!g || g->num_points <= 0 || !g->point_ids) return q;
    typedef typename calc<T>::type C;
    int lo[3], hi[3];
    const int dims[3] = {g->dim_x, g->dim_y, g->dim_z};
    for (int k = 0; k < 3; ++k) {
        C p = C(as_double(point.c[k])), r = C(as_double(max_dist));
        lo[k] = lattice<C>(p - r, g->cell_width);
        hi[k] = lattice<C>(p + r, g->cell_width);
        if (hi[k] - lo[k] >= dims[k]) hi[k] = lo[k] + dims[k] - 1;  // each cell once
    }
    q.x_start = lo[0], q.y_start = lo[1], q.z_start = lo[2];
    q.x_end = hi[0], q.y_end = hi[1], q.z_end = hi[2];
    q.x = lo[0], q.y = lo[1], q.z = lo[2];
    const int c = cell_of(*g, q.x, q.y, q.z);
    q.cell_index = g->cell_starts[c];
    q.cell_end = g->cell_ends[c];
    return q;
}

/// A query that visits only the points of group `group` (a grid built without groups has
/// none in any group).
template <typename T>
CUDA_CALLABLE hash_grid_query_t<T> hash_grid_query(uint64 id, vec_t<3, T> point, T max_dist,
                                                   int32 group) {
    hash_grid_query_t<T> q = hash_grid_query(id, point, max_dist);
    q.group = group;
    q.grouped = true;
    return q;
}

/// Writes the next point index of the query into `index`; false when none is left.
template <typename T>
CUDA_CALLABLE bool hash_grid_query_next(hash_grid_query_t<T>& q, int32& index) {
    using namespace hash_grid_detail;
    const hash_grid_t* g = (const hash_grid_t*)q.id;
    if (!g || q.x_end < q.x_start) return false;
    for (;;) {
        if (q.cell_index < q.cell_end) {
            const int slot = q.cell_index++;
            if (q.grouped && (!g->groups || g->groups[slot] != q.group)) continue;
            index = g->point_ids[slot];
            return true;
        }
        if (++q.x > q.x_end) {
            q.x = q.x_start;
            if (++q.y > q.y_end) {
                q.y = q.y_start;
                if (++q.z > q.z_end) {
                    q.x_end = q.x_start - 1;  // exhausted
                    return false;
                }
            }
        }
        const int c = cell_of(*g, q.x, q.y, q.z);
        q.cell_index = g->cell_starts[c];
        q.cell_end = g->cell_ends[c];
    }
}

/// The index of the point at sorted position `index` (-1 outside the grid's points).
CUDA_CALLABLE int32 hash_grid_point_id(uint64 id, int32 index) {
    const hash_grid_t* g = (const hash_grid_t*)id;
    if (!g || !g->point_ids || index < 0 || index >= g->num_points) return -1;
    return g->point_ids[index];
}

template <typename T>
CUDA_CALLABLE void adj_hash_grid_query(uint64, vec_t<3, T>, T, uint64&, vec_t<3, T>&, T&,
                                       const hash_grid_query_t<T>&) {}
template <typename T>
CUDA_CALLABLE void adj_hash_grid_query(uint64, vec_t<3, T>, T, int32, uint64&, vec_t<3, T>&, T&,
                                       int32&, const hash_grid_query_t<T>&) {}
template <typename T>
CUDA_CALLABLE void adj_hash_grid_query_next(hash_grid_query_t<T>&, int32&, hash_grid_query_t<T>&,
                                            int32&, bool) {}
CUDA_CALLABLE void adj_hash_grid_point_id(uint64, int32, uint64&, int32&, int32) {}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
