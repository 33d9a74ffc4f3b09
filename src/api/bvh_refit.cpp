// src/api/bvh_refit.cpp -- the refit kernels of src/api/bvh_refit.h, written in treadle's
// kernel language and compiled once per device
//
// A node is 8 words (native/treadle/bvh.h): lower xyz, left, upper xyz, right; the kernels
// see the node bytes twice, as float32 words (boxes) and as int32 words (children). A node's
// box is stored before a fence and the parent's counter is incremented after it; the second
// child to arrive fences again and reads its sibling's box through volatile loads, which on
// CUDA bypass the (incoherent) L1 cache, so it sees the stored box.
#include "api/bvh_refit.h"

#include <algorithm>
#include <string>

#include "api/internal_module.h"
#include "treadle/error.h"
#include "treadle/module.h"

namespace treadle::bvh_refit {

namespace {

const char* const k_source = R"(import treadle as wp


@wp.func_native("""
#if WP_DEVICE_CODE
    __threadfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
""")
def fence():
    ...


@wp.func_native("""
#if WP_DEVICE_CODE
    return *(reinterpret_cast<const volatile float*>(words.data) + i);
#else
    float value;
    __atomic_load(reinterpret_cast<const float*>(words.data) + i, &value, __ATOMIC_ACQUIRE);
    return value;
#endif
""")
def load_word(words: wp.array(dtype=wp.float32), i: wp.int64) -> wp.float32:
    ...


@wp.func
def load_vec3(words: wp.array(dtype=wp.float32), i: wp.int64):
    return wp.vec3(load_word(words, i), load_word(words, i + wp.int64(1)),
                   load_word(words, i + wp.int64(2)))


@wp.func
def read_vec3(words: wp.array(dtype=wp.float32), i: wp.int64):
    return wp.vec3(words[i], words[i + wp.int64(1)], words[i + wp.int64(2)])


@wp.func
def write_vec3(words: wp.array(dtype=wp.float32), i: wp.int64, v: wp.vec3):
    words[i] = v[0]
    words[i + wp.int64(1)] = v[1]
    words[i + wp.int64(2)] = v[2]


@wp.func
def climb(node: wp.int32, lo: wp.vec3, hi: wp.vec3, boxes: wp.array(dtype=wp.float32),
          links: wp.array(dtype=wp.int32), parents: wp.array(dtype=wp.int32),
          counters: wp.array(dtype=wp.int32)):
    # stores the box of `node`, then the boxes of the ancestors whose last child it completes
    at = node
    low = lo
    high = hi
    while True:
        base = wp.int64(at) * wp.int64(8)
        write_vec3(boxes, base, low)
        write_vec3(boxes, base + wp.int64(4), high)
        parent = parents[at]
        if parent < 0:
            return
        fence()
        if wp.atomic_add(counters, parent, 1) == 0:
            return
        fence()
        counters[parent] = 0
        pb = wp.int64(parent) * wp.int64(8)
        sibling = links[pb + wp.int64(3)]
        if sibling == at:
            sibling = links[pb + wp.int64(7)]
        sb = wp.int64(sibling) * wp.int64(8)
        low = wp.min(low, load_vec3(boxes, sb))
        high = wp.max(high, load_vec3(boxes, sb + wp.int64(4)))
        at = parent


@wp.kernel(enable_backward=False)
def refit_boxes(leaves: wp.array(dtype=wp.int32), items: wp.array(dtype=wp.int32),
                src_lo: wp.array(dtype=wp.float32), src_hi: wp.array(dtype=wp.float32),
                dst_lo: wp.array(dtype=wp.float32), dst_hi: wp.array(dtype=wp.float32),
                boxes: wp.array(dtype=wp.float32), links: wp.array(dtype=wp.int32),
                parents: wp.array(dtype=wp.int32), counters: wp.array(dtype=wp.int32),
                leaf_count: wp.array(dtype=wp.int32)):
    t = wp.tid()
    if t >= leaf_count[0]:
        return
    node = leaves[t]
    base = wp.int64(node) * wp.int64(8)
    first = -1 - links[base + wp.int64(3)]
    end = links[base + wp.int64(7)]
    lo = wp.vec3(0.0)
    hi = wp.vec3(0.0)
    for s in range(first, end):
        at = wp.int64(items[s]) * wp.int64(3)
        l = read_vec3(src_lo, at)
        u = read_vec3(src_hi, at)
        write_vec3(dst_lo, at, l)
        write_vec3(dst_hi, at, u)
        if s == first:
            lo = l
            hi = u
        else:
            lo = wp.min(lo, l)
            hi = wp.max(hi, u)
    climb(node, lo, hi, boxes, links, parents, counters)


@wp.kernel(enable_backward=False)
def refit_faces(leaves: wp.array(dtype=wp.int32), items: wp.array(dtype=wp.int32),
                points: wp.array(dtype=wp.float32), indices: wp.array(dtype=wp.int32),
                dst_lo: wp.array(dtype=wp.float32), dst_hi: wp.array(dtype=wp.float32),
                boxes: wp.array(dtype=wp.float32), links: wp.array(dtype=wp.int32),
                parents: wp.array(dtype=wp.int32), counters: wp.array(dtype=wp.int32),
                leaf_count: wp.array(dtype=wp.int32)):
    t = wp.tid()
    if t >= leaf_count[0]:
        return
    node = leaves[t]
    base = wp.int64(node) * wp.int64(8)
    first = -1 - links[base + wp.int64(3)]
    end = links[base + wp.int64(7)]
    lo = wp.vec3(0.0)
    hi = wp.vec3(0.0)
    for s in range(first, end):
        face = wp.int64(items[s])
        a = read_vec3(points, wp.int64(indices[face * wp.int64(3)]) * wp.int64(3))
        b = read_vec3(points, wp.int64(indices[face * wp.int64(3) + wp.int64(1)]) * wp.int64(3))
        c = read_vec3(points, wp.int64(indices[face * wp.int64(3) + wp.int64(2)]) * wp.int64(3))
        l = wp.min(wp.min(a, b), c)
        u = wp.max(wp.max(a, b), c)
        write_vec3(dst_lo, face * wp.int64(3), l)
        write_vec3(dst_hi, face * wp.int64(3), u)
        if s == first:
            lo = l
            hi = u
        else:
            lo = wp.min(lo, l)
            hi = wp.max(hi, u)
    climb(node, lo, hi, boxes, links, parents, counters)


@wp.kernel(enable_backward=False)
def first_bad_index(indices: wp.array(dtype=wp.int32), num_points: wp.int32,
                    out: wp.array(dtype=wp.int32)):
    i = wp.tid()
    v = indices[i]
    if v < 0 or v >= num_points:
        wp.atomic_min(out, 0, i)


@wp.kernel(enable_backward=False)
def face_boxes(points: wp.array(dtype=wp.float32), indices: wp.array(dtype=wp.int32),
               lo: wp.array(dtype=wp.float32), hi: wp.array(dtype=wp.float32)):
    face = wp.int64(wp.tid())
    a = read_vec3(points, wp.int64(indices[face * wp.int64(3)]) * wp.int64(3))
    b = read_vec3(points, wp.int64(indices[face * wp.int64(3) + wp.int64(1)]) * wp.int64(3))
    c = read_vec3(points, wp.int64(indices[face * wp.int64(3) + wp.int64(2)]) * wp.int64(3))
    write_vec3(lo, face * wp.int64(3), wp.min(wp.min(a, b), c))
    write_vec3(hi, face * wp.int64(3), wp.max(wp.max(a, b), c))


@wp.kernel(enable_backward=False)
def edge_sums(points: wp.array(dtype=wp.float32), indices: wp.array(dtype=wp.int32),
              num_tris: wp.int32, chunk: wp.int32, partial: wp.array(dtype=wp.float64)):
    c = wp.tid()
    total = wp.float64(0.0)
    for face in range(c * chunk, wp.min(c * chunk + chunk, num_tris)):
        f3 = wp.int64(face) * wp.int64(3)
        for k in range(3):
            a = read_vec3(points, wp.int64(indices[f3 + wp.int64(k)]) * wp.int64(3))
            b = read_vec3(points, wp.int64(indices[f3 + wp.int64((k + 1) % 3)]) * wp.int64(3))
            total = total + wp.float64(wp.length(b - a))
    partial[c] = total


@wp.kernel(enable_backward=False)
def sum_chunks(values: wp.array(dtype=wp.float64), count: wp.int32, chunk: wp.int32,
               out: wp.array(dtype=wp.float64)):
    c = wp.tid()
    total = wp.float64(0.0)
    for i in range(c * chunk, wp.min(c * chunk + chunk, count)):
        total = total + values[i]
    out[c] = total


@wp.kernel(enable_backward=False)
def edge_mean(total: wp.array(dtype=wp.float64), num_tris: wp.int32,
              out: wp.array(dtype=wp.float32)):
    out[0] = wp.float32(total[0] / (wp.float64(3.0) * wp.float64(num_tris)))
)";

constexpr int32_t k_edge_chunk = 16;  ///< faces a thread sums
constexpr int32_t k_sum_chunk = 64;   ///< partial sums a thread adds

Kernel refit_kernel(const char* name, Device device) {
    return internal_kernel("<bvh_refit>", k_source, name, device);
}

/// The float32 words of `a` (contiguous, 3 per item for `count` items), checked.
Array words(const Array& a, int64_t count, const char* what, Device device) {
    if (a.device() != device)
        throw Error(ErrorKind::Value, std::string("Bvh refit: ") + what +
                                          " must be in the memory of " + device.alias() + ", got " +
                                          a.device().alias());
    if (!a.is_contiguous() || a.dtype().scalar != ScalarType::Float32 || a.dtype().is_struct() ||
        static_cast<int64_t>(a.size()) * static_cast<int64_t>(a.dtype().size() / 4) != 3 * count)
        throw Error(ErrorKind::Value, std::string("Bvh refit: ") + what +
                                          " must be contiguous float32 with 3 per item (" +
                                          std::to_string(count) + " items)");
    return Array::wrap(a.data(), DType(ScalarType::Float32), {3 * count}, {4}, device, a.buffer());
}

/// Node bytes as float32 and as int32 words.
Array node_words(const Tree& t, ScalarType type) {
    return Array::wrap(t.nodes.data(), DType(type), {static_cast<int64_t>(t.nodes.size()) / 4}, {4},
                       t.nodes.device(), t.nodes.buffer());
}

/// A copy of `values` in the memory of `device` (a null Array when empty).
template <typename T>
Array upload(const std::vector<T>& values, Device device) {
    if (values.empty()) return Array();
    const int64_t bytes = static_cast<int64_t>(values.size() * sizeof(T));
    Array host = Array::wrap(const_cast<T*>(values.data()), DType(ScalarType::UInt8), {bytes}, {1},
                             Device::cpu(), nullptr);
    return host.clone(device);
}

/// Bytes as 4-byte words of `type` (a null Array stays null).
Array as_words(const Array& bytes, ScalarType type = ScalarType::Float32) {
    if (bytes.is_null()) return bytes;
    return Array::wrap(bytes.data(), DType(type), {bytes.size() / 4}, {4}, bytes.device(),
                       bytes.buffer());
}

}  // namespace

