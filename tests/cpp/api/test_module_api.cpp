// tests/cpp/api/test_module_api.cpp -- the C++ API end to end: load a DSL module, launch on the CPU
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <numeric>

#include "treadle/error.h"
#include "treadle/module.h"

namespace {

const char* k_module = R"(import treadle as wp
import math

GAIN = 2.0


@wp.func
def lerp(a: float, b: float, t: float):
    return a + (b - a) * t


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def blend(x: wp.array(dtype=float), out: wp.array2d(dtype=wp.float64)):
    i, j = wp.tid()
    out[i, j] = wp.float64(lerp(x[i], GAIN, 0.5)) + wp.float64(j) * math.pi


@wp.kernel
def offset(points: wp.array(dtype=wp.vec3), delta: wp.vec3, q: wp.quat):
    i = wp.tid()
    points[i] = wp.quat_rotate(q, points[i]) + delta


@wp.kernel
def count(hits: wp.array(dtype=int)):
    i = wp.tid()
    wp.atomic_add(hits, i % 4, 1)
)";

TEST(ModuleApi, LaunchesKernelsFromAModuleString) {
    auto module = treadle::Module::load_string(k_module, "kernels.py");
    EXPECT_EQ(module.kernel_names(),
              (std::vector<std::string>{"saxpy", "blend", "offset", "count"}));

    const int64_t n = 100000;
    std::vector<float> xs(n);
    std::iota(xs.begin(), xs.end(), 0.0f);
    auto x = treadle::from_vector(xs);
    auto y = treadle::zeros<float>({n});
    module.kernel("saxpy").launch({n}, 2.0f, x, y);
    auto out = treadle::to_vector<float>(y);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0f * xs[i]);

    auto grid = treadle::zeros<double>({8, 3});
    module.kernel("blend").launch({8, 3}, x, grid);
    const double* g = grid.data_as<double>();
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_NEAR(g[i * 3 + j], (xs[i] + (2.0 - xs[i]) * 0.5) + j * M_PI, 1e-5);

    auto hits = treadle::zeros<int32_t>({4});
    module.kernel("count").launch({1000003}, hits);
    auto h = treadle::to_vector<int32_t>(hits);
    EXPECT_EQ(h[0] + h[1] + h[2] + h[3], 1000003);
    EXPECT_EQ(h[3], 250000);
}

TEST(ModuleApi, DeterministicModeRepeatsFloatAtomicsInLaunchOrder) {
    const char* source = R"(import treadle as wp


@wp.kernel
def total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, x[wp.tid()])
)";
    treadle::ModuleOptions options;
    options.deterministic = 1;
    auto module = treadle::Module::load_string(source, "det.py", options);
    const int64_t n = 200000;
    std::vector<float> xs(n);
    for (int64_t i = 0; i < n; ++i) xs[i] = std::sin(float(i)) * 1000.0f;
    float sequential = 0.0f;
    for (float v : xs) sequential += v;
    auto x = treadle::from_vector(xs);
    for (int run = 0; run < 5; ++run) {
        auto out = treadle::zeros<float>({1});
        module.kernel("total").launch({n}, x, out);
        EXPECT_EQ(treadle::to_vector<float>(out)[0], sequential) << "run " << run;
    }
    options.deterministic = 3;
    auto bad = treadle::Module::load_string(source, "det.py", options);
    try {
        bad.kernel("total");
        FAIL() << "expected a ValueError";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Value);
        EXPECT_NE(std::string(e.what()).find("unknown deterministic mode 3"), std::string::npos);
    }
}

TEST(ModuleApi, VectorAndQuaternionArguments) {
    auto module = treadle::Module::load_string(k_module, "kernels.py");
    treadle::DType vec3(treadle::ScalarType::Float32);
    vec3.rows = 3;
    auto points = treadle::Array::zeros(vec3, {4});
    points.data_as<float>()[3] = 1.0f;  // points[1] = (1, 0, 0)
    const float s = std::sqrt(0.5f);
    // 90 degrees about z: (1, 0, 0) -> (0, 1, 0)
    module.kernel("offset").launch({4}, points, std::array<float, 3>{10.0f, 20.0f, 30.0f},
                                   std::array<float, 4>{0.0f, 0.0f, s, s});
    const float* p = points.data_as<float>();
    EXPECT_NEAR(p[0], 10.0f, 1e-6);
    EXPECT_NEAR(p[3], 10.0f, 1e-6);
    EXPECT_NEAR(p[4], 21.0f, 1e-6);
    EXPECT_NEAR(p[5], 30.0f, 1e-6);
    try {
        module.kernel("offset").launch({4}, points, std::array<float, 2>{1.0f, 2.0f},
                                       std::array<float, 4>{0.0f, 0.0f, 0.0f, 1.0f});
        FAIL() << "expected a type error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(),
                  "offset(): argument 'delta' expects vec3f (3 components), got 2 values");
    }
}

