// src/api/bvh_refit.h -- refitting a Bvh's nodes in the memory of its device, with kernels
//
// The tree's shape stays; the node boxes are recomputed bottom-up in one launch: a thread per
// leaf computes the leaf's box from its items' boxes (copying them into the tree's own item
// boxes), then climbs towards the root. At each parent the first child to arrive stops (an
// atomic counter per node says which), the second unions both children's boxes and climbs on,
// so every node is written once, after both of its children. Counters return to zero as they
// are passed, so a refit needs no clearing launch and a CUDA graph can replay it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "treadle/array.h"
#include "treadle/bvh.h"
#include "treadle/device.h"

namespace treadle::bvh_refit {

/// A tree's arrays in the memory of one device, as the refit kernels take them.
struct Tree {
    Array nodes;   ///< BvhNode records, as uint8 bytes (32 per node)
    Array items;   ///< int32 item indices; leaves' ranges index into it
    Array lowers;  ///< the tree's own item boxes: float32, 3 per item
    Array uppers;
    Array parents;           ///< int32 per node, -1 at a root
    Array leaves;            ///< int32 ids of the leaf nodes (the first leaf_count[0] of them)
    Array counters;          ///< int32 per node, zero between refits
    Array leaf_count;        ///< one int32: how many leaves there are (a device build counts them)
    int32_t num_leaves = 0;  ///< threads a refit launches: the leaves' array length
};

/// A copy of a built tree in the memory of `device`, with the parents and leaves of the nodes
/// reachable from `root` (-1: an empty tree) and zeroed counters.
Tree make_tree(const std::vector<BvhNode>& nodes, const std::vector<int32_t>& items,
               const std::vector<std::array<float, 3>>& lowers,
               const std::vector<std::array<float, 3>>& uppers, int32_t root, Device device);

/// Refits `tree` to the item boxes `lowers`, `uppers` (float32 or vec3 arrays of 3 floats per
/// item, contiguous, in the memory of the tree's device). On CUDA the launch is enqueued on the
/// device's current stream.
void from_boxes(const Tree& tree, const Array& lowers, const Array& uppers);

/// Refits `tree`, whose items are the faces (indices[3 f .. 3 f + 3)) of a triangle mesh, to
/// the current `points` (3 floats each); `indices` is int32.
void from_faces(const Tree& tree, const Array& points, const Array& indices);

/// The first position of `indices` (int32, any device) holding a value outside [0,
/// num_points), or -1: checked there, one value read back (the launch is waited for).
int32_t first_bad_index(const Array& indices, int32_t num_points);

/// The boxes of faces [0, num_tris) (indices[3 f .. 3 f + 3) into 3-float `points`) into
/// `lowers` and `uppers` (float32, 3 per face), on the points' device.
void face_boxes(const Array& points, const Array& indices, int32_t num_tris, const Array& lowers,
                const Array& uppers);

/// The mean edge length of the faces, written as one float32 at `out` (device memory, e.g. a
/// field of a descriptor) without reading anything back: partial sums over fixed chunks of
/// faces, then one thread adds them in order, so the result is the same on every run.
void mean_edge_length(const Array& points, const Array& indices, int32_t num_tris, float* out);

/// The kernel module's text (treadle's kernel language), for compile checks.
const char* kernel_source();

}  // namespace treadle::bvh_refit