const char* kernel_source() { return k_source; }

Tree make_tree(const std::vector<BvhNode>& nodes, const std::vector<int32_t>& items,
               const std::vector<std::array<float, 3>>& lowers,
               const std::vector<std::array<float, 3>>& uppers, int32_t root, Device device) {
    // the nodes reachable from the root (a device build leaves unreachable ones behind)
    std::vector<int32_t> parents(nodes.size(), -1), leaves, stack;
    if (root >= 0) stack.push_back(root);
    while (!stack.empty()) {
        const int32_t i = stack.back();
        stack.pop_back();
        const BvhNode& n = nodes[i];
        if (n.left < 0) {
            leaves.push_back(i);
        } else {
            parents[n.left] = i;
            parents[n.right] = i;
            stack.push_back(n.right);
            stack.push_back(n.left);
        }
    }
    std::sort(leaves.begin(), leaves.end());
    Tree t;
    t.nodes = upload(nodes, device);
    t.items = as_words(upload(items, device), ScalarType::Int32);
    t.lowers = as_words(upload(lowers, device));
    t.uppers = as_words(upload(uppers, device));
    t.parents = as_words(upload(parents, device), ScalarType::Int32);
    t.leaves = as_words(upload(leaves, device), ScalarType::Int32);
    t.counters = Array::zeros(DType(ScalarType::Int32),
                              {std::max<int64_t>(1, static_cast<int64_t>(nodes.size()))}, device);
    t.num_leaves = static_cast<int32_t>(leaves.size());
    t.leaf_count = upload(std::vector<int32_t>{t.num_leaves}, device);
    t.leaf_count = as_words(t.leaf_count, ScalarType::Int32);
    return t;
}

