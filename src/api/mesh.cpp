// src/api/mesh.cpp -- host construction and refitting of treadle::Mesh (face BVH, winding moments)
//
// A Mesh builds a treadle::Bvh over its faces' boxes and publishes a MeshDescriptor laid out as
// native/treadle/mesh.h's wp::mesh_t reads it, with a copy of the Bvh's descriptor embedded
// (so mesh_get_bvh is an address inside the mesh). Every refit recomputes the face boxes, the
// Bvh's node boxes, the winding moments and the average edge length, then copies the Bvh's
// descriptor again (its arrays may have moved).
#include "treadle/mesh.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "api/bvh_refit.h"
#include "runtime/thread_pool.h"
#include "treadle/error.h"

namespace treadle {

namespace {

using Vec3 = Mesh::Vec3;

constexpr int64_t k_face_grain = 4096;  ///< faces a CPU thread takes at a time

/// Copies the int32 values of device array `a` to `out`.
void to_host(const Array& a, int32_t* out) {
    Array::wrap(out, DType(ScalarType::Int32), {a.size()}, {4}, Device::cpu(), nullptr).assign(a);
}

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
float norm(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

MeshArrayView view(const void* data, int32_t count, int64_t stride) {
    MeshArrayView v{};
    v.data = const_cast<void*>(data);
    v.shape[0] = count;
    v.strides[0] = stride;
    v.ndim = 1;
    return v;
}

/// Moments of one subtree (area-weighted centre sum, area vector, area) for the winding nodes.
struct Moments {
    double cx = 0, cy = 0, cz = 0;  ///< sum of area * centroid
    double nx = 0, ny = 0, nz = 0;
    double area = 0;
    double count = 0;               ///< faces, for the plain mean of zero-area subtrees
    double mx = 0, my = 0, mz = 0;  ///< sum of centroids
};

class WindingBuilder {
public:
    WindingBuilder(const Mesh& m, const Bvh& bvh, std::vector<MeshWindingNode>& out)
        : m_mesh(m), m_bvh(bvh), m_out(out) {
        m_out.assign(bvh.nodes().size(), MeshWindingNode{});
    }

    Moments node(int32_t id) {
        const BvhNode& n = m_bvh.nodes()[id];
        Moments s;
        MeshWindingNode& w = m_out[id];
        if (n.left < 0) {
            for (int32_t i = ~n.left; i < n.right; ++i) add_face(s, m_bvh.items()[i]);
            w.centre = centre(s);
            w.radius = 0.0f;
            double first[9] = {}, second[18] = {};
            for (int32_t i = ~n.left; i < n.right; ++i) {
                const int32_t f = m_bvh.items()[i];
                for (int k = 0; k < 3; ++k)
                    w.radius = std::max(w.radius, norm(sub(vertex(f, k), w.centre)));
                add_moments(first, second, f, w.centre);
            }
            for (int k = 0; k < 9; ++k) w.first[k] = float(first[k]);
            for (int k = 0; k < 18; ++k) w.second[k] = float(second[k]);
        } else {
            const Moments l = node(n.left), r = node(n.right);
            s = merge(l, r);
            w.centre = centre(s);
            // bounds the subtree's vertices from the children's spheres
            for (int32_t c : {n.left, n.right}) {
                w.radius =
                    std::max(w.radius, norm(sub(m_out[c].centre, w.centre)) + m_out[c].radius);
                shift_moments(m_out[c], w);
            }
        }
        w.normal = {float(s.nx), float(s.ny), float(s.nz)};
        w.area = float(s.area);
        return s;
    }

private:
    Vec3 vertex(int32_t face, int k) const {
        return m_mesh.point_data()[m_mesh.index_data()[face * 3 + k]];
    }

    void add_face(Moments& s, int32_t f) const {
        const Vec3 a = vertex(f, 0), b = vertex(f, 1), c = vertex(f, 2);
        const Vec3 n = cross(sub(b, a), sub(c, a));
        const double area = 0.5 * norm(n);
        double cen[3];
        for (int k = 0; k < 3; ++k) cen[k] = (double(a[k]) + b[k] + c[k]) / 3.0;
        s.cx += area * cen[0];
        s.cy += area * cen[1];
        s.cz += area * cen[2];
        s.mx += cen[0];
        s.my += cen[1];
        s.mz += cen[2];
        s.nx += 0.5 * n[0];
        s.ny += 0.5 * n[1];
        s.nz += 0.5 * n[2];
        s.area += area;
        s.count += 1;
    }

    /// Adds face f's first and second moments about `about` (d = x - about over the face:
    /// int d dA = area s / 3 and int d d^T dA = area (sum_v d_v d_v^T + s s^T) / 12, s the
    /// sum of the vertices' offsets), each times the face's area vector, divided by its area.
    void add_moments(double* first, double* second, int32_t f, const Vec3& about) const {
        double v[3][3], s[3] = {0, 0, 0};
        for (int k = 0; k < 3; ++k)
            for (int j = 0; j < 3; ++j) {
                v[k][j] = double(vertex(f, k)[j]) - about[j];
                s[j] += v[k][j];
            }
        const Vec3 a = vertex(f, 0), b = vertex(f, 1), c = vertex(f, 2);
        const Vec3 n = cross(sub(b, a), sub(c, a));
        for (int i = 0; i < 3; ++i) {
            const double ni = 0.5 * n[i];
            for (int j = 0; j < 3; ++j) {
                first[3 * i + j] += ni * s[j] / 3.0;
                for (int k = j; k < 3; ++k) {
                    const double dd = v[0][j] * v[0][k] + v[1][j] * v[1][k] + v[2][j] * v[2][k];
                    second[6 * i + wp_sym_slot(j, k)] += ni * (dd + s[j] * s[k]) / 12.0;
                }
            }
        }
    }

    /// Adds a child's moments to its parent's, moved from the child's centre to the parent's
    /// (d = d_child + t, t = c_child - c).
    static void shift_moments(const MeshWindingNode& child, MeshWindingNode& w) {
        const Vec3 t = sub(child.centre, w.centre);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                const float mij = child.first[3 * i + j];
                w.first[3 * i + j] += mij + child.normal[i] * t[j];
                for (int k = j; k < 3; ++k) {
                    const int slot = wp_sym_slot(j, k);
                    w.second[6 * i + slot] += child.second[6 * i + slot] + mij * t[k] +
                                              child.first[3 * i + k] * t[j] +
                                              child.normal[i] * t[j] * t[k];
                }
            }
    }

    static int wp_sym_slot(int j, int k) {
        const int a = std::min(j, k), b = std::max(j, k);
        return a == 0 ? b : (a == 1 ? 2 + b : 5);
    }

    static Moments merge(const Moments& a, const Moments& b) {
        Moments s;
        s.cx = a.cx + b.cx, s.cy = a.cy + b.cy, s.cz = a.cz + b.cz;
        s.nx = a.nx + b.nx, s.ny = a.ny + b.ny, s.nz = a.nz + b.nz;
        s.mx = a.mx + b.mx, s.my = a.my + b.my, s.mz = a.mz + b.mz;
        s.area = a.area + b.area;
        s.count = a.count + b.count;
        return s;
    }

    static Vec3 centre(const Moments& s) {
        if (s.area > 0) return {float(s.cx / s.area), float(s.cy / s.area), float(s.cz / s.area)};
        if (s.count > 0)
            return {float(s.mx / s.count), float(s.my / s.count), float(s.mz / s.count)};
        return {0.0f, 0.0f, 0.0f};
    }

    const Mesh& m_mesh;
    const Bvh& m_bvh;
    std::vector<MeshWindingNode>& m_out;
};

}  // namespace

Mesh::Mesh(std::vector<Vec3> points, std::vector<int32_t> indices, std::vector<Vec3> velocities,
           bool support_winding_number, BvhConstructor constructor, std::vector<int32_t> groups,
           int leaf_size)
    : m_points(std::move(points)),
      m_velocities(std::move(velocities)),
      m_indices(std::move(indices)),
      m_owns_points(true),
      m_winding_support(support_winding_number) {
    if (!m_velocities.empty() && m_velocities.size() != m_points.size())
        throw Error(ErrorKind::Value, "Mesh: velocities must have one entry per point (" +
                                          std::to_string(m_points.size()) + "), got " +
                                          std::to_string(m_velocities.size()));
    init(m_points.data(), static_cast<int32_t>(m_points.size()), m_indices.data(),
         static_cast<int32_t>(m_indices.size()),
         m_velocities.empty() ? nullptr : m_velocities.data(), constructor, std::move(groups),
         leaf_size);
}

Mesh::Mesh(const Vec3* points, int32_t num_points, const int32_t* indices, int32_t num_indices,
           const Vec3* velocities, bool support_winding_number, BvhConstructor constructor,
           std::vector<int32_t> groups, int leaf_size)
    : m_winding_support(support_winding_number) {
    init(points, num_points, indices, num_indices, velocities, constructor, std::move(groups),
         leaf_size);
}

void Mesh::check_counts(int32_t num_points, int32_t num_indices, size_t num_groups,
                        int leaf_size) const {
    if (num_points < 0 || num_indices < 0)
        throw Error(ErrorKind::Value, "Mesh: point and index counts must be non-negative");
    if (num_indices % 3 != 0)
        throw Error(ErrorKind::Value, "Mesh: the number of indices (" +
                                          std::to_string(num_indices) +
                                          ") must be a multiple of 3 (three per triangle)");
    const int32_t num_tris = num_indices / 3;
    if (num_groups != 0 && static_cast<int32_t>(num_groups) != num_tris)
        throw Error(ErrorKind::Value, "Mesh: groups must have one entry per triangle (" +
                                          std::to_string(num_tris) + "), got " +
                                          std::to_string(num_groups));
    if (leaf_size < 1) throw Error(ErrorKind::Value, "Bvh: leaf_size must be at least 1");
}

void Mesh::check_and_view(const Vec3* points, int32_t num_points, const int32_t* indices,
                          int32_t num_indices, const Vec3* velocities, size_t num_groups,
                          int leaf_size) {
    check_counts(num_points, num_indices, num_groups, leaf_size);
    for (int32_t i = 0; i < num_indices; ++i)
        if (indices[i] < 0 || indices[i] >= num_points)
            throw Error(ErrorKind::Value,
                        "Mesh: index " + std::to_string(i) + " (" + std::to_string(indices[i]) +
                            ") is out of range for " + std::to_string(num_points) + " points");
    const int32_t num_tris = num_indices / 3;
    m_desc.points = view(points, num_points, sizeof(Vec3));
    m_desc.velocities = view(velocities, velocities ? num_points : 0, sizeof(Vec3));
    m_desc.indices = view(indices, num_indices, sizeof(int32_t));
    m_desc.num_points = num_points;
    m_desc.num_tris = num_tris;
}

void Mesh::init(const Vec3* points, int32_t num_points, const int32_t* indices, int32_t num_indices,
                const Vec3* velocities, BvhConstructor constructor, std::vector<int32_t> groups,
                int leaf_size) {
    check_and_view(points, num_points, indices, num_indices, velocities, groups.size(), leaf_size);
    std::vector<Vec3> lowers, uppers;
    face_boxes(lowers, uppers);
    m_bvh = std::make_unique<Bvh>(std::move(lowers), std::move(uppers), constructor,
                                  std::move(groups), leaf_size);
    update_derived();
}

std::unique_ptr<Mesh> Mesh::for_device(Device device, const Vec3* points, int32_t num_points,
                                       const int32_t* indices, int32_t num_indices,
                                       const Vec3* velocities, bool support_winding_number,
                                       BvhConstructor constructor, std::vector<int32_t> groups,
                                       int leaf_size) {
    if (!device.is_cuda()) throw Error(ErrorKind::Value, "Mesh.for_device: not a CUDA device");
    if (num_points < 0 || num_indices < 0)
        throw Error(ErrorKind::Value, "Mesh: point and index counts must be non-negative");
    const Array pts = Array::wrap(const_cast<Vec3*>(points), DType(ScalarType::Float32),
                                  {3 * int64_t{num_points}}, {4}, device, nullptr);
    const Array idx = Array::wrap(const_cast<int32_t*>(indices), DType(ScalarType::Int32),
                                  {int64_t{num_indices}}, {4}, device, nullptr);
    const bool on_device = constructor == BvhConstructor::Lbvh && !support_winding_number &&
                           num_indices >= 3 && num_indices % 3 == 0;
    if (!on_device) {
        // built on the host from copies (which it checks), then bound
        std::vector<Vec3> host_points(static_cast<size_t>(num_points));
        std::vector<int32_t> host_indices(static_cast<size_t>(num_indices));
        if (num_points > 0)
            Array::wrap(host_points.data(), DType(ScalarType::Float32), {3 * int64_t{num_points}},
                        {4}, Device::cpu(), nullptr)
                .assign(pts);
        if (num_indices > 0) to_host(idx, host_indices.data());
        auto m = std::make_unique<Mesh>(std::move(host_points), std::move(host_indices),
                                        std::vector<Vec3>{}, support_winding_number, constructor,
                                        std::move(groups), leaf_size);
        m->bind_device(device, points, indices, velocities);
        return m;
    }
    std::unique_ptr<Mesh> m(new Mesh());
    m->check_counts(num_points, num_indices, groups.size(), leaf_size);
    const int32_t bad = bvh_refit::first_bad_index(idx, num_points);
    if (bad >= 0) {
        int32_t value = 0;
        to_host(idx.slice(0, bad, bad + 1, 1), &value);
        throw Error(ErrorKind::Value, "Mesh: index " + std::to_string(bad) + " (" +
                                          std::to_string(value) + ") is out of range for " +
                                          std::to_string(num_points) + " points");
    }
    // the host keeps no copies: the views name the device arrays, which kernels read
    m->m_desc.points = view(nullptr, num_points, sizeof(Vec3));
    m->m_desc.indices = view(nullptr, num_indices, sizeof(int32_t));
    m->m_desc.num_points = num_points;
    m->m_desc.num_tris = num_indices / 3;
    m->m_device = device;
    const int32_t nt = m->m_desc.num_tris;
    m->m_device_points = view(points, num_points, sizeof(Vec3));
    m->m_device_indices = view(indices, num_indices, sizeof(int32_t));
    m->m_device_velocities = view(velocities, velocities ? num_points : 0, sizeof(Vec3));
    const Array lowers = Array::empty(DType(ScalarType::Float32), {3 * int64_t{nt}}, device);
    const Array uppers = Array::empty(DType(ScalarType::Float32), {3 * int64_t{nt}}, device);
    bvh_refit::face_boxes(pts, idx, nt, lowers, uppers);
    m->m_bvh =
        std::make_unique<Bvh>(lowers, uppers, BvhConstructor::Lbvh, std::move(groups), leaf_size);
    m->upload();
    auto* desc = static_cast<uint8_t*>(m->m_device_desc.data());
    bvh_refit::mean_edge_length(
        pts, idx, nt,
        reinterpret_cast<float*>(desc + offsetof(MeshDescriptor, average_edge_length)));
    m->m_host_stale = true;
    return m;
}

void Mesh::face_boxes(std::vector<Vec3>& lowers, std::vector<Vec3>& uppers) const {
    const int32_t n = m_desc.num_tris;
    lowers.resize(n);
    uppers.resize(n);
    cpu_pool().parallel_for(n, k_face_grain, [&](int64_t begin, int64_t end) {
        for (int64_t f = begin; f < end; ++f) {
            Vec3 lo = point_data()[index_data()[f * 3]], hi = lo;
            for (int k = 1; k < 3; ++k) {
                const Vec3& p = point_data()[index_data()[f * 3 + k]];
                for (int a = 0; a < 3; ++a) {
                    lo[a] = std::min(lo[a], p[a]);
                    hi[a] = std::max(hi[a], p[a]);
                }
            }
            lowers[f] = lo;
            uppers[f] = hi;
        }
    });
}

void Mesh::edge_length() {
    m_host_stale = false;
    const int32_t n = m_desc.num_tris;
    // sums over fixed chunks of faces on every core, then the chunks in order: the same
    // result for any number of threads
    const int64_t chunks = (int64_t{n} + k_face_grain - 1) / k_face_grain;
    std::vector<double> partial(static_cast<size_t>(chunks), 0.0);
    cpu_pool().parallel_tasks(chunks, [&](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
            double total = 0.0;
            for (int64_t f = c * k_face_grain; f < std::min<int64_t>(n, (c + 1) * k_face_grain);
                 ++f)
                for (int k = 0; k < 3; ++k) {
                    const Vec3& a = point_data()[index_data()[f * 3 + k]];
                    const Vec3& b = point_data()[index_data()[f * 3 + (k + 1) % 3]];
                    total += norm(sub(b, a));
                }
            partial[static_cast<size_t>(c)] = total;
        }
    });
    double total = 0.0;
    for (double p : partial) total += p;
    m_desc.average_edge_length = n > 0 ? float(total / (3.0 * n)) : 0.0f;
}

