// src/api/bvh_lbvh.cpp -- the kernels and launches of src/api/bvh_lbvh.h
#include "api/bvh_lbvh.h"

#include <algorithm>
#include <string>

#include "api/device_sort.h"
#include "api/internal_module.h"
#include "treadle/error.h"

namespace treadle::bvh_lbvh {

namespace {

const char* const k_source = R"(import treadle as wp


@wp.func_native("""
#if WP_DEVICE_CODE
    return __clz(x);
#else
    return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
#endif
""")
def clz(x: wp.int32) -> wp.int32:
    ...


@wp.func
def centre(lo: wp.array(dtype=wp.float32), hi: wp.array(dtype=wp.float32), i: wp.int32):
    b = wp.int64(i) * wp.int64(3)
    l = wp.vec3(lo[b], lo[b + wp.int64(1)], lo[b + wp.int64(2)])
    u = wp.vec3(hi[b], hi[b + wp.int64(1)], hi[b + wp.int64(2)])
    return 0.5 * (l + u)


@wp.kernel(enable_backward=False)
def centre_bounds(lo: wp.array(dtype=wp.float32), hi: wp.array(dtype=wp.float32),
                  count: wp.int32, chunk: wp.int32, out: wp.array(dtype=wp.float32)):
    # the box of a chunk of centres, as 6 floats (lower xyz, upper xyz)
    c = wp.tid()
    start = c * chunk
    low = centre(lo, hi, start)
    high = low
    for i in range(start + 1, wp.min(start + chunk, count)):
        p = centre(lo, hi, i)
        low = wp.min(low, p)
        high = wp.max(high, p)
    for k in range(3):
        out[6 * c + k] = low[k]
        out[6 * c + 3 + k] = high[k]


@wp.kernel(enable_backward=False)
def merge_bounds(boxes: wp.array(dtype=wp.float32), count: wp.int32, chunk: wp.int32,
                 out: wp.array(dtype=wp.float32)):
    # the box of a chunk of boxes (6 floats each)
    c = wp.tid()
    start = c * chunk
    for k in range(3):
        low = boxes[6 * start + k]
        high = boxes[6 * start + 3 + k]
        for i in range(start + 1, wp.min(start + chunk, count)):
            low = wp.min(low, boxes[6 * i + k])
            high = wp.max(high, boxes[6 * i + 3 + k])
        out[6 * c + k] = low
        out[6 * c + 3 + k] = high


@wp.kernel(enable_backward=False)
def morton(lo: wp.array(dtype=wp.float32), hi: wp.array(dtype=wp.float32),
           bounds: wp.array(dtype=wp.float32), keys: wp.array(dtype=wp.int32),
           values: wp.array(dtype=wp.int32)):
    i = wp.tid()
    p = centre(lo, hi, i)
    code = wp.int32(0)
    for k in range(3):
        extent = bounds[k + 3] - bounds[k]
        f = float(0.0)
        if extent > 0.0:
            f = (p[k] - bounds[k]) / extent
        q = wp.int32(wp.clamp(f * 1023.0, 0.0, 1023.0))
        for b in range(10):
            code = code | (((q >> b) & 1) << (3 * b + 2 - k))
    keys[i] = code
    values[i] = i


@wp.func
def prefix(keys: wp.array(dtype=wp.int32), groups: wp.array(dtype=wp.int32), grouped: wp.int32,
           count: wp.int32, i: wp.int32, j: wp.int32):
    # the common prefix of the sorted (group, code, index) keys i and j; -1 outside
    if j < 0 or j >= count:
        return -1
    if grouped != 0:
        ga = groups[i]
        gb = groups[j]
        if ga != gb:
            return clz(ga ^ gb)
    a = keys[i]
    b = keys[j]
    if a == b:
        return 64 + clz(i ^ j)
    return 32 + clz(a ^ b)


@wp.kernel(enable_backward=False)
def hierarchy(keys: wp.array(dtype=wp.int32), groups: wp.array(dtype=wp.int32),
              grouped: wp.int32, count: wp.int32, links: wp.array(dtype=wp.int32),
              parents: wp.array(dtype=wp.int32), first_of: wp.array(dtype=wp.int32),
              last_of: wp.array(dtype=wp.int32)):
    i = wp.tid()
    d = 1
    if prefix(keys, groups, grouped, count, i, i + 1) < prefix(keys, groups, grouped, count, i, i - 1):
        d = -1
    floor_prefix = prefix(keys, groups, grouped, count, i, i - d)
    reach = 2
    while prefix(keys, groups, grouped, count, i, i + reach * d) > floor_prefix:
        reach = reach * 2
    length = 0
    step = reach // 2
    while step >= 1:
        if prefix(keys, groups, grouped, count, i, i + (length + step) * d) > floor_prefix:
            length = length + step
        step = step // 2
    j = i + length * d
    node_prefix = prefix(keys, groups, grouped, count, i, j)
    split = 0
    div = 2
    while True:
        step = (length + div - 1) // div
        if prefix(keys, groups, grouped, count, i, i + (split + step) * d) > node_prefix:
            split = split + step
        if step <= 1:
            break
        div = div * 2
    gamma = i + split * d + wp.min(d, 0)
    first = wp.min(i, j)
    last = wp.max(i, j)
    left = gamma
    if first == gamma:
        left = count - 1 + gamma
    right = gamma + 1
    if last == gamma + 1:
        right = count - 1 + gamma + 1
    base = wp.int64(i) * wp.int64(8)
    links[base + wp.int64(3)] = left
    links[base + wp.int64(7)] = right
    parents[left] = i
    parents[right] = i
    first_of[i] = first
    last_of[i] = last


@wp.func
def node_items(count: wp.int32, first_of: wp.array(dtype=wp.int32),
               last_of: wp.array(dtype=wp.int32), node: wp.int32):
    # the first and last sorted item under `node` (internal nodes 0 .. count - 2, then the
    # leaf of each sorted item)
    if node < count - 1:
        return wp.vec2i(first_of[node], last_of[node])
    return wp.vec2i(node - (count - 1), node - (count - 1))


@wp.func
def collapses(groups: wp.array(dtype=wp.int32), grouped: wp.int32, leaf_size: wp.int32,
              first: wp.int32, last: wp.int32):
    # a range becomes one leaf: few enough items, all of one group
    if last - first + 1 > leaf_size:
        return False
    if grouped != 0:
        return groups[first] == groups[last]
    return True


@wp.kernel(enable_backward=False)
def mark_leaves(count: wp.int32, leaf_size: wp.int32, groups: wp.array(dtype=wp.int32),
                grouped: wp.int32, first_of: wp.array(dtype=wp.int32),
                last_of: wp.array(dtype=wp.int32), parents: wp.array(dtype=wp.int32),
                links: wp.array(dtype=wp.int32), flags: wp.array(dtype=wp.int32),
                slots: wp.array(dtype=wp.int32)):
    node = wp.tid()
    span = node_items(count, first_of, last_of, node)
    first = span[0]
    last = span[1]
    leaf = 0
    if collapses(groups, grouped, leaf_size, first, last):
        if node == 0:
            leaf = 1
        else:
            p = parents[node]
            if not collapses(groups, grouped, leaf_size, first_of[p], last_of[p]):
                leaf = 1
    if node == 0:
        parents[0] = -1
    if leaf == 1:
        base = wp.int64(node) * wp.int64(8)
        links[base + wp.int64(3)] = -1 - first
        links[base + wp.int64(7)] = last + 1
    flags[node] = leaf
    slots[node] = leaf


@wp.kernel(enable_backward=False)
def sorted_groups(items: wp.array(dtype=wp.int32), groups: wp.array(dtype=wp.int32),
                  out: wp.array(dtype=wp.int32), slots: wp.array(dtype=wp.int32)):
    s = wp.tid()
    out[s] = groups[items[s]]
    slots[s] = s


@wp.kernel(enable_backward=False)
def permute(order: wp.array(dtype=wp.int32), items: wp.array(dtype=wp.int32),
            keys: wp.array(dtype=wp.int32), items_out: wp.array(dtype=wp.int32),
            keys_out: wp.array(dtype=wp.int32)):
    s = wp.tid()
    items_out[s] = items[order[s]]
    keys_out[s] = keys[order[s]]


@wp.kernel(enable_backward=False)
def group_starts(groups: wp.array(dtype=wp.int32), starts: wp.array(dtype=wp.int32)):
    s = wp.tid()
    start = 1
    if s > 0:
        if groups[s - 1] == groups[s]:
            start = 0
    starts[s] = start


@wp.kernel(enable_backward=False)
def group_roots(count: wp.int32, groups: wp.array(dtype=wp.int32),
                first_of: wp.array(dtype=wp.int32), last_of: wp.array(dtype=wp.int32),
                parents: wp.array(dtype=wp.int32), ordinal: wp.array(dtype=wp.int32),
                roots: wp.array(dtype=wp.int32)):
    # the topmost node of each group's items: (group, node) at the group's ordinal
    node = wp.tid()
    span = node_items(count, first_of, last_of, node)
    first = span[0]
    last = span[1]
    if groups[first] != groups[last]:
        return
    if node != 0:
        p = parents[node]
        if groups[first_of[p]] == groups[last_of[p]]:
            return
    k = ordinal[first]
    roots[2 * k] = groups[first]
    roots[2 * k + 1] = node


@wp.kernel(enable_backward=False)
def list_leaves(flags: wp.array(dtype=wp.int32), slots: wp.array(dtype=wp.int32),
                nodes: wp.int32, leaves: wp.array(dtype=wp.int32),
                leaf_count: wp.array(dtype=wp.int32)):
    node = wp.tid()
    if flags[node] == 1:
        leaves[slots[node]] = node
    if node == nodes - 1:
        leaf_count[0] = slots[node] + flags[node]
)";

constexpr int32_t k_bounds_chunk = 64;  ///< centres (or boxes) a thread bounds

Kernel lbvh_kernel(const char* name, Device device) {
    return internal_kernel("<bvh_lbvh>", k_source, name, device);
}

Array ints(int64_t n, Device device) {
    return Array::empty(DType(ScalarType::Int32), {std::max<int64_t>(n, 1)}, device);
}

/// `a` when it is an array of `n` values of `type` on `device`, else a new one.
Array reuse(const Array& a, ScalarType type, int64_t n, Device device) {
    if (!a.is_null() && a.device() == device && a.dtype() == DType(type) && a.size() == n) return a;
    return Array::empty(DType(type), {n}, device);
}

/// The float32 words of `a` (contiguous, 3 per item for `count` items), checked.
Array words(const Array& a, int64_t count, const char* what) {
    if (!a.is_contiguous() || a.dtype().scalar != ScalarType::Float32 || a.dtype().is_struct() ||
        static_cast<int64_t>(a.size()) * static_cast<int64_t>(a.dtype().size() / 4) != 3 * count)
        throw Error(ErrorKind::Value, std::string("Bvh build: ") + what +
                                          " must be contiguous float32 with 3 per item (" +
                                          std::to_string(count) + " items)");
    return Array::wrap(a.data(), DType(ScalarType::Float32), {3 * count}, {4}, a.device(),
                       a.buffer());
}

}  // namespace

