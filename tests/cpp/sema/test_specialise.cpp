// tests/cpp/sema/test_specialise.cpp -- generic kernels: parameters, Warp's argument rules
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sema/specialise.h"
#include "treadle/error.h"

namespace treadle::sema {
namespace {

/// The names of a Python module that imported `wp` and typing's Any.
class Names : public Resolver {
public:
    GlobalValue lookup(const std::string& name) override {
        GlobalValue g;
        if (name == "wp") {
            g.kind = GlobalValue::Kind::Module;
            g.module = "treadle";
        } else if (name == "Any") {
            g.kind = GlobalValue::Kind::Type;
            g.type = types::generic_type("Any");
        }
        return g;
    }
};

std::shared_ptr<FunctionSource> kernel(const std::string& text) {
    auto fn = std::make_shared<FunctionSource>();
    fn->key = "test.k";
    fn->name = "k";
    fn->source = ast::make_source("k.py", text, 1);
    fn->resolver = std::make_shared<Names>();
    fn->is_kernel = true;
    return fn;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.message();
    }
    return "(no error)";
}

const char* k_axpy = "def k(a: wp.Float, x: wp.array(dtype=wp.Float), s: Any, n: int):\n    pass\n";

TEST(Specialise, KernelParamsSayWhichAreGeneric) {
    KernelParams p = kernel_params(*kernel(k_axpy));
    EXPECT_EQ(p.names, (std::vector<std::string>{"a", "x", "s", "n"}));
    EXPECT_TRUE(p.generic(0) && p.generic(1) && p.generic(2));
    EXPECT_FALSE(p.generic(3));
    EXPECT_EQ(p.annotations[1]->name, "array(dtype=Float, ndim=1)");
    EXPECT_EQ(p.annotations[3], types::int32_type());
    EXPECT_TRUE(p.any_generic());
    EXPECT_FALSE(kernel_params(*kernel("def k(a: float):\n    pass\n")).any_generic());
}

TEST(Specialise, PythonNumbersAreInt32AndFloat32) {
    auto k = kernel(k_axpy);
    const types::Type* f64 = types::scalar_type(ScalarType::Float64);
    const types::Type* arr64 = types::array_type(f64, 1);
    // a weak float is float32 for Float and Any; a weak int int32; concrete parameters: null
    auto t = specialise_for_arguments(*k, {{types::float32_type(), true},
                                           {types::array_type(types::float32_type(), 1), false},
                                           {types::int32_type(), true},
                                           {nullptr, false}});
    EXPECT_EQ(t, (std::vector<const types::Type*>{types::float32_type(),
                                                  types::array_type(types::float32_type(), 1),
                                                  types::int32_type(), nullptr}));
    t = specialise_for_arguments(*k, {{f64, false}, {arr64, false}, {f64, false}, {}});
    EXPECT_EQ(t, (std::vector<const types::Type*>{f64, arr64, f64, nullptr}));
    // a Python int stays int32, which is no Float
    EXPECT_EQ(
        error_of([&] {
            specialise_for_arguments(*k, {{types::int32_type(), true}, {arr64, false}, {}, {}});
        }),
        "k(): argument 'a' has type int32 but the parameter is Float");
    EXPECT_EQ(error_of([&] {
                  specialise_for_arguments(*k, {{f64, false}, {arr64, false}, {}, {}});
              }),
              "k(): cannot infer the type of generic argument 's'");
    EXPECT_EQ(error_of([&] {
                  specialise_for_arguments(*k, {{f64, false}});
              }),
              "k(): takes 4 arguments but 1 were given");
}

TEST(Specialise, DeclaredTypes) {
    auto k = kernel(k_axpy);
    const types::Type* f16 = types::scalar_type(ScalarType::Float16);
    auto t = specialise_declared(*k, {f16, types::array_type(f16, 1), f16, types::int32_type()},
                                 "overload()");
    EXPECT_EQ(t, (std::vector<const types::Type*>{f16, types::array_type(f16, 1), f16, nullptr}));
    EXPECT_EQ(error_of([&] { specialise_declared(*k, {f16}, "overload()"); }),
              "overload(): kernel 'k' takes 4 arguments but 1 types were given");
    EXPECT_EQ(error_of([&] {
                  specialise_declared(*k, {f16, nullptr, f16, nullptr}, "overload()");
              }),
              "overload(): no type given for generic parameter 'x'");
    EXPECT_EQ(error_of([&] {
                  specialise_declared(*k, {types::generic_type("Float"), nullptr, f16, nullptr},
                                      "overload()");
              }),
              "overload(): parameter 'a' needs a concrete type, got Float");
    EXPECT_EQ(error_of([&] {
                  specialise_declared(*kernel("def k(a: float):\n    pass\n"), {f16}, "overload()");
              }),
              "overload(): kernel 'k' is not generic");
}

TEST(Specialise, AnnotationText) {
    auto k = kernel(k_axpy);
    EXPECT_EQ(annotation_type(*k, "wp.array(dtype=wp.vec3, ndim=2)"),
              types::array_type(types::vector_type(3, ScalarType::Float32), 2));
    EXPECT_EQ(annotation_type(*k, "float"), types::float32_type());
    EXPECT_EQ(annotation_type(*k, "Any"), types::generic_type("Any"));
    EXPECT_EQ(error_of([&] { annotation_type(*k, "wp.nothing"); }),
              "k(): module 'wp' has no attribute 'nothing' usable in kernels");
    EXPECT_EQ(error_of([&] { annotation_type(*k, "x = 1"); }),
              "k(): 'x = 1' is not a type annotation");
}

}  // namespace
}  // namespace treadle::sema