void Mesh::update_derived() {
    edge_length();
    m_desc.bvh = m_bvh->host_descriptor();
    m_desc.winding = nullptr;
    if (m_winding_support) {
        m_winding.clear();
        if (m_bvh->root() >= 0) {
            WindingBuilder builder(*this, *m_bvh, m_winding);
            builder.node(m_bvh->root());
        }
        m_desc.winding = m_winding.empty() ? nullptr : m_winding.data();
    }
    if (m_device.is_cuda()) upload();
}

uint64_t Mesh::id() const {
    if (m_device.is_cuda()) return reinterpret_cast<uint64_t>(m_device_desc.data());
    return reinterpret_cast<uint64_t>(&m_desc);
}

void Mesh::bind_device(Device device, const Vec3* points, const int32_t* indices,
                       const Vec3* velocities) {
    if (!device.is_cuda()) throw Error(ErrorKind::Value, "Mesh.bind_device: not a CUDA device");
    m_device = device;
    m_device_points = view(points, m_desc.num_points, sizeof(Vec3));
    m_device_indices = view(indices, m_desc.num_tris * 3, sizeof(int32_t));
    m_device_velocities = view(velocities, velocities ? m_desc.num_points : 0, sizeof(Vec3));
    m_bvh->set_device(device);
    upload();
}

