// src/api/bvh.cpp -- host construction and refitting of treadle::Bvh (SAH, median, LBVH splits)
//
// Nodes are laid out as native/treadle/bvh.h reads them. A build splits item ranges top-down
// until a range fits a leaf; below depth k_exact_depth every split halves its range, so no tree
// is deeper than the fixed traversal stack allows (32 + 31 levels for 2^31 items).
#include "treadle/bvh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>

#include "runtime/thread_pool.h"
#include "treadle/error.h"

namespace treadle {

namespace {

using Vec = std::array<float, 3>;
constexpr int k_exact_depth = 32;
constexpr int k_bins = 16;
constexpr int32_t k_parallel_items = 65536;  ///< builds of fewer items stay on one thread
constexpr int k_task_levels = 6;             ///< top levels split before the tasks (64 at most)
constexpr int32_t k_task_items = 8192;       ///< ranges below this are one task

struct Box {
    Vec lo{INFINITY, INFINITY, INFINITY};
    Vec hi{-INFINITY, -INFINITY, -INFINITY};
    void grow(const Vec& l, const Vec& u) {
        for (int i = 0; i < 3; ++i) {
            lo[i] = std::min(lo[i], l[i]);
            hi[i] = std::max(hi[i], u[i]);
        }
    }
    float area() const {
        const float x = hi[0] - lo[0], y = hi[1] - lo[1], z = hi[2] - lo[2];
        return x < 0.0f ? 0.0f : 2.0f * (x * y + y * z + z * x);
    }
};

uint32_t spread_bits(uint32_t v) {
    v = (v * 0x00010001u) & 0xFF0000FFu;
    v = (v * 0x00000101u) & 0x0F00F00Fu;
    v = (v * 0x00000011u) & 0xC30C30C3u;
    v = (v * 0x00000005u) & 0x49249249u;
    return v;
}

/// Builds the subtree of one item range; ranges of m_items are reordered in place.
class Builder {
public:
    Builder(const std::vector<Vec>& lo, const std::vector<Vec>& hi, std::vector<int32_t>& items,
            std::vector<BvhNode>& nodes, BvhConstructor c, int leaf)
        : m_lo(lo),
          m_hi(hi),
          m_items(items),
          m_nodes(nodes),
          m_c(c),
          m_leaf(leaf),
          m_shared(std::make_shared<Shared>()),
          m_centre(m_shared->centre),
          m_code(m_shared->code) {
        m_centre.resize(lo.size());
        for (size_t i = 0; i < lo.size(); ++i)
            for (int k = 0; k < 3; ++k) m_centre[i][k] = 0.5f * (lo[i][k] + hi[i][k]);
    }

    /// A builder of one subtree into its own `nodes`, sharing `parent`'s items and centres.
    Builder(const Builder& parent, std::vector<BvhNode>& nodes)
        : m_lo(parent.m_lo),
          m_hi(parent.m_hi),
          m_items(parent.m_items),
          m_nodes(nodes),
          m_c(parent.m_c),
          m_leaf(parent.m_leaf),
          m_shared(parent.m_shared),
          m_centre(m_shared->centre),
          m_code(m_shared->code) {}

    int32_t build(int32_t begin, int32_t end, int depth) {
        if (m_c == BvhConstructor::Lbvh) sort_morton(begin, end);
        if (end - begin >= k_parallel_items && end - begin > m_leaf && cpu_pool().size() > 1)
            return build_in_parallel(begin, end, depth);
        return node(begin, end, depth);
    }

private:
    struct Shared {
        std::vector<Vec> centre;
        std::vector<uint32_t> code;
    };
    /// A subtree left to a worker: its range, and the child slot of its parent to patch.
    struct Task {
        int32_t begin, end, depth, parent;
        bool left;
        std::vector<BvhNode> nodes;
    };

