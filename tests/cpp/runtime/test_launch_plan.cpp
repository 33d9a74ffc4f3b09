// tests/cpp/runtime/test_launch_plan.cpp -- launch plans and the one packer, through a test source
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/launch.h"
#include "runtime/launch_plan.h"
#include "treadle/error.h"
#include "treadle/module.h"

namespace {

using treadle::ArgValue;

const char* k_module = R"(import treadle as wp

@wp.kernel
def combine(a: wp.array(dtype=float), out: wp.array(dtype=wp.vec3d), v: wp.vec3d, n: int,
            m: wp.mat22d):
    i = wp.tid()
    out[i] = wp.vec3d(v[0] * wp.float64(a[i]) + m[0, 1], v[1] + wp.float64(n), v[2] + m[1, 0])
)";

/// Arguments given as ready-made ArgValues, as a front end would read them.
class ListSource : public treadle::ArgumentSource {
public:
    explicit ListSource(std::vector<ArgValue> values) : m_values(std::move(values)) {}
    size_t size() const override { return m_values.size(); }
    void read(size_t i, const treadle::PlanParam&, ArgValue& out) override { out = m_values[i]; }
    std::string describe(const ArgValue&) const override { return "a mystery"; }

private:
    std::vector<ArgValue> m_values;
};

ArgValue array_value(const treadle::Array& a) {
    ArgValue v;
    v.kind = ArgValue::Kind::Array;
    v.array = &a;
    return v;
}

ArgValue components(const void* data, treadle::ScalarType type, size_t count) {
    ArgValue v;
    v.kind = ArgValue::Kind::Components;
    v.scalar = type;
    v.data = data;
    v.count = count;
    return v;
}

ArgValue int_value(int64_t i) {
    ArgValue v;
    v.kind = ArgValue::Kind::Int;
    v.i = i;
    return v;
}

struct Fixture {
    treadle::Module module = treadle::Module::load_string(k_module, "plan.py");
    treadle::LaunchPlan plan{module.kernel("combine").compiled()};
};

TEST(LaunchPlan, KnowsKindsAndWhichArraysAreReadAndWritten) {
    Fixture f;
    const auto& p = f.plan.params();
    ASSERT_EQ(p.size(), 5u);
    EXPECT_EQ(p[0].kind, treadle::ParamKind::Array);
    EXPECT_TRUE(p[0].reads);
    EXPECT_FALSE(p[0].writes);
    EXPECT_EQ(p[1].kind, treadle::ParamKind::Array);
    EXPECT_TRUE(p[1].writes);
    EXPECT_EQ(p[2].kind, treadle::ParamKind::Composite);
    EXPECT_EQ(p[3].kind, treadle::ParamKind::Scalar);
    EXPECT_EQ(p[4].kind, treadle::ParamKind::Composite);
    EXPECT_FALSE(p[2].reads || p[2].writes);
    EXPECT_GE(f.plan.block_size(), f.plan.kernel().params_size + 1);
}

TEST(LaunchPlan, ConvertsTypedComponentsAndNotesWrites) {
    Fixture f;
    auto a = treadle::from_vector<float>({1.0f, 2.0f});
    treadle::DType vec3d(treadle::ScalarType::Float64);
    vec3d.rows = 3;
    auto out_vec = treadle::Array::zeros(vec3d, {2});
    const float v[3] = {0.5f, 0.25f, 4.0f};  // float32 components into a vec3d parameter
    const int32_t m[4] = {10, 20, 30, 40};   // int32 components into a mat22d parameter
    ListSource source({array_value(a), array_value(out_vec),
                       components(v, treadle::ScalarType::Float32, 3), int_value(7),
                       components(m, treadle::ScalarType::Int32, 4)});
    std::vector<uint8_t> block(f.plan.block_size(), 0xff);
    treadle::WriteNotes written;
    const int64_t dim[1] = {2};
    treadle::LaunchBounds bounds =
        treadle::pack_arguments(f.plan, dim, 1, source, false, block.data(), &written);
    ASSERT_EQ(written.size(), 1u);
    EXPECT_EQ(written[0], &out_vec);
    treadle::run(f.plan.kernel(), bounds, block.data());
    std::vector<double> got(6);
    std::memcpy(got.data(), out_vec.data(), sizeof(double) * 6);
    EXPECT_EQ(got, (std::vector<double>{0.5 + 20, 0.25 + 7, 4.0 + 30, 1.0 + 20, 0.25 + 7, 34.0}));
}

std::string pack_error(Fixture& f, std::vector<ArgValue> values) {
    ListSource source(std::move(values));
    std::vector<uint8_t> block(f.plan.block_size());
    const int64_t dim[1] = {1};
    try {
        treadle::pack_arguments(f.plan, dim, 1, source, false, block.data(), nullptr);
    } catch (const treadle::Error& e) {
        return e.message();
    }
    return "no error";
}

TEST(LaunchPlan, EveryArgumentErrorNamesTheKernelAndParameter) {
    Fixture f;
    auto a = treadle::from_vector<float>({1.0f});
    auto wrong = treadle::from_vector<int32_t>({1});
    const double two[2] = {1.0, 2.0};
    const double four[4] = {1.0, 2.0, 3.0, 4.0};
    ArgValue other;  // Kind::Other by default
    ArgValue big = int_value(0);
    big.overflow = true;
    ArgValue flt;
    flt.kind = ArgValue::Kind::Float;
    flt.f = 1.5;
    auto v2 = components(two, treadle::ScalarType::Float64, 2);
    auto m4 = components(four, treadle::ScalarType::Float64, 4);
    auto v3 = components(four, treadle::ScalarType::Float64, 3);
    EXPECT_EQ(pack_error(f, {array_value(a)}), "combine(): takes 5 arguments but 1 were given");
    EXPECT_EQ(pack_error(f, {array_value(wrong), array_value(a), v3, int_value(1), m4}),
              "combine(): argument 'a' expects an array of float32, got an array of int32");
    EXPECT_EQ(pack_error(f, {array_value(a), array_value(a), v3, int_value(1), m4}),
              "combine(): argument 'out' expects an array of vec3d, got an array of float32");
    treadle::DType vec3d(treadle::ScalarType::Float64);
    vec3d.rows = 3;
    auto out = treadle::Array::zeros(vec3d, {1});
    EXPECT_EQ(pack_error(f, {array_value(a), array_value(out), v2, int_value(1), m4}),
              "combine(): argument 'v' expects vec3d (3 components), got 2 values");
    EXPECT_EQ(pack_error(f, {array_value(a), array_value(out), v3, flt, m4}),
              "combine(): argument 'n' expects int32, got a float");
    EXPECT_EQ(pack_error(f, {array_value(a), array_value(out), v3, big, m4}),
              "combine(): argument 'n' is an integer too large for int32");
    EXPECT_EQ(pack_error(f, {array_value(a), array_value(out), v3, other, m4}),
              "combine(): argument 'n' expects int32, got a mystery");
    EXPECT_EQ(pack_error(f, {array_value(a), array_value(out), int_value(3), int_value(1), m4}),
              "combine(): argument 'v' expects vec3d, got int");
    EXPECT_EQ(pack_error(f, {v3, array_value(out), v3, int_value(1), m4}),
              "combine(): argument 'a' expects an array of type array(ndim=1, dtype=float32), but "
              "passed value has type 3 components");
}

}  // namespace
