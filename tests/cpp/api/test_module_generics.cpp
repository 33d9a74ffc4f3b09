// tests/cpp/api/test_module_generics.cpp -- module files: generics, overloads, wp.static,
// custom gradients and max_unroll
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compile/compile_kernel.h"
#include "treadle/error.h"
#include "treadle/module.h"

namespace {

const char* k_module = R"(import treadle as wp
from typing import Any

SCALE = 2.5
N = 3
ON = True


@wp.func
def twice(x: Any):
    return x + x


@wp.func
def describe_value(x: float):
    return 1.0 + x


@wp.func
def describe_value(x: int):
    return 2.0 + float(x)


@wp.func
def describe_value(x: float, y: float):
    return 4.0 + x * y


@wp.func
def pick(x: float):
    return 1.0


@wp.func
def pick(x: float):
    return 2.0 + x


@wp.func
def plus_one(x: float):
    return x + 1.0


@wp.func
def times_two(x: float):
    return x * 2.0


FUNCS = [plus_one, times_two]


@wp.kernel
def scale(x: wp.array(dtype=Any), s: Any):
    i = wp.tid()
    x[i] = twice(s) * x[i]


@wp.overload
def scale(x: wp.array(dtype=wp.float64), s: wp.float64):
    ...


@wp.kernel
def axpy(a: wp.Float, x: wp.array(dtype=wp.Float), y: wp.array(dtype=wp.Float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def overloaded(out: wp.array(dtype=float)):
    out[0] = describe_value(0.5)
    out[1] = describe_value(5)
    out[2] = describe_value(2.0, 3.0)
    out[3] = describe_value(wp.float32(0.25))
    out[4] = pick(0.5)


@wp.kernel
def statics(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = 0.0
    for j in range(wp.static(N * 4)):
        s += x[i] * wp.static(SCALE / 2.0)
    if wp.static(ON):
        s += 1.0
    for k in range(2):
        s = wp.static(FUNCS[k])(s)
    out[i] = s


@wp.kernel
def bad_static(out: wp.array(dtype=float)):
    out[0] = wp.static(NOT_DEFINED)
)";

/// The message of the treadle::Error `f` throws (fails the test when it throws none).
template <typename F>
std::string error_of(F f) {
    try {
        f();
    } catch (const treadle::Error& e) {
        return e.message();
    }
    ADD_FAILURE() << "expected a treadle::Error";
    return "";
}

TEST(ModuleGenerics, GenericKernelNeedsTypes) {
    auto module = treadle::Module::load_string(k_module, "generics.py");
    EXPECT_EQ(error_of([&] { module.kernel("scale"); }),
              "Module::kernel(): kernel 'scale' is generic (parameter 'x' is array(dtype=Any, "
              "ndim=1)); give its types with Module::kernel(name, types) or "
              "Module::kernel_for(name, args)");
}

TEST(ModuleGenerics, DeclaredOverloadsSpecialise) {
    auto module = treadle::Module::load_string(k_module, "generics.py");
    auto declared = module.overloads("scale");
    ASSERT_EQ(declared.size(), 1u);
    EXPECT_EQ(declared[0], (std::vector<std::string>{"wp.array(dtype=wp.float64)", "wp.float64"}));
    auto x = treadle::from_vector<double>({1.0, 2.0, 3.0});
    module.kernel("scale", declared[0]).launch({3}, x, 3.0);
    EXPECT_EQ(treadle::to_vector<double>(x), (std::vector<double>{6.0, 12.0, 18.0}));
    // The specialisation is a kernel of its own with float64 code.
    auto k = module.kernel("scale", {"wp.array(dtype=wp.float64)", "wp.float64"});
    EXPECT_NE(k.compiled()->source.find("wp::array_t<wp::float64>"), std::string::npos);
}

TEST(ModuleGenerics, ArgumentsDecideTheSpecialisation) {
    auto module = treadle::Module::load_string(k_module, "generics.py");
    auto xf = treadle::from_vector<float>({1.0f, 2.0f});
    auto xi = treadle::from_vector<int32_t>({1, 2});
    module.kernel_for("scale", {xf, 2.0f}).launch({2}, xf, 2.0f);
    module.kernel_for("scale", {xi, int32_t(3)}).launch({2}, xi, int32_t(3));
    EXPECT_EQ(treadle::to_vector<float>(xf), (std::vector<float>{4.0f, 8.0f}));
    EXPECT_EQ(treadle::to_vector<int32_t>(xi), (std::vector<int32_t>{6, 12}));
    auto kf = module.kernel_for("scale", {xf, 2.0f});
    auto ki = module.kernel_for("scale", {xi, int32_t(3)});
    EXPECT_NE(kf.compiled()->key, ki.compiled()->key);
    EXPECT_EQ(kf.compiled(), module.kernel("scale", {"wp.array(dtype=float)", "float"}).compiled());

    auto y = treadle::from_vector<double>({1.0, 1.0});
    auto x64 = treadle::from_vector<double>({1.0, 2.0});
    module.kernel_for("axpy", {2.0, x64, y}).launch({2}, 2.0, x64, y);
    EXPECT_EQ(treadle::to_vector<double>(y), (std::vector<double>{3.0, 5.0}));
    // a specialisation builds its backward pass from its own types
    x64.enable_grad();
    y.enable_grad();
    y.grad_ptr()->assign(treadle::from_vector<double>({1.0, 0.5}));
    module.kernel_for("axpy", {2.0, x64, y}).launch_adjoint({2}, {2.0, x64, y});
    EXPECT_EQ(treadle::to_vector<double>(*x64.grad()), (std::vector<double>{2.0, 1.0}));
}

TEST(ModuleGenerics, SpecialisationErrors) {
    auto module = treadle::Module::load_string(k_module, "generics.py");
    auto xi = treadle::from_vector<int32_t>({1, 2});
    EXPECT_EQ(error_of([&] { module.kernel("axpy", {"wp.float32"}); }),
              "Module::kernel(): kernel 'axpy' takes 3 arguments but 1 types were given");
    EXPECT_EQ(error_of([&] {
                  module.kernel("axpy", {"wp.Float", "", ""});
              }),
              "Module::kernel(): parameter 'a' needs a concrete type, got Float");
    EXPECT_EQ(error_of([&] {
                  module.kernel("axpy", {"wp.float32", "", ""});
              }),
              "Module::kernel(): no type given for generic parameter 'x'");
    EXPECT_EQ(error_of([&] { module.kernel("overloaded", {"float"}); }),
              "Module::kernel(): kernel 'overloaded' is not generic");
    EXPECT_EQ(error_of([&] {
                  module.kernel_for("axpy", {2.0f, xi, xi});
              }),
              "axpy(): argument 'x' has type array(dtype=int32, ndim=1) but the parameter is "
              "array(dtype=Float, ndim=1)");
    EXPECT_EQ(error_of([&] { module.kernel_for("axpy", {2.0f}); }),
              "axpy(): takes 3 arguments but 1 were given");
    EXPECT_EQ(error_of([&] {
                  module.kernel_for("scale", {xi, std::array<float, 3>{1.0f, 2.0f, 3.0f}});
              }),
              "scale(): cannot infer the type of generic argument 's'");
}

TEST(ModuleGenerics, FunctionOverloadsByAnnotation) {
    auto module = treadle::Module::load_string(k_module, "generics.py");
    auto out = treadle::zeros<float>({5});
    module.kernel("overloaded").launch({1}, out);
    // pick's second definition has the same annotations: it replaces the first
    EXPECT_EQ(treadle::to_vector<float>(out), (std::vector<float>{1.5f, 7.0f, 10.0f, 1.25f, 2.5f}));
    // a call no definition accepts lists them all
    auto bad = treadle::Module::load_string(std::string(k_module) + R"(

@wp.kernel
def no_fit(out: wp.array(dtype=float)):
    out[0] = describe_value(wp.vec2(1.0, 2.0))
)",
                                            "generics.py");
    std::string message = error_of([&] { bad.kernel("no_fit"); });
    EXPECT_NE(message.find("describe_value(): no overload accepts (vec2f) (overloads: "
                           "describe_value(x: float32); describe_value(x: int32); "
                           "describe_value(x: float32, y: float32))"),
              std::string::npos)
        << message;
}

TEST(ModuleGenerics, StaticExpressionsOverModuleConstants) {
    auto module = treadle::Module::load_string(k_module, "generics.py");
    std::vector<float> xs{0.0f, 1.0f, 2.0f, 3.0f};
    auto x = treadle::from_vector(xs);
    auto out = treadle::zeros<float>({4});
    auto k = module.kernel("statics");
    k.launch({4}, x, out);
    auto got = treadle::to_vector<float>(out);
    for (size_t i = 0; i < xs.size(); ++i) {
        float s = 0.0f;
        for (int j = 0; j < 12; ++j) s += xs[i] * 1.25f;
        EXPECT_EQ(got[i], ((s + 1.0f) + 1.0f) * 2.0f) << i;
    }
    // 12 trips unrolled because of wp.static: only the launch loop is left
    const std::string& source = k.compiled()->source;
    size_t loops = 0;
    for (size_t at = source.find("for ("); at != std::string::npos;
         at = source.find("for (", at + 1))
        ++loops;
    EXPECT_EQ(loops, 1u);
    EXPECT_NE(error_of([&] { module.kernel("bad_static"); })
                  .find("bad_static(): Error evaluating static expression: name 'NOT_DEFINED' "
                        "is not defined (NameError, evaluating 'NOT_DEFINED')"),
              std::string::npos);
}

const char* k_grad_module = R"(import warp as wp


@wp.func
def square(x: float):
    return x * x


@wp.func_grad(square)
def square_grad(x: float, adj_ret: float):
    wp.adjoint[x] += 3.0 * adj_ret


@wp.func
def cube(x: float):
    return x * x * x


@wp.func_replay(cube)
def cube_replay(x: float):
    return x * x * x


@wp.kernel
def apply(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = square(x[i]) + cube(x[i])


@wp.kernel
def sum_to(out: wp.array(dtype=float)):
    s = 0.0
    for j in range(8):
        s += float(j)
    out[0] = s
)";

TEST(ModuleGenerics, CustomGradientAndReplay) {
    auto module = treadle::Module::load_string(k_grad_module, "grads.py");
    auto x = treadle::from_vector<float>({1.0f, 2.0f});
    auto y = treadle::zeros<float>({2});
    x.enable_grad();
    y.enable_grad();
    y.grad_ptr()->assign(treadle::from_vector<float>({1.0f, 1.0f}));
    auto k = module.kernel("apply");
    k.launch({2}, x, y);
    EXPECT_EQ(treadle::to_vector<float>(y), (std::vector<float>{2.0f, 12.0f}));
    k.launch_adjoint({2}, {x, y});
    // square's custom gradient says 3 (not 2x); cube's generated one is 3x^2
    EXPECT_EQ(treadle::to_vector<float>(*x.grad()), (std::vector<float>{6.0f, 15.0f}));
    const std::string& source = module.kernel("apply").compiled()->source;
    EXPECT_NE(source.find("fn_cube_replay"), std::string::npos);

    auto bad = treadle::Module::load_string;
    EXPECT_EQ(error_of([&] {
                  bad("import warp as wp\n\n\n@wp.func_grad(nothing)\ndef g(x: float):\n    "
                      "pass\n",
                      "bad.py", {});
              }),
              "func_grad(): expects a @wp.func function");
}

TEST(ModuleGenerics, MaxUnrollOption) {
    auto count_loops = [](const std::string& source) {
        size_t loops = 0;
        for (size_t at = source.find("for ("); at != std::string::npos;
             at = source.find("for (", at + 1))
            ++loops;
        return loops;
    };
    auto unrolled = treadle::Module::load_string(k_grad_module, "grads.py");
    treadle::ModuleOptions options;
    options.max_unroll = 4;
    auto rolled = treadle::Module::load_string(k_grad_module, "grads.py", options);
    EXPECT_EQ(count_loops(unrolled.kernel("sum_to").compiled()->source), 1u);
    EXPECT_EQ(count_loops(rolled.kernel("sum_to").compiled()->source), 2u);
    for (auto* m : {&unrolled, &rolled}) {
        auto out = treadle::zeros<float>({1});
        m->kernel("sum_to").launch({1}, out);
        EXPECT_EQ(treadle::to_vector<float>(out)[0], 28.0f);
    }
}

}  // namespace
