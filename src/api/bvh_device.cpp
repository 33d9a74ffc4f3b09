// src/api/bvh_device.cpp -- treadle::Bvh on a CUDA device: the uploaded copy and its
// descriptor, builds and refits by kernels there (bvh_lbvh.h, bvh_refit.h), and the host
// copies fetched back when read
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "api/bvh_lbvh.h"
#include "api/bvh_refit.h"
#include "treadle/bvh.h"
#include "treadle/error.h"

namespace treadle {

using Vec = std::array<float, 3>;

namespace {

/// A copy of `values` in the memory of `device` (a null Array when empty).
template <typename T>
Array upload_vector(const std::vector<T>& values, Device device) {
    if (values.empty()) return Array();
    const int64_t bytes = static_cast<int64_t>(values.size() * sizeof(T));
    Array host = Array::wrap(const_cast<T*>(values.data()), DType(ScalarType::UInt8), {bytes}, {1},
                             Device::cpu(), nullptr);
    return host.clone(device);
}

}  // namespace

void Bvh::upload() {
    sync_host();  // a refit on the device it leaves may be newer than the host copy
    bvh_refit::Tree t =
        bvh_refit::make_tree(m_nodes, m_items, m_lowers, m_uppers, m_desc.root, m_device);
    m_num_leaves = t.num_leaves;
    m_device_buffers = {
        t.nodes,   t.items,  t.lowers,   t.uppers,    upload_vector(m_group_roots, m_device),
        t.parents, t.leaves, t.counters, t.leaf_count};
    m_host_stale = false;
    write_device_descriptor();
}

void Bvh::write_device_descriptor() {
    BvhDescriptor d = m_desc;
    d.nodes = m_device_buffers[0].data_as<const BvhNode>();
    d.items = m_device_buffers[1].data_as<const int32_t>();
    d.item_lowers = m_device_buffers[2].data_as<const std::array<float, 3>>();
    d.item_uppers = m_device_buffers[3].data_as<const std::array<float, 3>>();
    d.group_roots = m_device_buffers[4].data_as<const int32_t>();
    const int64_t bytes = static_cast<int64_t>(sizeof(d));
    const bool fresh = m_device_desc.is_null() || m_device_desc.device() != m_device;
    if (!fresh && std::memcmp(&d, &m_device_view, sizeof(d)) == 0) return;  // e.g. in a capture
    m_device_view = d;
    if (fresh) m_device_desc = Array::empty(DType(ScalarType::UInt8), {bytes}, m_device);
    m_device_desc.assign(
        Array::wrap(&d, DType(ScalarType::UInt8), {bytes}, {1}, Device::cpu(), nullptr));
}

namespace {

/// Items in `a`: a contiguous float32 (or float32 vector) array of 3 floats per item.
int64_t item_count(const Array& a, const char* what) {
    const int64_t floats =
        static_cast<int64_t>(a.size()) * static_cast<int64_t>(a.dtype().size() / 4);
    if (!a.is_contiguous() || a.dtype().scalar != ScalarType::Float32 || a.dtype().is_struct() ||
        floats % 3 != 0)
        throw Error(ErrorKind::Value,
                    std::string("Bvh: ") + what + " must be contiguous float32 with 3 per item");
    return floats / 3;
}

/// A host copy of the `count` corners in `a`.
std::vector<Vec> host_copy(const Array& a, int64_t count) {
    std::vector<Vec> out(static_cast<size_t>(count));
    if (count == 0) return out;
    Array host = Array::wrap(out.data(), DType(ScalarType::Float32), {3 * count}, {4},
                             Device::cpu(), nullptr);
    host.assign(Array::wrap(a.data(), DType(ScalarType::Float32), {3 * count}, {4}, a.device(),
                            a.buffer()));
    return out;
}

}  // namespace

Bvh::Bvh(const Array& lowers, const Array& uppers, BvhConstructor constructor,
         std::vector<int32_t> groups, int leaf_size)
    : m_groups(std::move(groups)),
      m_constructor(constructor),
      m_leaf_size(leaf_size),
      m_device(lowers.device()) {
    if (leaf_size < 1) throw Error(ErrorKind::Value, "Bvh: leaf_size must be at least 1");
    rebuild(lowers, uppers);
}

void Bvh::rebuild(const Array& lowers, const Array& uppers, BvhConstructor constructor) {
    m_constructor = constructor;
    rebuild(lowers, uppers);
}

void Bvh::rebuild(const Array& lowers, const Array& uppers) {
    if (lowers.device() != m_device || uppers.device() != m_device)
        throw Error(ErrorKind::Value,
                    "Bvh: the boxes must be in the memory of " + m_device.alias());
    const int64_t n = item_count(lowers, "lowers");
    if (item_count(uppers, "uppers") != n)
        throw Error(ErrorKind::Value, "Bvh: lowers and uppers must have the same length (" +
                                          std::to_string(n) + " and " +
                                          std::to_string(item_count(uppers, "uppers")) + ")");
    if (n > static_cast<int64_t>(INT32_MAX / 2))
        throw Error(ErrorKind::Value, "Bvh: too many items");
    if (m_built && n != m_desc.num_items)
        throw Error(ErrorKind::Value, "Bvh: the number of items cannot change (" +
                                          std::to_string(m_desc.num_items) + ", got " +
                                          std::to_string(n) + ")");
    check_groups(static_cast<size_t>(n));
    if (m_device.is_cuda() && m_constructor == BvhConstructor::Lbvh && n > 0) {
        build_on_device(lowers, uppers, n);
        return;
    }
    m_lowers = host_copy(lowers, n);
    m_uppers = host_copy(uppers, n);
    build();
}

void Bvh::build_on_device(const Array& lowers, const Array& uppers, int64_t count) {
    bvh_refit::Tree t;
    Array roots;
    if (m_device_buffers.size() == 9) {  // arrays of the right size are kept
        t = device_tree();
        roots = m_device_buffers[4];
    }
    if (!m_groups.empty()) {
        if (m_device_groups.is_null()) {
            std::vector<int32_t> distinct = m_groups;
            std::sort(distinct.begin(), distinct.end());
            m_num_distinct_groups = static_cast<int32_t>(
                std::unique(distinct.begin(), distinct.end()) - distinct.begin());
            m_device_groups = from_vector(m_groups, m_device);
        }
        const int64_t words = 2 * int64_t{m_num_distinct_groups};
        if (roots.is_null() || roots.size() != words || roots.dtype() != DType(ScalarType::Int32))
            roots = Array::empty(DType(ScalarType::Int32), {words}, m_device);
        bvh_lbvh::build(lowers, uppers, count, m_leaf_size, t, &m_device_groups, roots);
    } else {
        roots = Array();
        bvh_lbvh::build(lowers, uppers, count, m_leaf_size, t);
    }
    // the host copies stay empty until read (sync_host sizes and fills them)
    m_nodes.clear();
    m_items.clear();
    m_lowers.clear();
    m_uppers.clear();
    m_group_roots.clear();
    m_num_leaves = t.num_leaves;
    m_device_buffers = {t.nodes,   t.items,  t.lowers,   t.uppers,    roots,
                        t.parents, t.leaves, t.counters, t.leaf_count};
    m_desc.group_roots = nullptr;
    m_desc.num_nodes = static_cast<int32_t>(2 * count - 1);
    m_desc.num_items = static_cast<int32_t>(count);
    m_desc.num_groups = m_groups.empty() ? 0 : m_num_distinct_groups;
    m_desc.root = 0;
    m_built = true;
    m_host_stale = true;
    write_device_descriptor();
}

void Bvh::set_device(Device device) {
    if (device == m_device && (!device.is_cuda() || !m_device_desc.is_null())) return;
    sync_host();
    m_device = device;
    if (m_device.is_cuda()) {
        upload();
    } else {
        m_device_buffers.clear();
        m_device_desc = Array();
        m_device_view = BvhDescriptor{};
    }
}

uint64_t Bvh::id() const {
    if (m_device.is_cuda()) return reinterpret_cast<uint64_t>(m_device_desc.data());
    return reinterpret_cast<uint64_t>(&m_desc);
}

namespace {

/// `a` as float32 words (3 per item) when it is a host array of `count` items' corners.
std::vector<Vec> host_corners(const Array& a, size_t count, const char* what) {
    if (!a.is_contiguous() || a.dtype().scalar != ScalarType::Float32 || a.dtype().is_struct() ||
        static_cast<size_t>(a.size()) * (a.dtype().size() / 4) != 3 * count)
        throw Error(ErrorKind::Value, std::string("Bvh refit: ") + what +
                                          " must be contiguous float32 with 3 per item (" +
                                          std::to_string(count) + " items)");
    const Vec* p = a.data_as<const Vec>();
    return std::vector<Vec>(p, p + count);
}

}  // namespace

void Bvh::refit(const Array& lowers, const Array& uppers) {
    if (!m_device.is_cuda()) {
        if (lowers.device() != m_device || uppers.device() != m_device)
            throw Error(ErrorKind::Value,
                        "Bvh refit: the boxes must be in the memory of " + m_device.alias());
        refit(host_corners(lowers, m_desc.num_items, "lowers"),
              host_corners(uppers, m_desc.num_items, "uppers"));
        return;
    }
    bvh_refit::from_boxes(device_tree(), lowers, uppers);
    m_host_stale = true;
}

void Bvh::refit_faces(const Array& points, const Array& indices) {
    bvh_refit::from_faces(device_tree(), points, indices);
    m_host_stale = true;
}

bvh_refit::Tree Bvh::device_tree() const {
    const std::vector<Array>& b = m_device_buffers;  // null arrays when there are no items
    return bvh_refit::Tree{b[0], b[1], b[2], b[3], b[5], b[6], b[7], b[8], m_num_leaves};
}

namespace {

/// Copies device bytes `from` into the host vector `to` (of the same size).
template <typename T>
void download(const Array& from, std::vector<T>& to) {
    if (to.empty()) return;
    Array host =
        Array::wrap(to.data(), DType(ScalarType::UInt8),
                    {static_cast<int64_t>(to.size() * sizeof(T))}, {1}, Device::cpu(), nullptr);
    host.assign(Array::wrap(from.data(), DType(ScalarType::UInt8), {host.size()}, {1},
                            from.device(), from.buffer()));
}

}  // namespace

void Bvh::sync_host() const {
    if (!m_host_stale) return;
    const size_t n = static_cast<size_t>(m_desc.num_items);
    m_nodes.resize(static_cast<size_t>(m_desc.num_nodes));
    m_items.resize(n);
    m_lowers.resize(n);
    m_uppers.resize(n);
    m_desc.nodes = m_nodes.data();
    m_desc.items = m_items.data();
    m_desc.item_lowers = m_lowers.data();
    m_desc.item_uppers = m_uppers.data();
    m_group_roots.resize(2 * static_cast<size_t>(m_desc.num_groups));
    m_desc.group_roots = m_group_roots.empty() ? nullptr : m_group_roots.data();
    download(m_device_buffers[0], m_nodes);
    download(m_device_buffers[1], m_items);
    if (!m_group_roots.empty()) download(m_device_buffers[4], m_group_roots);
    download(m_device_buffers[2], m_lowers);
    download(m_device_buffers[3], m_uppers);
    m_host_stale = false;
}

const std::vector<BvhNode>& Bvh::nodes() const {
    sync_host();
    return m_nodes;
}

}  // namespace treadle