    /// The top levels split here, the subtrees below them on every core (each into nodes of
    /// its own, appended in task order, so the tree never depends on the threads' timing).
    int32_t build_in_parallel(int32_t begin, int32_t end, int depth) {
        std::vector<Task> tasks;
        const int32_t root = top(begin, end, depth, 0, -1, false, tasks);
        cpu_pool().parallel_tasks(static_cast<int64_t>(tasks.size()), [&](int64_t b, int64_t e) {
            for (int64_t t = b; t < e; ++t) {
                Builder sub(*this, tasks[t].nodes);
                sub.node(tasks[t].begin, tasks[t].end, tasks[t].depth);
            }
        });
        for (Task& t : tasks) {
            const int32_t offset = static_cast<int32_t>(m_nodes.size());
            for (BvhNode n : t.nodes) {
                if (n.left >= 0) n.left += offset, n.right += offset;
                m_nodes.push_back(n);
            }
            (t.left ? m_nodes[t.parent].left : m_nodes[t.parent].right) = offset;
        }
        return root;
    }

    /// A node of the top levels (its children patched once their tasks are built), or a task.
    int32_t top(int32_t begin, int32_t end, int depth, int level, int32_t parent, bool left,
                std::vector<Task>& tasks) {
        if (parent >= 0 &&
            (level == k_task_levels || end - begin < k_task_items || end - begin <= m_leaf)) {
            tasks.push_back(Task{begin, end, depth, parent, left, {}});
            return -1;
        }
        const int32_t id = static_cast<int32_t>(m_nodes.size());
        m_nodes.push_back(BvhNode{});
        Box box;
        for (int32_t i = begin; i < end; ++i) box.grow(m_lo[m_items[i]], m_hi[m_items[i]]);
        const int32_t mid = depth >= k_exact_depth ? begin + (end - begin) / 2 : split(begin, end);
        const int32_t l = top(begin, mid, depth + 1, level + 1, id, true, tasks);
        const int32_t r = top(mid, end, depth + 1, level + 1, id, false, tasks);
        m_nodes[id] = BvhNode{box.lo, l, box.hi, r};
        return id;
    }

    int32_t node(int32_t begin, int32_t end, int depth) {
        const int32_t id = static_cast<int32_t>(m_nodes.size());
        m_nodes.push_back(BvhNode{});
        Box box;
        for (int32_t i = begin; i < end; ++i) box.grow(m_lo[m_items[i]], m_hi[m_items[i]]);
        if (end - begin <= m_leaf) {
            m_nodes[id] = BvhNode{box.lo, ~begin, box.hi, end};
            return id;
        }
        const int32_t mid = depth >= k_exact_depth ? begin + (end - begin) / 2 : split(begin, end);
        const int32_t left = node(begin, mid, depth + 1);
        const int32_t right = node(mid, end, depth + 1);
        m_nodes[id] = BvhNode{box.lo, left, box.hi, right};
        return id;
    }

    Box centres(int32_t begin, int32_t end) const {
        Box b;
        for (int32_t i = begin; i < end; ++i) b.grow(m_centre[m_items[i]], m_centre[m_items[i]]);
        return b;
    }

    int32_t split(int32_t begin, int32_t end) {
        if (m_c == BvhConstructor::Lbvh) return split_morton(begin, end);
        const Box cb = centres(begin, end);
        int axis = 0;
        for (int k = 1; k < 3; ++k)
            if (cb.hi[k] - cb.lo[k] > cb.hi[axis] - cb.lo[axis]) axis = k;
        if (m_c == BvhConstructor::Sah && cb.hi[axis] > cb.lo[axis]) {
            const int32_t mid = split_sah(begin, end, cb);
            if (mid > begin && mid < end) return mid;
        }
        const int32_t mid = begin + (end - begin) / 2;
        std::nth_element(
            m_items.begin() + begin, m_items.begin() + mid, m_items.begin() + end,
            [&](int32_t a, int32_t b) { return m_centre[a][axis] < m_centre[b][axis]; });
        return mid;
    }