TEST(ModuleApi, ArgumentErrorsNameKernelAndParameter) {
    auto module = treadle::Module::load_string(k_module, "kernels.py");
    auto k = module.kernel("saxpy");
    auto x = treadle::zeros<float>({4});
    auto xi = treadle::zeros<int32_t>({4});
    try {
        k.launch({4}, 2.0f, xi, x);
        FAIL() << "expected a type error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::ArgumentType);
        EXPECT_EQ(e.message(),
                  "saxpy(): argument 'x' expects an array of float32, got an array of int32");
    }
    try {
        k.launch({4}, 2.0f, x);
        FAIL() << "expected a type error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(), "saxpy(): takes 3 arguments but 2 were given");
    }
    try {
        k.launch({4}, x, x, x);
        FAIL() << "expected a type error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.message(), "saxpy(): argument 'a' expects float32, got an array");
    }
}

TEST(ModuleApi, TypeErrorsPointAtThePythonLine) {
    const char* bad =
        "import treadle as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n    x[i] = undefined_thing\n";
    auto module = treadle::Module::load_string(bad, "bad.py");
    try {
        module.kernel("k");
        FAIL() << "expected an error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Key);
        EXPECT_EQ(e.where().file, "bad.py");
        EXPECT_EQ(e.where().line, 6);
        EXPECT_EQ(e.where().col, 12);
        EXPECT_EQ(e.message(), "k(): Referencing undefined symbol: undefined_thing");
    }
}

TEST(ModuleApi, NativeFunctionsTakeTheirBodyFromTheSnippet) {
    const char* src =
        "import treadle as wp\n\n"
        "@wp.func_native(\"return a * b + 1.0f;\", adj_snippet=None)\n"
        "def fma1(a: float, b: float) -> float:\n    ...\n\n"
        "@wp.func_native(snippet=\"out[i] = i * 3;\")\n"
        "def put(out: wp.array(dtype=int), i: int):\n    ...\n\n"
        "@wp.kernel\ndef k(x: wp.array(dtype=float), y: wp.array(dtype=int)):\n"
        "    i = wp.tid()\n    x[i] = fma1(x[i], 2.0)\n    put(y, i)\n";
    auto module = treadle::Module::load_string(src, "native.py");
    treadle::Array x = treadle::from_vector(std::vector<float>{1.0f, 2.5f, -3.0f});
    treadle::Array y = treadle::Array::zeros(treadle::DType(treadle::ScalarType::Int32), {3});
    module.kernel("k").launch({3}, x, y);
    EXPECT_EQ(treadle::to_vector<float>(x), (std::vector<float>{3.0f, 6.0f, -5.0f}));
    EXPECT_EQ(treadle::to_vector<int32_t>(y), (std::vector<int32_t>{0, 3, 6}));

    const char* bad =
        "import treadle as wp\n\nbody = 'return 1;'\n\n@wp.func_native(body)\n"
        "def f() -> int:\n    ...\n";
    try {
        treadle::Module::load_string(bad, "bad_native.py");
        FAIL() << "expected an error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Type);
        EXPECT_EQ(e.where().file, "bad_native.py");
        EXPECT_EQ(e.where().line, 5);
        EXPECT_EQ(e.where().col, 17);
        EXPECT_EQ(e.message(), "func_native(): snippet must be a string literal");
    }
}

TEST(ModuleApi, KernelAndFuncDecoratorsTogetherAreATypeError) {
    const char* bad =
        "import treadle as wp\n\n@wp.kernel\n@wp.func\ndef k(x: wp.array(dtype=float)):\n"
        "    x[0] = 1.0\n";
    try {
        treadle::Module::load_string(bad, "twice.py");
        FAIL() << "expected an error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Type);
        EXPECT_EQ(e.where().line, 3);
        EXPECT_EQ(e.message(),
                  "@wp.kernel: 'k' is already a treadle function; apply only one of @wp.func and "
                  "@wp.kernel");
    }
}

TEST(ModuleApi, SyntaxErrorsCarryFileLineAndColumn) {
    try {
        treadle::Module::load_string("import treadle as wp\n\ndef f(:\n    pass\n", "syn.py");
        FAIL() << "expected a syntax error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Syntax);
        EXPECT_EQ(e.where().file, "syn.py");
        EXPECT_EQ(e.where().line, 3);
    }
}

TEST(ModuleApi, UnknownKernelIsAValueError) {
    auto module = treadle::Module::load_string(k_module, "kernels.py");
    try {
        module.kernel("nope");
        FAIL();
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Value);
    }
}

}  // namespace

TEST(ModuleApi, ScalarArgumentsOutOfRangeAreOverflowErrors) {
    auto module = treadle::Module::load_string(R"(import treadle as wp

@wp.kernel
def keep(u: wp.uint8, big: wp.uint64, out: wp.array(dtype=wp.uint64)):
    out[0] = wp.uint64(u) + big
)",
                                               "range.py");
    treadle::Kernel k = module.kernel("keep");
    auto out = treadle::zeros<uint64_t>({1});
    try {
        k.launch({1}, int32_t(300), uint64_t(1), out);
        FAIL() << "expected an overflow error";
    } catch (const treadle::Error& e) {
        EXPECT_EQ(e.kind(), treadle::ErrorKind::Overflow);
        EXPECT_EQ(e.message(), "keep(): argument 'u' is 300, out of the range of uint8");
    }
    k.launch({1}, int32_t(255), uint64_t(0xFFFFFFFFFFFFFF00ull), out);
    EXPECT_EQ(treadle::to_vector<uint64_t>(out)[0], 0xFFFFFFFFFFFFFFFFull);
}
