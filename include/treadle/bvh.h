// include/treadle/bvh.h -- bounding volume hierarchies of axis-aligned boxes (wp.Bvh)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "treadle/array.h"
#include "treadle/device.h"

namespace treadle {

namespace bvh_refit {
struct Tree;
}  // namespace bvh_refit

/// How a Bvh splits its items: Sah (binned surface-area heuristic, the best trees), Median
/// (halves along the widest axis of the centres) or Lbvh (Morton order of the centres).
enum class BvhConstructor { Sah, Median, Lbvh };

/// The constructor of Warp's `constructor=` name ("sah", "median", "lbvh"); throws
/// treadle::Error: Value for another name.
BvhConstructor bvh_constructor_from_name(const std::string& name);

/// One node as kernels read it (native/treadle/bvh.h's wp::bvh_node_t): internal when
/// left >= 0 (children left and right), else a leaf holding items[~left .. right).
struct BvhNode {
    std::array<float, 3> lower;
    int32_t left;
    std::array<float, 3> upper;
    int32_t right;
};

/// Host mirror of wp::bvh_t: what a kernel's BVH id points at.
struct BvhDescriptor {
    const BvhNode* nodes;
    const int32_t* items;
    const std::array<float, 3>* item_lowers;
    const std::array<float, 3>* item_uppers;
    const int32_t* group_roots;  ///< num_groups (group id, root node) pairs, ids increasing
    int32_t num_nodes;
    int32_t num_items;
    int32_t num_groups;
    int32_t root;
};

/// A BVH over item boxes, built in host memory. On the CPU its id addresses the host descriptor;
/// for a CUDA device the built tree (nodes, items, item boxes, group roots) and a descriptor
/// naming those copies are uploaded to the device after every build and refit, and the id
/// addresses that device descriptor. Kernels take the id as a uint64, on the BVH's device only.
class Bvh {
public:
    /// Builds over the boxes [lowers[i], uppers[i]] (equal counts). `groups` (empty, or one
    /// non-negative id per item) builds one subtree per group (bvh_get_group_root). Leaves hold
    /// at most `leaf_size` items (at least 1). Throws treadle::Error: Value on mismatched sizes,
    /// a negative group or a leaf size below 1.
    Bvh(std::vector<std::array<float, 3>> lowers, std::vector<std::array<float, 3>> uppers,
        BvhConstructor constructor = BvhConstructor::Sah, std::vector<int32_t> groups = {},
        int leaf_size = 1, Device device = {});
    /// Builds over item boxes in the memory of one device (contiguous float32 or vec3 arrays,
    /// 3 floats per item). On a CUDA device with Lbvh and no groups the build runs there, by
    /// kernels on its current stream (nothing is read back; the host copies of the tree are
    /// fetched when read); otherwise the boxes are copied to the host and built there (and the
    /// tree uploaded to a CUDA device). The same checks and errors as the constructor above.
    Bvh(const Array& lowers, const Array& uppers, BvhConstructor constructor,
        std::vector<int32_t> groups = {}, int leaf_size = 1);
    Bvh(const Bvh&) = delete;
    Bvh& operator=(const Bvh&) = delete;