    /// The binned SAH split over all three axes (begin when no split beats a leaf-like cut).
    int32_t split_sah(int32_t begin, int32_t end, const Box& cb) {
        float best = INFINITY;
        int best_axis = -1, best_bin = 0;
        for (int axis = 0; axis < 3; ++axis) {
            const float extent = cb.hi[axis] - cb.lo[axis];
            if (!(extent > 0.0f)) continue;
            Box bins[k_bins];
            int count[k_bins] = {};
            for (int32_t i = begin; i < end; ++i) {
                const int b = bin_of(m_items[i], axis, cb);
                bins[b].grow(m_lo[m_items[i]], m_hi[m_items[i]]);
                ++count[b];
            }
            float right_cost[k_bins];
            Box acc;
            int n = 0;
            for (int b = k_bins - 1; b > 0; --b) {
                acc.grow(bins[b].lo, bins[b].hi);
                n += count[b];
                right_cost[b] = acc.area() * static_cast<float>(n);
            }
            acc = Box{};
            n = 0;
            for (int b = 0; b < k_bins - 1; ++b) {
                acc.grow(bins[b].lo, bins[b].hi);
                n += count[b];
                const float cost = acc.area() * static_cast<float>(n) + right_cost[b + 1];
                if (n > 0 && n < end - begin && cost < best) {
                    best = cost;
                    best_axis = axis;
                    best_bin = b;
                }
            }
        }
        if (best_axis < 0) return begin;
        auto it = std::partition(m_items.begin() + begin, m_items.begin() + end,
                                 [&](int32_t i) { return bin_of(i, best_axis, cb) <= best_bin; });
        return static_cast<int32_t>(it - m_items.begin());
    }

    int bin_of(int32_t item, int axis, const Box& cb) const {
        const float f = (m_centre[item][axis] - cb.lo[axis]) / (cb.hi[axis] - cb.lo[axis]);
        return std::clamp(static_cast<int>(f * k_bins), 0, k_bins - 1);
    }

    void sort_morton(int32_t begin, int32_t end) {
        const Box cb = centres(begin, end);
        m_code.assign(m_lo.size(), 0);
        for (int32_t i = begin; i < end; ++i) {
            const int32_t it = m_items[i];
            uint32_t code = 0;
            for (int k = 0; k < 3; ++k) {
                const float e = cb.hi[k] - cb.lo[k];
                const float f = e > 0.0f ? (m_centre[it][k] - cb.lo[k]) / e : 0.0f;
                const uint32_t q = static_cast<uint32_t>(std::clamp(f * 1023.0f, 0.0f, 1023.0f));
                code |= spread_bits(q) << (2 - k);
            }
            m_code[it] = code;
        }
        std::stable_sort(m_items.begin() + begin, m_items.begin() + end,
                         [&](int32_t a, int32_t b) { return m_code[a] < m_code[b]; });
    }

    /// The first item whose Morton code differs from the range's first in the highest bit
    /// where the range's codes differ (the middle when all are equal).
    int32_t split_morton(int32_t begin, int32_t end) const {
        const uint32_t first = m_code[m_items[begin]], last = m_code[m_items[end - 1]];
        if (first == last) return begin + (end - begin) / 2;
        const uint32_t bit = 1u << (31 - __builtin_clz(first ^ last));
        const uint32_t prefix = first & ~(bit * 2 - 1);
        auto it =
            std::partition_point(m_items.begin() + begin, m_items.begin() + end,
                                 [&](int32_t i) { return (m_code[i] & ~(bit - 1)) == prefix; });
        return static_cast<int32_t>(it - m_items.begin());
    }