void Mesh::upload() {
    if (m_host_stale) average_edge_length();  // the device's value, which this rewrites
    auto bytes_of = [](const void* data, size_t n) {
        return Array::wrap(const_cast<void*>(data), DType(ScalarType::UInt8),
                           {static_cast<int64_t>(n)}, {1}, Device::cpu(), nullptr);
    };
    MeshDescriptor d = m_desc;
    d.points = m_device_points;
    d.indices = m_device_indices;
    d.velocities = m_device_velocities;
    d.bvh = m_bvh->device_descriptor();
    m_device_winding = Array();
    if (!m_winding.empty()) {
        m_device_winding =
            bytes_of(m_winding.data(), m_winding.size() * sizeof(MeshWindingNode)).clone(m_device);
        d.winding = m_device_winding.data_as<const MeshWindingNode>();
    }
    if (m_device_desc.is_null() || m_device_desc.device() != m_device)
        m_device_desc =
            Array::empty(DType(ScalarType::UInt8), {static_cast<int64_t>(sizeof(d))}, m_device);
    m_device_desc.assign(bytes_of(&d, sizeof(d)));
}

void Mesh::refit() {
    if (m_device.is_cuda()) {
        refit_on_device();
        return;
    }
    std::vector<Vec3> lowers, uppers;
    face_boxes(lowers, uppers);
    m_bvh->refit(std::move(lowers), std::move(uppers));
    update_derived();
}

