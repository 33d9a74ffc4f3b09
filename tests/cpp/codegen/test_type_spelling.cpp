// tests/cpp/codegen/test_type_spelling.cpp -- C++ spellings of the interned types
#include <gtest/gtest.h>

#include "codegen/type_spelling.h"

namespace treadle::codegen {
namespace {

TEST(TypeSpelling, SpellsEveryKind) {
    using namespace treadle::types;
    EXPECT_EQ(c_type(void_type()), "void");
    EXPECT_EQ(c_type(bool_type()), "bool");
    EXPECT_EQ(c_type(scalar_type(ScalarType::UInt16)), "wp::uint16");
    EXPECT_EQ(c_type(scalar_type(ScalarType::BFloat16)), "wp::bfloat16");
    EXPECT_EQ(c_type(vector_type(0, ScalarType::Bool)), "wp::vec_t<0, bool>");
    EXPECT_EQ(c_type(vector_type(3, ScalarType::Float32)), "wp::vec_t<3, wp::float32>");
    EXPECT_EQ(c_type(matrix_type(2, 3, ScalarType::Float64)), "wp::mat_t<2, 3, wp::float64>");
    EXPECT_EQ(c_type(quat_type(ScalarType::Float16)), "wp::quat_t<wp::float16>");
    EXPECT_EQ(c_type(transform_type(ScalarType::Float32)), "wp::transform_t<wp::float32>");
    EXPECT_EQ(c_type(array_type(vector_type(2, ScalarType::Int32), 2)),
              "wp::array_t<wp::vec_t<2, wp::int32>>");
    EXPECT_EQ(c_type(indexedarray_type(float32_type(), 1)), "wp::indexedarray_t<wp::float32>");
    EXPECT_EQ(c_type(tuple_type({int32_type(), float32_type()})), "void");
    const Type* s = struct_type("my.mod.Body", {{"x", float32_type()}});
    std::string name = c_type(s);
    EXPECT_EQ(name.rfind("struct_Body_", 0), 0u) << name;
    EXPECT_EQ(name.size(), std::string("struct_Body_").size() + 16);
    // the name depends on the fields, so two layouts of one class never share a C++ struct
    EXPECT_NE(c_type(struct_type("my.mod.Body", {{"x", scalar_type(ScalarType::Float64)}})), name);
}

TEST(TypeSpelling, FieldsThatAreCppKeywordsGetAnUnderscore) {
    EXPECT_EQ(c_field("mass"), "mass");
    EXPECT_EQ(c_field("class"), "class_");
    EXPECT_EQ(c_field("float"), "float_");
}

}  // namespace
}  // namespace treadle::codegen