    const std::vector<Vec>& m_lo;
    const std::vector<Vec>& m_hi;
    std::vector<int32_t>& m_items;
    std::vector<BvhNode>& m_nodes;
    BvhConstructor m_c;
    int m_leaf;
    std::shared_ptr<Shared> m_shared;
    std::vector<Vec>& m_centre;
    std::vector<uint32_t>& m_code;
};

/// Recomputes the boxes of node `id`'s subtree from the items' boxes.
/// Recomputes the boxes of node `id`'s subtree; `stop` (-1: none) is the depth at which
/// subtrees are left as they are (already refit), `depth` the node's own.
void refit_node(std::vector<BvhNode>& nodes, const std::vector<int32_t>& items,
                const std::vector<Vec>& lo, const std::vector<Vec>& hi, int32_t id, int depth = 0,
                int stop = -1) {
    BvhNode& n = nodes[id];
    if (depth == stop) return;
    Box box;
    if (n.left < 0) {
        for (int32_t i = ~n.left; i < n.right; ++i) box.grow(lo[items[i]], hi[items[i]]);
    } else {
        refit_node(nodes, items, lo, hi, n.left, depth + 1, stop);
        refit_node(nodes, items, lo, hi, n.right, depth + 1, stop);
        box.grow(nodes[n.left].lower, nodes[n.left].upper);
        box.grow(nodes[n.right].lower, nodes[n.right].upper);
    }
    n.lower = box.lo;
    n.upper = box.hi;
}

/// The nodes `levels` below `id` (and the leaves above that depth's reach, which refit_node
/// refits itself), depth first.
void nodes_at(const std::vector<BvhNode>& nodes, int32_t id, int levels,
              std::vector<int32_t>& out) {
    if (levels == 0) {
        out.push_back(id);
        return;
    }
    if (nodes[id].left < 0) return;
    nodes_at(nodes, nodes[id].left, levels - 1, out);
    nodes_at(nodes, nodes[id].right, levels - 1, out);
}

/// refit_node of the whole tree below `root`: on a large tree the subtrees k_task_levels
/// down are refit on every core first, then the levels above them.
void refit_tree(std::vector<BvhNode>& nodes, const std::vector<int32_t>& items,
                const std::vector<Vec>& lo, const std::vector<Vec>& hi, int32_t root) {
    if (items.size() < static_cast<size_t>(k_parallel_items) || cpu_pool().size() < 2) {
        refit_node(nodes, items, lo, hi, root);
        return;
    }
    std::vector<int32_t> subtrees;
    nodes_at(nodes, root, k_task_levels, subtrees);
    cpu_pool().parallel_tasks(static_cast<int64_t>(subtrees.size()), [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) refit_node(nodes, items, lo, hi, subtrees[t]);
    });
    refit_node(nodes, items, lo, hi, root, 0, k_task_levels);
}

int subtree_depth(const std::vector<BvhNode>& nodes, int32_t id) {
    if (id < 0) return 0;
    const BvhNode& n = nodes[id];
    if (n.left < 0) return 1;
    return 1 + std::max(subtree_depth(nodes, n.left), subtree_depth(nodes, n.right));
}

}  // namespace

BvhConstructor bvh_constructor_from_name(const std::string& name) {
    if (name == "sah") return BvhConstructor::Sah;
    if (name == "median") return BvhConstructor::Median;
    if (name == "lbvh") return BvhConstructor::Lbvh;
    throw Error(ErrorKind::Value,
                "Unrecognized BVH constructor '" + name + "': expected 'sah', 'median' or 'lbvh'");
}

Bvh::Bvh(std::vector<Vec> lowers, std::vector<Vec> uppers, BvhConstructor constructor,
         std::vector<int32_t> groups, int leaf_size, Device device)
    : m_groups(std::move(groups)),
      m_constructor(constructor),
      m_leaf_size(leaf_size),
      m_device(device) {
    check_boxes(lowers, uppers);
    if (leaf_size < 1) throw Error(ErrorKind::Value, "Bvh: leaf_size must be at least 1");
    check_groups(lowers.size());
    m_lowers = std::move(lowers);
    m_uppers = std::move(uppers);
    build();
}

void Bvh::check_groups(size_t count) const {
    if (!m_groups.empty() && m_groups.size() != count)
        throw Error(ErrorKind::Value, "Bvh: groups must have one entry per item (" +
                                          std::to_string(count) + "), got " +
                                          std::to_string(m_groups.size()));
    for (int32_t g : m_groups)
        if (g < 0) throw Error(ErrorKind::Value, "Bvh: group ids must be non-negative");
}

void Bvh::check_boxes(const std::vector<Vec>& lowers, const std::vector<Vec>& uppers) const {
    if (lowers.size() != uppers.size())
        throw Error(ErrorKind::Value, "Bvh: lowers and uppers must have the same length (" +
                                          std::to_string(lowers.size()) + " and " +
                                          std::to_string(uppers.size()) + ")");
    if (m_built && lowers.size() != static_cast<size_t>(m_desc.num_items))
        throw Error(ErrorKind::Value, "Bvh: the number of items cannot change (" +
                                          std::to_string(m_desc.num_items) + ", got " +
                                          std::to_string(lowers.size()) + ")");
    if (lowers.size() > static_cast<size_t>(INT32_MAX / 2))
        throw Error(ErrorKind::Value, "Bvh: too many items");
}