void from_boxes(const Tree& tree, const Array& lowers, const Array& uppers) {
    if (tree.num_leaves == 0) return;
    const Device device = tree.nodes.device();
    const int64_t count = static_cast<int64_t>(tree.lowers.size()) / 3;
    const Array lo = words(lowers, count, "lowers", device),
                hi = words(uppers, count, "uppers", device);
    const Array boxes = node_words(tree, ScalarType::Float32),
                links = node_words(tree, ScalarType::Int32);
    refit_kernel("refit_boxes", device)
        .launch({tree.num_leaves}, tree.leaves, tree.items, lo, hi, tree.lowers, tree.uppers, boxes,
                links, tree.parents, tree.counters, tree.leaf_count);
}

void from_faces(const Tree& tree, const Array& points, const Array& indices) {
    if (tree.num_leaves == 0) return;
    const Device device = tree.nodes.device();
    const Array boxes = node_words(tree, ScalarType::Float32),
                links = node_words(tree, ScalarType::Int32);
    refit_kernel("refit_faces", device)
        .launch({tree.num_leaves}, tree.leaves, tree.items, points, indices, tree.lowers,
                tree.uppers, boxes, links, tree.parents, tree.counters, tree.leaf_count);
}

int32_t first_bad_index(const Array& indices, int32_t num_points) {
    if (indices.size() == 0) return -1;
    const Device device = indices.device();
    const Array out = from_vector(std::vector<int32_t>{INT32_MAX}, device);
    refit_kernel("first_bad_index", device).launch({indices.size()}, indices, num_points, out);
    const int32_t first = to_vector<int32_t>(out)[0];
    return first == INT32_MAX ? -1 : first;
}

