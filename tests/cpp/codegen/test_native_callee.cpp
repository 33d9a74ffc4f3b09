// tests/cpp/codegen/test_native_callee.cpp -- C++ names of builtin Calls spelled from the table
#include <gtest/gtest.h>

#include "../ir_build.h"
#include "codegen/function_emitter.h"

namespace treadle::codegen {
namespace {

/// The C++ name codegen spells for one Call of builtin `native` with result type `t`.
std::string spelled(const char* native, const types::Type* t, size_t nargs) {
    ir::Function f;
    test::IrBuilder b(f, "k", true);
    std::vector<ir::VarId> args;
    for (size_t i = 0; i < nargs; ++i) args.push_back(b.const_float(1.0));
    b.call(native, t, args);
    EXPECT_EQ(ir::verify(f), "");
    return native_callee(f, f.body.back());
}

TEST(NativeCallee, TemplateArgumentsComeFromTheResultType) {
    using treadle::ScalarType;
    EXPECT_EQ(spelled("sin", types::float32_type(), 1), "sin");
    EXPECT_EQ(spelled("vec_fill", types::vector_type(3, ScalarType::Float32), 1),
              "vec_fill<3, wp::float32>");
    EXPECT_EQ(spelled("mat_fill", types::matrix_type(2, 4, ScalarType::Float64), 1),
              "mat_fill<2, 4, wp::float64>");
    EXPECT_EQ(spelled("vec_cast", types::vector_type(3, ScalarType::Float64), 1),
              "vec_cast<wp::float64>");
    EXPECT_EQ(spelled("identity", types::matrix_type(4, 4, ScalarType::Float32), 0),
              "identity<4, wp::float32>");
    EXPECT_EQ(spelled("quat_identity", types::quat_type(ScalarType::Float64), 0),
              "quat_identity<wp::float64>");
    // matrix_from_rows is spelled by its native name
    EXPECT_EQ(spelled("mat_from_rows", types::matrix_type(2, 2, ScalarType::Float32), 2),
              "mat_from_rows");
}

TEST(NativeCallee, VerifyRefusesACallWithoutABuiltin) {
    ir::Function f;
    test::IrBuilder b(f, "k", true);
    b.value(ir::InstrKind::Call, types::float32_type(), {b.const_float(1.0)});
    EXPECT_NE(ir::verify(f).find("call without a builtin"), std::string::npos);
}

}  // namespace
}  // namespace treadle::codegen