void Bvh::build() {
    m_host_stale = false;
    m_built = true;
    const int32_t n = static_cast<int32_t>(m_lowers.size());
    m_items.resize(n);
    std::iota(m_items.begin(), m_items.end(), 0);
    m_nodes.clear();
    m_nodes.reserve(2 * static_cast<size_t>(n));
    m_group_roots.clear();
    Builder b(m_lowers, m_uppers, m_items, m_nodes, m_constructor, m_leaf_size);
    int32_t root = -1;
    if (m_groups.empty()) {
        if (n > 0) root = b.build(0, n, 0);
    } else {
        std::stable_sort(m_items.begin(), m_items.end(),
                         [&](int32_t a, int32_t c) { return m_groups[a] < m_groups[c]; });
        // the group subtrees hang below a top tree over the groups, built by halving
        std::vector<std::pair<int32_t, int32_t>> ranges;
        for (int32_t i = 0; i < n;) {
            int32_t j = i;
            while (j < n && m_groups[m_items[j]] == m_groups[m_items[i]]) ++j;
            ranges.emplace_back(i, j);
            i = j;
        }
        int top_depth = 0;
        while ((size_t{1} << top_depth) < ranges.size()) ++top_depth;
        std::vector<int32_t> roots;
        for (auto [i, j] : ranges) {
            roots.push_back(b.build(i, j, top_depth));
            // (group id, root) pairs in increasing group order: ids may be sparse (INT32_MAX)
            m_group_roots.push_back(m_groups[m_items[i]]);
            m_group_roots.push_back(roots.back());
        }
        while (roots.size() > 1) {
            std::vector<int32_t> up;
            for (size_t k = 0; k + 1 < roots.size(); k += 2) {
                up.push_back(static_cast<int32_t>(m_nodes.size()));
                m_nodes.push_back(BvhNode{{}, roots[k], {}, roots[k + 1]});
            }
            if (roots.size() % 2) up.push_back(roots.back());
            roots = std::move(up);
        }
        root = roots.empty() ? -1 : roots[0];
    }
    m_desc.root = root;
    if (root >= 0) refit_tree(m_nodes, m_items, m_lowers, m_uppers, root);
    publish();
}

void Bvh::publish() {
    m_desc.nodes = m_nodes.data();
    m_desc.items = m_items.data();
    m_desc.item_lowers = m_lowers.data();
    m_desc.item_uppers = m_uppers.data();
    m_desc.group_roots = m_group_roots.data();
    m_desc.num_nodes = static_cast<int32_t>(m_nodes.size());
    m_desc.num_items = static_cast<int32_t>(m_items.size());
    m_desc.num_groups = static_cast<int32_t>(m_group_roots.size() / 2);
    if (m_device.is_cuda()) upload();
}

void Bvh::refit(std::vector<Vec> lowers, std::vector<Vec> uppers) {
    check_boxes(lowers, uppers);
    sync_host();  // the tree's shape (a device build's) is needed on the host
    m_lowers = std::move(lowers);
    m_uppers = std::move(uppers);
    if (m_desc.root >= 0) refit_tree(m_nodes, m_items, m_lowers, m_uppers, m_desc.root);
    publish();
}

void Bvh::rebuild(std::vector<Vec> lowers, std::vector<Vec> uppers) {
    check_boxes(lowers, uppers);
    m_lowers = std::move(lowers);
    m_uppers = std::move(uppers);
    build();
}

void Bvh::rebuild(std::vector<Vec> lowers, std::vector<Vec> uppers, BvhConstructor constructor) {
    check_boxes(lowers, uppers);
    m_constructor = constructor;
    rebuild(std::move(lowers), std::move(uppers));
}

int32_t Bvh::group_root(int32_t group) const {
    sync_host();
    size_t lo = 0, hi = m_group_roots.size() / 2;
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (m_group_roots[2 * mid] < group)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m_group_roots.size() / 2 && m_group_roots[2 * lo] == group)
        return m_group_roots[2 * lo + 1];
    return -1;
}

int Bvh::depth() const { return subtree_depth(nodes(), m_desc.root); }

}  // namespace treadle