void Mesh::refit_on_device() {
    const int64_t np = m_desc.num_points, ni = 3 * static_cast<int64_t>(m_desc.num_tris);
    const Array points = Array::wrap(m_device_points.data, DType(ScalarType::Float32), {3 * np},
                                     {4}, m_device, nullptr);
    const Array indices =
        Array::wrap(m_device_indices.data, DType(ScalarType::Int32), {ni}, {4}, m_device, nullptr);
    if (m_winding_support) {
        // the winding moments are computed on the host: from a copy of the device's points
        m_points.resize(static_cast<size_t>(np));
        Array host = Array::wrap(m_points.data(), DType(ScalarType::Float32), {3 * np}, {4},
                                 Device::cpu(), nullptr);
        host.assign(points);
        m_owns_points = true;
        m_desc.points.data = m_points.data();
        std::vector<Vec3> lowers, uppers;
        face_boxes(lowers, uppers);
        m_bvh->refit(std::move(lowers), std::move(uppers));
        update_derived();
        return;
    }
    m_bvh->refit_faces(points, indices);
    auto* desc = static_cast<uint8_t*>(m_device_desc.data());
    bvh_refit::mean_edge_length(
        points, indices, m_desc.num_tris,
        reinterpret_cast<float*>(desc + offsetof(MeshDescriptor, average_edge_length)));
    m_host_stale = true;
}

