// src/api/bvh_lbvh.h -- building a Bvh in the memory of its device: a linear BVH (Karras 2012)
//
// The items' box centres are bounded (a fixed tree of chunk boxes, no atomics), quantised to 10
// bits per axis and interleaved into 30-bit Morton codes; the (code, item) pairs are sorted
// (device_sort.h, stable, so equal codes keep item order); then a thread per internal node finds
// the node's item range and split from the longest common prefixes of neighbouring codes (ties
// broken by index), which fixes the whole hierarchy (with groups the group id leads the key,
// so each group is a subtree, whose root is found in parallel): internal node i is node i, the leaf
// of sorted item j is node n - 1 + j, the root is node 0. Nodes whose range holds at most leaf_size
// items become leaves of that range (the nodes below them are left unreachable); a scan lists the
// leaves, and the refit (bvh_refit.h) computes every box. Nothing is read back to the host: a build
// can be captured.
#pragma once

#include <cstdint>

#include "api/bvh_refit.h"
#include "treadle/array.h"

namespace treadle::bvh_lbvh {

/// Builds into `tree` the tree of `count` items whose boxes are `lowers`, `uppers` (contiguous
/// float32 or vec3, 3 floats per item, in the memory of one device); leaves hold at most
/// `leaf_size` items. The tree has 2 count - 1 node records (some unreachable). Arrays of `tree`
/// already of the right size are reused (a rebuild keeps the addresses a descriptor names);
/// others are allocated. With `groups` (int32 per item, non-negative, on the same device) the
/// items are ordered by group, then Morton code, no leaf mixes groups, and `group_roots`
/// (int32, 2 per distinct group) receives the (group id, root node) pairs by increasing id.
/// Throws treadle::Error: Value on bad sizes.
void build(const Array& lowers, const Array& uppers, int64_t count, int leaf_size,
           bvh_refit::Tree& tree, const Array* groups = nullptr,
           const Array& group_roots = Array());

/// The kernel module's text, for compile checks.
const char* kernel_source();

}  // namespace treadle::bvh_lbvh