void face_boxes(const Array& points, const Array& indices, int32_t num_tris, const Array& lowers,
                const Array& uppers) {
    if (num_tris <= 0) return;
    refit_kernel("face_boxes", points.device()).launch({num_tris}, points, indices, lowers, uppers);
}

void mean_edge_length(const Array& points, const Array& indices, int32_t num_tris, float* out) {
    if (num_tris <= 0) return;
    const Device device = points.device();
    // face chunks, then chunks of partial sums, until one total is left: the same tree of
    // additions on every run (and threads enough to keep a GPU busy at each level)
    int32_t count = (num_tris + k_edge_chunk - 1) / k_edge_chunk;
    Array partial = Array::empty(DType(ScalarType::Float64), {count}, device);
    refit_kernel("edge_sums", device)
        .launch({count}, points, indices, num_tris, k_edge_chunk, partial);
    while (count > 1) {
        const int32_t next = (count + k_sum_chunk - 1) / k_sum_chunk;
        Array sums = Array::empty(DType(ScalarType::Float64), {next}, device);
        refit_kernel("sum_chunks", device).launch({next}, partial, count, k_sum_chunk, sums);
        partial = sums;
        count = next;
    }
    const Array result = Array::wrap(out, DType(ScalarType::Float32), {1}, {4}, device, nullptr);
    refit_kernel("edge_mean", device).launch({1}, partial, num_tris, result);
}

}  // namespace treadle::bvh_refit