const char* kernel_source() { return k_source; }

void build(const Array& lowers, const Array& uppers, int64_t count, int leaf_size,
           bvh_refit::Tree& t, const Array* groups, const Array& group_roots) {
    if (count < 1 || count > INT32_MAX / 2)
        throw Error(ErrorKind::Value,
                    "Bvh build: needs 1 to 2^30 - 1 items, got " + std::to_string(count));
    if (leaf_size < 1) throw Error(ErrorKind::Value, "Bvh: leaf_size must be at least 1");
    const Device device = lowers.device();
    if (uppers.device() != device)
        throw Error(ErrorKind::Value, "Bvh build: lowers and uppers must be on one device");
    const Array lo = words(lowers, count, "lowers"), hi = words(uppers, count, "uppers");
    const int32_t n = static_cast<int32_t>(count), nodes = 2 * n - 1;

    // the centres' box: chunks of centres, then chunks of boxes until one is left (no atomics:
    // a fixed tree of min and max)
    int32_t boxes = (n + k_bounds_chunk - 1) / k_bounds_chunk;
    Array bounds = Array::empty(DType(ScalarType::Float32), {int64_t{6} * boxes}, device);
    lbvh_kernel("centre_bounds", device).launch({boxes}, lo, hi, n, k_bounds_chunk, bounds);
    while (boxes > 1) {
        const int32_t next = (boxes + k_bounds_chunk - 1) / k_bounds_chunk;
        Array merged = Array::empty(DType(ScalarType::Float32), {int64_t{6} * next}, device);
        lbvh_kernel("merge_bounds", device).launch({next}, bounds, boxes, k_bounds_chunk, merged);
        bounds = merged;
        boxes = next;
    }
    Array keys = ints(n, device);
    t.items = reuse(t.items, ScalarType::Int32, n, device);
    lbvh_kernel("morton", device).launch({n}, lo, hi, bounds, keys, t.items);
    device_sort::sort_pairs(keys, t.items, n, 30);
    // groups: a second stable sort by group keeps Morton order within each group
    const bool grouped = groups != nullptr;
    Array sorted_groups = ints(1, device);
    if (grouped) {
        sorted_groups = ints(n, device);
        const Array order = ints(n, device), items = ints(n, device), codes = ints(n, device);
        lbvh_kernel("sorted_groups", device).launch({n}, t.items, *groups, sorted_groups, order);
        device_sort::sort_pairs(sorted_groups, order, n, 31);
        lbvh_kernel("permute", device).launch({n}, order, t.items, keys, items, codes);
        t.items.assign(items);
        keys = codes;
    }

    if (t.nodes.is_null() || t.nodes.size() != int64_t{32} * nodes || t.nodes.device() != device)
        t.nodes = Array::zeros(DType(ScalarType::UInt8), {int64_t{32} * nodes}, device);
    const Array links = Array::wrap(t.nodes.data(), DType(ScalarType::Int32), {int64_t{8} * nodes},
                                    {4}, device, t.nodes.buffer());
    t.parents = reuse(t.parents, ScalarType::Int32, nodes, device);
    const Array first_of = ints(n - 1, device), last_of = ints(n - 1, device);
    if (n > 1)
        lbvh_kernel("hierarchy", device)
            .launch({n - 1}, keys, sorted_groups, int32_t(grouped), n, links, t.parents, first_of,
                    last_of);
    const Array flags = ints(nodes, device), slots = ints(nodes, device);
    lbvh_kernel("mark_leaves", device)
        .launch({nodes}, n, leaf_size, sorted_groups, int32_t(grouped), first_of, last_of,
                t.parents, links, flags, slots);
    if (grouped) {
        // each group's root at its ordinal among the groups (increasing ids)
        const Array ordinal = ints(n, device);
        lbvh_kernel("group_starts", device).launch({n}, sorted_groups, ordinal);
        device_sort::exclusive_scan(ordinal, n);
        if (group_roots.size() < 2)
            throw Error(ErrorKind::Value, "Bvh build: no room for the group roots");
        lbvh_kernel("group_roots", device)
            .launch({nodes}, n, sorted_groups, first_of, last_of, t.parents, ordinal, group_roots);
    }
    device_sort::exclusive_scan(slots, nodes);
    t.leaves = reuse(t.leaves, ScalarType::Int32, n, device);
    t.leaf_count = reuse(t.leaf_count, ScalarType::Int32, 1, device);
    lbvh_kernel("list_leaves", device).launch({nodes}, flags, slots, nodes, t.leaves, t.leaf_count);
    t.num_leaves = n;  // threads a refit launches; those past leaf_count return at once
    if (t.counters.is_null() || t.counters.size() != nodes || t.counters.device() != device)
        t.counters = Array::zeros(DType(ScalarType::Int32), {nodes}, device);  // zero after refits
    t.lowers = reuse(t.lowers, ScalarType::Float32, 3 * count, device);
    t.uppers = reuse(t.uppers, ScalarType::Float32, 3 * count, device);
    bvh_refit::from_boxes(t, lo, hi);
}

}  // namespace treadle::bvh_lbvh