    /// The id kernels on device() take (the address of the descriptor in that device's memory;
    /// stable for the Bvh's lifetime).
    uint64_t id() const;
    /// The device whose kernels can query the tree.
    Device device() const { return m_device; }
    /// Moves the tree's kernel-side copy to `device` (uploading it to a CUDA device now and
    /// after every later build and refit); the id changes to that device's descriptor.
    void set_device(Device device);
    /// The descriptor naming the host arrays.
    const BvhDescriptor& host_descriptor() const {
        sync_host();
        return m_desc;
    }
    /// On a CUDA device, the descriptor naming the device copies (what id() addresses there).
    const BvhDescriptor& device_descriptor() const { return m_device_view; }
    /// New item boxes (same count), the tree's shape kept; node boxes are recomputed.
    void refit(std::vector<std::array<float, 3>> lowers, std::vector<std::array<float, 3>> uppers);
    /// New item boxes (same count), the tree built anew with the Bvh's constructor.
    void rebuild(std::vector<std::array<float, 3>> lowers,
                 std::vector<std::array<float, 3>> uppers);
    /// Refits to item boxes in the memory of device() (float32 or vec3 arrays, contiguous, 3
    /// floats per item): on a CUDA device by kernels on its current stream, reading nothing back
    /// (so it can be captured in a graph); the host copy of the nodes is fetched again when
    /// nodes() is next read. Throws treadle::Error: Value for arrays of another device or size.
    void refit(const Array& lowers, const Array& uppers);
    /// The same with another constructor, used from now on.
    void rebuild(std::vector<std::array<float, 3>> lowers, std::vector<std::array<float, 3>> uppers,
                 BvhConstructor constructor);
    /// Builds anew from item boxes in the memory of device() (same count), as the array
    /// constructor builds; a rebuild on the device of as many items keeps the tree's device
    /// arrays, so the descriptor is not written again and a graph can capture it.
    void rebuild(const Array& lowers, const Array& uppers);
    /// The same with another constructor, used from now on.
    void rebuild(const Array& lowers, const Array& uppers, BvhConstructor constructor);

    /// The nodes (after a refit on a CUDA device, copied back from it first).
    const std::vector<BvhNode>& nodes() const;
    const std::vector<int32_t>& items() const {
        sync_host();
        return m_items;
    }
    int32_t root() const { return m_desc.root; }
    /// The root node of group `group`'s items, -1 when it has none.
    int32_t group_root(int32_t group) const;
    /// The deepest path from the root, in nodes (a leaf-only tree has depth 1).
    int depth() const;

private:
    friend class Mesh;
    /// On a CUDA device: refits to the faces of a mesh (its items) over device `points` and
    /// `indices`, as refit(lowers, uppers) does.
    void refit_faces(const Array& points, const Array& indices);
    /// The device buffers as the refit kernels take them.
    bvh_refit::Tree device_tree() const;
    void check_groups(size_t count) const;
    /// Builds the tree of `count` items by kernels on the CUDA device of the boxes.
    void build_on_device(const Array& lowers, const Array& uppers, int64_t count);
    /// Writes the device descriptor naming the device buffers (unless it already does).
    void write_device_descriptor();
    void check_boxes(const std::vector<std::array<float, 3>>& lowers,
                     const std::vector<std::array<float, 3>>& uppers) const;
    void build();
    void publish();
    void upload();

    /// After a refit on the device: copies its node and item boxes back to the host copies.
    void sync_host() const;

    mutable std::vector<std::array<float, 3>> m_lowers, m_uppers;
    std::vector<int32_t> m_groups;
    mutable std::vector<int32_t> m_group_roots;
    Array m_device_groups;              ///< a device build's copy of m_groups
    int32_t m_num_distinct_groups = 0;  ///< (counted with it)
    mutable std::vector<int32_t> m_items;
    mutable std::vector<BvhNode> m_nodes;
    mutable bool m_host_stale = false;  ///< the device's boxes are newer than the host's
    BvhConstructor m_constructor;
    int m_leaf_size;
    mutable BvhDescriptor m_desc{};  ///< host pointers refreshed by sync_host
    bool m_built = false;            ///< a tree exists: its item count is fixed
    Device m_device;
    /// On a CUDA device: the uploaded nodes, items, item lowers, item uppers and group roots,
    /// then the refit's parents, leaves and counters (src/api/bvh_refit.h), and the descriptor
    /// naming them (allocated once, so the id never changes).
    std::vector<Array> m_device_buffers;
    int32_t m_num_leaves = 0;
    Array m_device_desc;
    BvhDescriptor m_device_view{};  ///< the host copy of m_device_desc's contents
};

}  // namespace treadle