float Mesh::average_edge_length() const {
    if (m_host_stale) {
        const auto* desc = static_cast<uint8_t*>(m_device_desc.data());
        Array host = Array::wrap(&m_desc.average_edge_length, DType(ScalarType::Float32), {1}, {4},
                                 Device::cpu(), nullptr);
        host.assign(
            Array::wrap(const_cast<uint8_t*>(desc) + offsetof(MeshDescriptor, average_edge_length),
                        DType(ScalarType::Float32), {1}, {4}, m_device, nullptr));
        m_host_stale = false;
    }
    return m_desc.average_edge_length;
}

void Mesh::refit(std::vector<Vec3> points) {
    if (m_device.is_cuda())
        throw Error(ErrorKind::Value,
                    "Mesh.refit: this mesh is bound to " + m_device.alias() +
                        ": change its device points (or bind_device new ones), then refit()");
    if (static_cast<int32_t>(points.size()) != m_desc.num_points)
        throw Error(ErrorKind::Value, "Mesh.refit: expected " + std::to_string(m_desc.num_points) +
                                          " points, got " + std::to_string(points.size()));
    m_points = std::move(points);
    m_owns_points = true;
    m_desc.points.data = m_points.data();
    refit();
}

void Mesh::set_points(const Vec3* points, int32_t num_points) {
    if (m_device.is_cuda())
        throw Error(ErrorKind::Value, "Mesh.points: this mesh is bound to " + m_device.alias() +
                                          ": bind_device new device points, then refit()");
    if (num_points != m_desc.num_points)
        throw Error(ErrorKind::Value, "Mesh.points: expected " + std::to_string(m_desc.num_points) +
                                          " points, got " + std::to_string(num_points));
    m_desc.points.data = const_cast<Vec3*>(points);
    m_owns_points = points == m_points.data() && !m_points.empty();
    refit();
}

void Mesh::set_velocities(const Vec3* velocities, int32_t num_velocities) {
    if (velocities && num_velocities != m_desc.num_points)
        throw Error(ErrorKind::Value, "Mesh.velocities: expected " +
                                          std::to_string(m_desc.num_points) + " velocities, got " +
                                          std::to_string(num_velocities));
    m_desc.velocities = view(velocities, velocities ? num_velocities : 0, sizeof(Vec3));
}

void Mesh::set_velocities(std::vector<Vec3> velocities) {
    if (!velocities.empty() && static_cast<int32_t>(velocities.size()) != m_desc.num_points)
        throw Error(ErrorKind::Value, "Mesh.velocities: expected " +
                                          std::to_string(m_desc.num_points) + " velocities, got " +
                                          std::to_string(velocities.size()));
    m_velocities = std::move(velocities);
    m_desc.velocities = view(m_velocities.empty() ? nullptr : m_velocities.data(),
                             static_cast<int32_t>(m_velocities.size()), sizeof(Vec3));
}

std::vector<Vec3>& Mesh::points() {
    if (!m_owns_points) throw Error(ErrorKind::Value, "Mesh.points: this mesh borrows its points");
    return m_points;
}

}  // namespace treadle
