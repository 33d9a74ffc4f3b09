// include/treadle/mesh.h -- triangle meshes for closest-point, ray and box queries (wp.Mesh)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "treadle/bvh.h"

namespace treadle {

/// Host mirror of native wp::array_t (72 bytes): a strided 1-D view as kernels read it.
struct MeshArrayView {
    void* data;
    void* grad;
    int32_t shape[4];
    int64_t strides[4];  ///< in bytes
    int32_t ndim;
    int32_t flags;
};

/// Host mirror of wp::mesh_winding_node_t: the fast winding number's moments of a BVH node.
struct MeshWindingNode {
    std::array<float, 3> centre;  ///< area-weighted centre of the node's faces
    float radius;                 ///< largest distance from centre to one of their vertices
    std::array<float, 3> normal;  ///< sum of cross(b - a, c - a) / 2 over them
    float area;
    float first[9];    ///< sum of normal_i (face centroid - centre)_j, row-major
    float second[18];  ///< second moments, see wp::mesh_winding_node_t
    float pad;
};

/// Host mirror of wp::mesh_t: what a kernel's mesh id points at.
struct MeshDescriptor {
    MeshArrayView points;
    MeshArrayView velocities;  ///< data null without velocities
    MeshArrayView indices;
    BvhDescriptor bvh;
    const MeshWindingNode* winding;  ///< by BVH node; null without winding number support
    int32_t num_points;
    int32_t num_tris;
    float average_edge_length;
    int32_t pad;
};

/// A triangle mesh in host memory with a BVH over its faces' boxes; its id addresses its
/// descriptor, so kernels launched on the CPU can query it (native/treadle/mesh.h).
///
/// The points, velocities and indices are either owned (the vector constructor) or borrowed
/// (the pointer constructor: the memory must outlive the Mesh and keep its size; the Mesh
/// never writes it). Face f is (indices[3 f], indices[3 f + 1], indices[3 f + 2]).
class Mesh {
public:
    using Vec3 = std::array<float, 3>;

    /// Owns copies of the arrays. `velocities`: empty or one per point. `groups`: empty or
    /// one non-negative id per face (mesh_get_group_root). Throws treadle::Error: Value when
    /// indices' count is not a multiple of 3, an index is outside [0, points), velocities or
    /// groups have the wrong count, a group is negative or leaf_size < 1.
    Mesh(std::vector<Vec3> points, std::vector<int32_t> indices, std::vector<Vec3> velocities = {},
         bool support_winding_number = false, BvhConstructor constructor = BvhConstructor::Sah,
         std::vector<int32_t> groups = {}, int leaf_size = 4);
    /// Borrows `num_points` points (and velocities, may be null) and `num_indices` indices;
    /// the same checks and defaults as above.
    Mesh(const Vec3* points, int32_t num_points, const int32_t* indices, int32_t num_indices,
         const Vec3* velocities = nullptr, bool support_winding_number = false,
         BvhConstructor constructor = BvhConstructor::Sah, std::vector<int32_t> groups = {},
         int leaf_size = 4);
    /// A mesh queried by kernels on CUDA `device` over its device memory: `num_points` points,
    /// `num_indices` indices and the velocities (or null), borrowed as bind_device borrows them.
    /// With Lbvh and no winding-number support everything happens on the device: the indices
    /// are checked there (one value read back), the face boxes, the face BVH (bvh_lbvh.h) and
    /// the mean edge length computed there, and the host keeps no copies. Otherwise the host
    /// builds from copies of the arrays and binds. The same checks and errors as above.
    static std::unique_ptr<Mesh> for_device(Device device, const Vec3* points, int32_t num_points,
                                            const int32_t* indices, int32_t num_indices,
                                            const Vec3* velocities, bool support_winding_number,
                                            BvhConstructor constructor, std::vector<int32_t> groups,
                                            int leaf_size);
    Mesh(const Mesh&) = delete;
    Mesh& operator=(const Mesh&) = delete;

