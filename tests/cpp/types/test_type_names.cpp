// tests/cpp/types/test_type_names.cpp -- the table of Warp's type names: every family, and refusals
#include <gtest/gtest.h>

#include <string>

#include "types/type_names.h"

namespace treadle::types {
namespace {

constexpr ScalarType F16 = ScalarType::Float16;
constexpr ScalarType F32 = ScalarType::Float32;
constexpr ScalarType F64 = ScalarType::Float64;

TEST(TypeNames, EveryScalarByItsOwnName) {
    for (int i = 0; i < k_scalar_type_count; ++i) {
        ScalarType s = (ScalarType)i;
        EXPECT_EQ(type_by_name(scalar_name(s)), scalar_type(s)) << scalar_name(s);
    }
    EXPECT_EQ(type_by_name("bfloat16"), scalar_type(ScalarType::BFloat16));
    // Warp names no vector or matrix of bfloat16 or bool
    EXPECT_EQ(type_by_name("vec3bf"), nullptr);
    EXPECT_EQ(type_by_name("mat22bf"), nullptr);
}

TEST(TypeNames, VectorsOfEveryNumericScalar) {
    const char* suffixes[] = {"b", "ub", "s", "us", "i", "ui", "l", "ul", "h", "f", "d"};
    for (int i = 0; i < 11; ++i) {
        ScalarType s = (ScalarType)(i + (int)ScalarType::Int8);
        for (int n = 2; n <= 4; ++n) {
            std::string name = "vec" + std::to_string(n) + suffixes[i];
            EXPECT_EQ(type_by_name(name), vector_type(n, s)) << name;
        }
    }
    EXPECT_EQ(type_by_name("vec2"), vector_type(2, F32));
    EXPECT_EQ(type_by_name("vec3"), vector_type(3, F32));
    EXPECT_EQ(type_by_name("vec4"), vector_type(4, F32));
}

TEST(TypeNames, SquareMatricesQuaternionsTransformsAndSpatialTypesOfFloats) {
    struct Suffix {
        const char* text;
        ScalarType scalar;
    };
    for (Suffix x : {Suffix{"", F32}, Suffix{"h", F16}, Suffix{"f", F32}, Suffix{"d", F64}}) {
        std::string s = x.text;
        EXPECT_EQ(type_by_name("mat22" + s), matrix_type(2, 2, x.scalar)) << s;
        EXPECT_EQ(type_by_name("mat33" + s), matrix_type(3, 3, x.scalar)) << s;
        EXPECT_EQ(type_by_name("mat44" + s), matrix_type(4, 4, x.scalar)) << s;
        EXPECT_EQ(type_by_name("quat" + s), quat_type(x.scalar)) << s;
        EXPECT_EQ(type_by_name("transform" + s), transform_type(x.scalar)) << s;
        EXPECT_EQ(type_by_name("spatial_vector" + s), vector_type(6, x.scalar)) << s;
        EXPECT_EQ(type_by_name("spatial_matrix" + s), matrix_type(6, 6, x.scalar)) << s;
    }
}

TEST(TypeNames, GenericPlaceholders) {
    for (const char* name : {"Any", "Float", "Int", "Scalar"}) {
        ASSERT_NE(type_by_name(name), nullptr) << name;
        EXPECT_EQ(type_by_name(name), generic_type(name));
        EXPECT_EQ(type_by_name(name)->kind, TypeKind::Generic);
    }
}

TEST(TypeNames, OtherNamesAreNotTypes) {
    for (const char* name : {"int",
                             "float",
                             "half",
                             "",
                             "vec",
                             "vec1",
                             "vec5",
                             "vec3x",
                             "vec3bool",
                             "mat23",
                             "mat55",
                             "mat33i",
                             "mat33b",
                             "quati",
                             "transforml",
                             "spatial_vectori",
                             "spatial_matrixub",
                             "vector",
                             "matrix",
                             "array",
                             "float32 ",
                             "Float32",
                             "vector:3:float32",
                             "any"})
        EXPECT_EQ(type_by_name(name), nullptr) << "'" << name << "'";
}

TEST(TypeNames, NamesAreTheTypesOwnNames) {
    // The table is the inverse of the Warp names the interner gives, where a type has one.
    for (const char* name : {"vec3f", "vec2ub", "mat33d", "quath", "transformd", "float16",
                             "spatial_vectord", "spatial_matrixf"})
        EXPECT_EQ(type_by_name(name)->name, name);
}

}  // namespace
}  // namespace treadle::types
