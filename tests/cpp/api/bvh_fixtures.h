// tests/cpp/api/bvh_fixtures.h -- random item boxes for the BVH tests, and their float32 words
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "treadle/array.h"

namespace bvh_fixtures {

using Vec = std::array<float, 3>;

struct Boxes {
    std::vector<Vec> lo, hi;
};

/// `n` boxes with lower corners uniform in [-spread, spread]^3 and sides up to 1.5; with
/// `clustered`, every other box starts at (1, 2, 3) (many equal Morton codes).
inline Boxes random_boxes(int n, unsigned seed, float spread = 10.0f, bool clustered = false) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> pos(-spread, spread), size(0.0f, 1.5f);
    Boxes b;
    for (int i = 0; i < n; ++i) {
        Vec l{pos(rng), pos(rng), pos(rng)};
        if (clustered && i % 2) l = {1.0f, 2.0f, 3.0f};
        b.lo.push_back(l);
        b.hi.push_back({l[0] + size(rng), l[1] + size(rng), l[2] + size(rng)});
    }
    return b;
}

/// `v` as a CPU float32 array of 3 words per corner (borrowed).
inline treadle::Array words(std::vector<Vec>& v) {
    return treadle::Array::wrap(v.data(), treadle::DType(treadle::ScalarType::Float32),
                                {3 * static_cast<int64_t>(v.size())}, {4}, treadle::Device::cpu(),
                                nullptr);
}

}  // namespace bvh_fixtures