    /// The id kernels take (the address of the descriptor, in the memory of device(); stable
    /// for the Mesh's lifetime once bound).
    uint64_t id() const;
    /// The id of the face BVH (what mesh_get_bvh returns).
    uint64_t bvh_id() const { return id() + offsetof(MeshDescriptor, bvh); }
    /// Makes the mesh queryable by kernels on CUDA `device`: a copy of the descriptor lives
    /// there, naming device copies of the BVH and winding moments and the given device memory
    /// for the points, indices and velocities (null: none) -- borrowed, holding what the
    /// host-side points and indices hold; it is uploaded again after every refit. id() then
    /// addresses it. Call again to change the device views (new velocities).
    void bind_device(Device device, const Vec3* points, const int32_t* indices,
                     const Vec3* velocities);
    /// The device whose kernels can query the mesh (the CPU unless bound to a CUDA device).
    Device device() const { return m_device; }
    const Bvh& bvh() const { return *m_bvh; }
    const MeshDescriptor& descriptor() const { return m_desc; }

    /// Recomputes the face boxes, node boxes and winding moments from the current points
    /// (after they changed in place: owned ones through points(), borrowed ones by their
    /// owner); the tree's shape is kept. Bound to a CUDA device, it refits from the device's
    /// points with kernels on the device's current stream, reading nothing back; a mesh with
    /// winding-number support copies the points to the host and computes the moments there.
    void refit();
    /// Replaces the points (same count; owned from now on) and refits. Throws
    /// treadle::Error: Value on another count, or for a mesh bound to a CUDA device (whose
    /// kernels read the device points: change those, then refit()).
    void refit(std::vector<Vec3> points);
    /// Borrows new points (same count; may be the old memory) and refits; a mesh bound to a
    /// CUDA device refuses (bind_device new device points instead).
    void set_points(const Vec3* points, int32_t num_points);

    /// Borrows new velocities (one per point, or null for none); no refit is needed.
    void set_velocities(const Vec3* velocities, int32_t num_velocities);
    /// Replaces the velocities (empty or one per point; owned from now on).
    void set_velocities(std::vector<Vec3> velocities);

    /// The owned points, to change in place before refit(); throws treadle::Error: Value for
    /// a Mesh that borrows its points.
    std::vector<Vec3>& points();
    const Vec3* point_data() const { return static_cast<const Vec3*>(m_desc.points.data); }
    const int32_t* index_data() const { return static_cast<const int32_t*>(m_desc.indices.data); }
    const Vec3* velocity_data() const { return static_cast<const Vec3*>(m_desc.velocities.data); }
    int32_t num_points() const { return m_desc.num_points; }
    int32_t num_tris() const { return m_desc.num_tris; }
    /// The mean length of the faces' edges (from the device after a refit there).
    float average_edge_length() const;
    bool supports_winding_number() const { return m_winding_support; }

private:
    Mesh() = default;
    void check_counts(int32_t num_points, int32_t num_indices, size_t num_groups,
                      int leaf_size) const;
    /// Checks the arrays and publishes their views (no BVH yet).
    void check_and_view(const Vec3* points, int32_t num_points, const int32_t* indices,
                        int32_t num_indices, const Vec3* velocities, size_t num_groups,
                        int leaf_size);
    void edge_length();
    void init(const Vec3* points, int32_t num_points, const int32_t* indices, int32_t num_indices,
              const Vec3* velocities, BvhConstructor constructor, std::vector<int32_t> groups,
              int leaf_size);
    void face_boxes(std::vector<Vec3>& lowers, std::vector<Vec3>& uppers) const;
    void update_derived();
    void upload();
    void refit_on_device();

    std::vector<Vec3> m_points, m_velocities;
    std::vector<int32_t> m_indices;
    bool m_owns_points = false;
    bool m_winding_support = false;
    std::vector<MeshWindingNode> m_winding;
    std::unique_ptr<Bvh> m_bvh;
    mutable MeshDescriptor m_desc{};
    mutable bool m_host_stale = false;  ///< the device's average edge length is newer
    Device m_device;
    MeshArrayView m_device_points{}, m_device_indices{}, m_device_velocities{};
    Array m_device_winding, m_device_desc;
};

}  // namespace treadle
