// tests/cpp/api/test_bvh_api.cpp -- treadle::Bvh builds, queried by id through native/treadle/bvh.h
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "../../../native/treadle/bvh.h"
#include "bvh_fixtures.h"
#include "runtime/thread_pool.h"
#include "treadle/bvh.h"
#include "treadle/error.h"

namespace {

using bvh_fixtures::Boxes;
using bvh_fixtures::random_boxes;

using Vec = std::array<float, 3>;

// the host build writes the layout kernels read
static_assert(sizeof(treadle::BvhNode) == sizeof(wp::bvh_node_t));
static_assert(sizeof(treadle::BvhDescriptor) == sizeof(wp::bvh_t));

wp::vec3 v(const Vec& a) { return wp::vec3(a[0], a[1], a[2]); }

std::set<int> query_box(uint64_t id, const Vec& l, const Vec& u, int root = -1) {
    wp::bvh_query_t q = wp::bvh_query_aabb(id, v(l), v(u), root);
    std::set<int> out;
    int i = -1;
    while (wp::bvh_query_next(q, i)) EXPECT_TRUE(out.insert(i).second) << "item twice: " << i;
    return out;
}

std::set<int> brute_box(const Boxes& b, const Vec& l, const Vec& u,
                        const std::vector<int32_t>* groups = nullptr, int group = -1) {
    std::set<int> out;
    for (size_t i = 0; i < b.lo.size(); ++i) {
        bool hit = true;
        for (int k = 0; k < 3; ++k) hit = hit && b.lo[i][k] <= u[k] && b.hi[i][k] >= l[k];
        if (hit && (!groups || (*groups)[i] == group)) out.insert(static_cast<int>(i));
    }
    return out;
}

class BvhConstructors : public ::testing::TestWithParam<treadle::BvhConstructor> {};

TEST_P(BvhConstructors, BoxQueriesMatchBruteForce) {
    const Boxes b = random_boxes(2000, 7);
    for (int leaf : {1, 4}) {
        treadle::Bvh bvh(b.lo, b.hi, GetParam(), {}, leaf);
        EXPECT_LE(bvh.depth(), wp::bvh_max_depth);
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> pos(-11.0f, 11.0f);
        for (int t = 0; t < 50; ++t) {
            Vec l{pos(rng), pos(rng), pos(rng)};
            Vec u{l[0] + 3.0f, l[1] + 2.0f, l[2] + 4.0f};
            EXPECT_EQ(query_box(bvh.id(), l, u), brute_box(b, l, u));
        }
    }
}

TEST_P(BvhConstructors, RayQueriesFindEveryBoxTheRayMeets) {
    const Boxes b = random_boxes(1000, 11);
    treadle::Bvh bvh(b.lo, b.hi, GetParam());
    const wp::bvh_t* desc = reinterpret_cast<const wp::bvh_t*>(bvh.id());
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> pos(-1.0f, 1.0f);
    size_t hits = 0;
    for (int t = 0; t < 40; ++t) {
        const wp::vec3 o(-15.0f, pos(rng) * 8.0f, pos(rng) * 8.0f);
        const wp::vec3 d(1.0f, pos(rng) * 0.3f, t % 5 == 0 ? 0.0f : pos(rng) * 0.3f);
        const float max_dist = t % 2 ? 20.0f : 3.4e38f;
        std::set<int> expect;
        for (int i = 0; i < desc->num_items; ++i) {
            const float e = wp::bvh_detail::ray_box_entry(
                o, wp::vec3(1.0f / d.c[0], 1.0f / d.c[1], 1.0f / d.c[2]), 0.0f, v(b.lo[i]),
                v(b.hi[i]));
            if (e >= 0.0f && e <= max_dist) expect.insert(i);
        }
        wp::bvh_query_t q = wp::bvh_query_ray(bvh.id(), o, d);
        std::set<int> got;
        int i = 0;
        while (wp::bvh_query_next(q, i, max_dist)) got.insert(i);
        EXPECT_EQ(got, expect);
        hits += expect.size();
    }
    EXPECT_GT(hits, 40u);
}

TEST_P(BvhConstructors, RefitFollowsMovedBoxes) {
    Boxes b = random_boxes(500, 13);
    treadle::Bvh bvh(b.lo, b.hi, GetParam());
    for (size_t i = 0; i < b.lo.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            b.lo[i][k] *= -0.5f;
            b.hi[i][k] = b.lo[i][k] + 0.7f;
        }
    bvh.refit(b.lo, b.hi);
    const Vec l{-2.0f, -2.0f, -2.0f}, u{1.0f, 2.0f, 1.5f};
    EXPECT_EQ(query_box(bvh.id(), l, u), brute_box(b, l, u));
    bvh.rebuild(b.lo, b.hi);
    EXPECT_EQ(query_box(bvh.id(), l, u), brute_box(b, l, u));
}

TEST_P(BvhConstructors, GroupRootsHoldTheirGroupsItems) {
    const Boxes b = random_boxes(1200, 17);
    std::vector<int32_t> groups;
    for (size_t i = 0; i < b.lo.size(); ++i) groups.push_back(static_cast<int32_t>(i % 5) * 2);
    treadle::Bvh bvh(b.lo, b.hi, GetParam(), groups, 2);
    const Vec l{-4.0f, -3.0f, -5.0f}, u{4.0f, 5.0f, 3.0f};
    EXPECT_EQ(query_box(bvh.id(), l, u), brute_box(b, l, u));
    for (int g = 0; g < 10; ++g) {
        const int root = wp::bvh_get_group_root(bvh.id(), g);
        EXPECT_EQ(root, bvh.group_root(g));
        if (g % 2) {
            EXPECT_EQ(root, -1);
            continue;
        }
        ASSERT_GE(root, 0);
        EXPECT_EQ(query_box(bvh.id(), l, u, root), brute_box(b, l, u, &groups, g));
    }
    EXPECT_EQ(wp::bvh_get_group_root(bvh.id(), 99), -1);
}

INSTANTIATE_TEST_SUITE_P(All, BvhConstructors,
                         ::testing::Values(treadle::BvhConstructor::Sah,
                                           treadle::BvhConstructor::Median,
                                           treadle::BvhConstructor::Lbvh));

TEST(BvhApi, SphereQueriesMatchBruteForce) {
    const Boxes b = random_boxes(800, 19);
    treadle::Bvh bvh(b.lo, b.hi);
    const wp::vec3 c(1.0f, -2.0f, 0.5f);
    std::set<int> expect, got;
    for (size_t i = 0; i < b.lo.size(); ++i)
        if (wp::bvh_detail::box_distance_sq(c, v(b.lo[i]), v(b.hi[i])) <= 9.0f)
            expect.insert(static_cast<int>(i));
    wp::bvh_query_t q = wp::bvh_query_sphere(bvh.id(), c, 3.0f);
    int i = 0;
    while (wp::bvh_query_next(q, i)) got.insert(i);
    EXPECT_EQ(got, expect);
    EXPECT_FALSE(expect.empty());
}

TEST(BvhApi, EmptyAndDegenerateInputs) {
    treadle::Bvh empty({}, {});
    EXPECT_TRUE(query_box(empty.id(), {-1, -1, -1}, {1, 1, 1}).empty());
    // identical boxes: no split separates them, yet the tree stays shallow
    std::vector<Vec> same(5000, Vec{0, 0, 0});
    treadle::Bvh flat(same, same);
    EXPECT_LE(flat.depth(), wp::bvh_max_depth);
    EXPECT_EQ(query_box(flat.id(), {-1, -1, -1}, {1, 1, 1}).size(), 5000u);
}

TEST(BvhApi, MistakesRaiseValueErrors) {
    auto value_error = [](auto f) {
        try {
            f();
        } catch (const treadle::Error& e) {
            return e.kind() == treadle::ErrorKind::Value;
        }
        return false;
    };
    const Boxes b = random_boxes(4, 1);
    EXPECT_TRUE(value_error([&] { treadle::Bvh x(b.lo, {}); }));
    EXPECT_TRUE(
        value_error([&] { treadle::Bvh x(b.lo, b.hi, treadle::BvhConstructor::Sah, {0}); }));
    EXPECT_TRUE(value_error([&] {
        treadle::Bvh x(b.lo, b.hi, treadle::BvhConstructor::Sah, {0, 1, -1, 0});
    }));
    EXPECT_TRUE(
        value_error([&] { treadle::Bvh x(b.lo, b.hi, treadle::BvhConstructor::Sah, {}, 0); }));
    EXPECT_TRUE(value_error([&] { treadle::bvh_constructor_from_name("octree"); }));
    EXPECT_EQ(treadle::bvh_constructor_from_name("lbvh"), treadle::BvhConstructor::Lbvh);
    treadle::Bvh ok(b.lo, b.hi);
    EXPECT_TRUE(value_error([&] { ok.refit({b.lo[0]}, {b.hi[0]}); }));
}

}  // namespace

