// tests/cpp/api/test_module_structs.cpp -- @wp.struct kernel arguments from C++ (raw bytes)
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "treadle/error.h"
#include "treadle/module.h"

namespace {

const char* k_module = R"(import treadle as wp


@wp.struct
class Params:
    scale: float
    count: int
    offset: wp.vec3


@wp.struct
class Holder:
    p: Params
    values: wp.array(dtype=float)


@wp.kernel
def apply(params: Params, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = params.offset + wp.vec3(params.scale * float(i + params.count))


@wp.kernel
def fill(h: Holder):
    i = wp.tid()
    h.values[i] = h.p.scale * float(i)
)";

/// Mirrors Params: float, int32, vec3 -> 20 bytes, 4-byte aligned.
struct Params {
    float scale;
    int32_t count;
    float offset[3];
};
static_assert(sizeof(Params) == 20, "Params layout");

/// wp::array_t<T> as the kernel sees it.
struct ArrayRecord {
    void* data;
    void* grad;
    int32_t shape[4];
    int64_t strides[4];
    int32_t ndim;
    int32_t pad;
};

/// Mirrors Holder: Params at 0, the array record at 24 (8-byte aligned).
struct Holder {
    Params p;
    ArrayRecord values;
};
static_assert(sizeof(Holder) == 96, "Holder layout");

TEST(ModuleStructs, StructArgumentsFromBytes) {
    auto module = treadle::Module::load_string(k_module, "structs.py");
    treadle::DType vec3(treadle::ScalarType::Float32);
    vec3.rows = 3;
    auto out = treadle::Array::zeros(vec3, {5});
    Params p{2.0f, 3, {1.0f, -1.0f, 0.5f}};
    module.kernel("apply").launch({5}, {treadle::KernelArg::struct_value(p), out});
    const float* o = out.data_as<float>();
    for (int i = 0; i < 5; ++i)
        for (int c = 0; c < 3; ++c) EXPECT_FLOAT_EQ(o[i * 3 + c], p.offset[c] + 2.0f * (i + 3));

    auto values = treadle::zeros<float>({6});
    Holder h{};
    h.p.scale = 1.5f;
    h.values.data = values.data();
    h.values.shape[0] = 6;
    h.values.strides[0] = sizeof(float);
    h.values.ndim = 1;
    module.kernel("fill").launch({6}, {treadle::KernelArg::struct_value(h)});
    auto v = treadle::to_vector<float>(values);
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(v[i], 1.5f * i);
}

TEST(ModuleStructs, WrongStructArgumentsAreTypeErrors) {
    auto module = treadle::Module::load_string(k_module, "structs.py");
    auto out = treadle::zeros<float>({5});
    Params p{};
    try {
        module.kernel("apply").launch({5}, {treadle::KernelArg::struct_bytes(&p, 8), out});
        FAIL() << "expected a type error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Type);
        EXPECT_EQ(e.message(),
                  "apply(): argument 'params' expects struct Params (20 bytes), got 8 bytes");
    }
    try {
        module.kernel("apply").launch({5}, {1.0f, out});
        FAIL() << "expected a type error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(), "apply(): argument 'params' expects Params, got a float");
    }
    try {
        module.kernel("fill").launch({1}, {treadle::KernelArg::struct_value(1.0f)});
        FAIL() << "expected a type error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(),
                  "fill(): argument 'h' expects struct Holder (96 bytes), got 4 bytes");
    }
}

}  // namespace