namespace {

/// The tree below `id` in depth-first order: (box, leaf range or -1) per node.
void canonical(const std::vector<treadle::BvhNode>& nodes, int32_t id,
               std::vector<std::array<float, 8>>& out) {
    const treadle::BvhNode& n = nodes[id];
    const bool leaf = n.left < 0;
    out.push_back({n.lower[0], n.lower[1], n.lower[2], n.upper[0], n.upper[1], n.upper[2],
                   leaf ? float(~n.left) : -1.0f, leaf ? float(n.right) : -1.0f});
    if (!leaf) {
        canonical(nodes, n.left, out);
        canonical(nodes, n.right, out);
    }
}

class LargeBuilds : public ::testing::TestWithParam<treadle::BvhConstructor> {};

TEST_P(LargeBuilds, BuildingOnEveryCoreGivesTheOneThreadTree) {
    // above the parallel threshold: the top levels split first, the subtrees on the pool
    const Boxes b = random_boxes(120000, 17);
    std::vector<int32_t> groups;
    for (int i = 0; i < 120000; ++i) groups.push_back(i < 90000 ? 0 : 1 + i % 2);
    for (bool grouped : {false, true}) {
        treadle::ThreadPool& pool = treadle::cpu_pool();
        const int threads = pool.size();
        pool.set_num_threads(1);
        treadle::Bvh one(b.lo, b.hi, GetParam(), grouped ? groups : std::vector<int32_t>{}, 2);
        pool.set_num_threads(std::max(threads, 2));
        treadle::Bvh many(b.lo, b.hi, GetParam(), grouped ? groups : std::vector<int32_t>{}, 2);
        treadle::Bvh again(b.lo, b.hi, GetParam(), grouped ? groups : std::vector<int32_t>{}, 2);
        pool.set_num_threads(threads);
        std::vector<std::array<float, 8>> a, c, d;
        canonical(one.nodes(), one.root(), a);
        canonical(many.nodes(), many.root(), c);
        canonical(again.nodes(), again.root(), d);
        EXPECT_EQ(a, c);
        EXPECT_EQ(one.items(), many.items());
        EXPECT_EQ(many.nodes().size(), again.nodes().size());
        EXPECT_TRUE(std::equal(many.nodes().begin(), many.nodes().end(), again.nodes().begin(),
                               [](const treadle::BvhNode& x, const treadle::BvhNode& y) {
                                   return x.left == y.left && x.right == y.right &&
                                          x.lower == y.lower && x.upper == y.upper;
                               }));
        EXPECT_LE(many.depth(), wp::bvh_max_depth);
        const Vec l{-2.0f, -1.0f, -3.0f}, u{1.0f, 2.0f, 0.5f};
        EXPECT_EQ(query_box(many.id(), l, u), brute_box(b, l, u));
        // refits of the same tree on one thread and on every core agree, box for box
        const Boxes moved = random_boxes(120000, 18);
        pool.set_num_threads(1);
        again.refit(moved.lo, moved.hi);
        pool.set_num_threads(std::max(threads, 2));
        many.refit(moved.lo, moved.hi);
        pool.set_num_threads(threads);
        EXPECT_TRUE(std::equal(many.nodes().begin(), many.nodes().end(), again.nodes().begin(),
                               [](const treadle::BvhNode& x, const treadle::BvhNode& y) {
                                   return x.lower == y.lower && x.upper == y.upper;
                               }));
        EXPECT_EQ(query_box(many.id(), l, u), brute_box(moved, l, u));
    }
}

INSTANTIATE_TEST_SUITE_P(Constructors, LargeBuilds,
                         ::testing::Values(treadle::BvhConstructor::Sah,
                                           treadle::BvhConstructor::Median,
                                           treadle::BvhConstructor::Lbvh));

}  // namespace
