// tests/cpp/types/test_types.cpp -- interned types: identity, names, layout, generic matching
#include <gtest/gtest.h>

#include <string>

#include "types/types.h"

namespace treadle::types {
namespace {

TEST(SemaTypes, ScalarsAreInternedOncePerScalarType) {
    EXPECT_EQ(scalar_type(ScalarType::Float32), float32_type());
    EXPECT_EQ(scalar_type(ScalarType::Int32), int32_type());
    EXPECT_NE(float32_type(), scalar_type(ScalarType::Float64));
    EXPECT_NE(int32_type(), scalar_type(ScalarType::UInt32));
    EXPECT_EQ(float32_type()->name, "float32");
    EXPECT_EQ(scalar_type(ScalarType::UInt8)->name, "uint8");
    EXPECT_TRUE(bool_type()->is_bool());
    EXPECT_FALSE(bool_type()->is_integer());
    EXPECT_TRUE(scalar_type(ScalarType::Float16)->is_float());
    const Type* bf16 = scalar_type(ScalarType::BFloat16);
    EXPECT_TRUE(bf16->is_float() && !bf16->is_integer());
    EXPECT_EQ(bf16->name, "bfloat16");
    EXPECT_EQ(bf16->size, 2u);
    EXPECT_EQ(bf16->align, 2u);
    EXPECT_EQ(type_key(bf16), "bfloat16");
    EXPECT_TRUE(is_narrow_float(ScalarType::BFloat16) && is_narrow_float(ScalarType::Float16));
    EXPECT_FALSE(is_narrow_float(ScalarType::Float32));
    EXPECT_EQ(void_type(), void_type());
    EXPECT_TRUE(void_type()->is_void());
}

TEST(SemaTypes, CompositesAreEqualExactlyWhenTheirPartsAre) {
    const Type* v3 = vector_type(3, ScalarType::Float32);
    EXPECT_EQ(v3, vector_type(3, ScalarType::Float32));
    EXPECT_NE(v3, vector_type(3, ScalarType::Float64));
    EXPECT_NE(v3, vector_type(4, ScalarType::Float32));
    EXPECT_EQ(v3->name, "vec3f");
    EXPECT_EQ(v3->components(), 3);

    const Type* m23 = matrix_type(2, 3, ScalarType::Float64);
    EXPECT_EQ(m23, matrix_type(2, 3, ScalarType::Float64));
    EXPECT_NE(m23, matrix_type(3, 2, ScalarType::Float64));
    EXPECT_EQ(m23->components(), 6);

    EXPECT_EQ(quat_type(ScalarType::Float32), quat_type(ScalarType::Float32));
    EXPECT_NE(quat_type(ScalarType::Float32), vector_type(4, ScalarType::Float32));
    EXPECT_EQ(transform_type(ScalarType::Float64)->name, "transformd");
}

TEST(SemaTypes, ArraysAndTuplesAreInternedByDtypeAndShape) {
    const Type* a = array_type(float32_type(), 2);
    EXPECT_EQ(a, array_type(float32_type(), 2));
    EXPECT_NE(a, array_type(float32_type(), 1));
    EXPECT_NE(a, array_type(int32_type(), 2));
    EXPECT_NE(a, indexedarray_type(float32_type(), 2));
    EXPECT_EQ(a->dtype, float32_type());
    EXPECT_EQ(a->ndim, 2);
    EXPECT_TRUE(indexedarray_type(float32_type(), 2)->is_indexed_array());
    EXPECT_EQ(array_type_like(indexedarray_type(float32_type(), 2), 1),
              indexedarray_type(float32_type(), 1));
    EXPECT_EQ(array_type_like(a, 1), array_type(float32_type(), 1));

    const Type* t = tuple_type({int32_type(), float32_type()});
    EXPECT_EQ(t, tuple_type({int32_type(), float32_type()}));
    EXPECT_NE(t, tuple_type({float32_type(), int32_type()}));
    ASSERT_EQ(t->elements.size(), 2u);
    EXPECT_EQ(t->elements[1], float32_type());
}

TEST(SemaTypes, ParameterSizesFollowTheNativeLayout) {
    EXPECT_EQ(float32_type()->size, 4u);
    EXPECT_EQ(scalar_type(ScalarType::Float64)->align, 8u);
    const Type* v3 = vector_type(3, ScalarType::Float32);
    EXPECT_EQ(v3->size, 12u);
    EXPECT_EQ(v3->align, 4u);
    EXPECT_EQ(matrix_type(3, 3, ScalarType::Float64)->size, 72u);
    EXPECT_EQ(transform_type(ScalarType::Float32)->size, 28u);
    EXPECT_EQ(vector_type(3, ScalarType::BFloat16)->size, 6u);
    EXPECT_EQ(vector_type(3, ScalarType::Bool)->size, 3u);
    EXPECT_EQ(vector_type(123, ScalarType::Float16)->size, 246u);
    // a vector of no components occupies one, as the native vec_t<0, T>
    EXPECT_EQ(vector_type(0, ScalarType::Float32)->size, 4u);
}

TEST(SemaTypes, VectorsOfBoolBfloat16AndUnusualLengthsHaveWarpsNames) {
    EXPECT_EQ(vector_type(3, ScalarType::BFloat16)->name, "vec3bf");
    EXPECT_EQ(matrix_type(2, 2, ScalarType::BFloat16)->name, "mat22bf");
    EXPECT_EQ(vector_type(6, ScalarType::BFloat16)->name, "vector(length=6, dtype=bfloat16)");
    EXPECT_EQ(vector_type(3, ScalarType::Bool)->name, "vector(length=3, dtype=bool)");
    EXPECT_EQ(matrix_type(2, 2, ScalarType::Bool)->name, "matrix(shape=(2, 2), dtype=bool)");
    EXPECT_EQ(vector_type(0, ScalarType::Float32)->name, "vec0f");
    EXPECT_EQ(vector_type(123, ScalarType::Float16)->name, "vector(length=123, dtype=float16)");
    EXPECT_EQ(vector_type(k_max_vector_length, ScalarType::Int8)->rows, k_max_vector_length);
    EXPECT_EQ(type_key(vector_type(0, ScalarType::Float32)), "vector:0:float32");
    EXPECT_EQ(vector_type(0, ScalarType::Float32)->components(), 0);
    EXPECT_TRUE(generic_matches(generic_type("Float"), scalar_type(ScalarType::BFloat16)));
    EXPECT_FALSE(generic_matches(generic_type("Int"), scalar_type(ScalarType::BFloat16)));
}

TEST(SemaTypes, StructsAreLaidOutByCRulesAndInternedByNameAndFields) {
    std::string error;
    const Type* s = struct_type("mod.Body",
                                {{"flag", bool_type()},
                                 {"mass", scalar_type(ScalarType::Float64)},
                                 {"pos", vector_type(3, ScalarType::Float32)}},
                                &error);
    ASSERT_NE(s, nullptr) << error;
    EXPECT_TRUE(s->is_struct());
    ASSERT_EQ(s->fields.size(), 3u);
    EXPECT_EQ(s->fields[0].offset, 0u);
    EXPECT_EQ(s->fields[1].offset, 8u);   // float64 aligned to 8 after a bool
    EXPECT_EQ(s->fields[2].offset, 16u);  // vec3f after 8 + 8
    EXPECT_EQ(s->size, 32u);              // 28 rounded up to the alignment of 8
    EXPECT_EQ(s->align, 8u);
    EXPECT_EQ(s->field("pos")->type, vector_type(3, ScalarType::Float32));
    EXPECT_EQ(s->field("vel"), nullptr);

    EXPECT_EQ(s, struct_type("mod.Body", {{"flag", bool_type()},
                                          {"mass", scalar_type(ScalarType::Float64)},
                                          {"pos", vector_type(3, ScalarType::Float32)}}));
    EXPECT_NE(s, struct_type("other.Body", {{"flag", bool_type()},
                                            {"mass", scalar_type(ScalarType::Float64)},
                                            {"pos", vector_type(3, ScalarType::Float32)}}));
    EXPECT_NE(s, struct_type("mod.Body", {{"flag", bool_type()}}));
}

TEST(SemaTypes, StructsHoldIndexedArraysAsTheirRecords) {
    const Type* s = struct_type(
        "m.Gather", {{"flag", bool_type()}, {"values", indexedarray_type(float32_type(), 1)}});
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->fields[1].offset, 8u);  // wp::indexedarray_t: 120 bytes, 8-aligned
    EXPECT_EQ(s->size, 128u);
    EXPECT_EQ(s->align, 8u);
    EXPECT_EQ(type_key(s), "struct:m.Gather{flag=bool;values=indexedarray:float32:1}");
}

TEST(SemaTypes, AStructWithoutFieldsTakesOneByte) {
    const Type* s = struct_type("m.Empty", {});
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->size, 1u);
    EXPECT_EQ(s->align, 1u);
    EXPECT_TRUE(s->fields.empty());
}

TEST(SemaTypes, InvalidStructsAreRefusedWithAReason) {
    std::string error;
    EXPECT_EQ(struct_type("m.S", {{"a", float32_type()}, {"a", int32_type()}}, &error), nullptr);
    EXPECT_FALSE(error.empty());
    error.clear();
    EXPECT_EQ(struct_type("m.S", {{"t", tuple_type({int32_type(), int32_type()})}}, &error),
              nullptr);
    EXPECT_FALSE(error.empty());
}

TEST(SemaTypes, GenericPlaceholdersMatchTheirFamilies) {
    const Type* any = generic_type("Any");
    const Type* fl = generic_type("Float");
    const Type* in = generic_type("Int");
    const Type* sc = generic_type("Scalar");
    ASSERT_TRUE(any && fl && in && sc);
    EXPECT_EQ(generic_type("Number"), nullptr);
    EXPECT_TRUE(fl->is_generic());
    EXPECT_FALSE(float32_type()->is_generic());

    EXPECT_TRUE(generic_matches(fl, scalar_type(ScalarType::Float64)));
    EXPECT_FALSE(generic_matches(fl, int32_type()));
    EXPECT_TRUE(generic_matches(in, scalar_type(ScalarType::UInt8)));
    EXPECT_FALSE(generic_matches(in, float32_type()));
    EXPECT_TRUE(generic_matches(sc, int32_type()));
    EXPECT_TRUE(generic_matches(sc, float32_type()));
    EXPECT_FALSE(generic_matches(sc, bool_type()));
    EXPECT_TRUE(generic_matches(any, vector_type(3, ScalarType::Float32)));
    EXPECT_TRUE(generic_matches(any, array_type(float32_type(), 1)));

    const Type* any_array = array_type(any, 1);
    EXPECT_TRUE(any_array->is_generic());
    EXPECT_TRUE(generic_matches(any_array, array_type(int32_type(), 1)));
    EXPECT_FALSE(generic_matches(any_array, array_type(int32_type(), 2)));
    EXPECT_FALSE(generic_matches(any_array, int32_type()));

    // A concrete pattern fits only itself.
    EXPECT_TRUE(generic_matches(float32_type(), float32_type()));
    EXPECT_FALSE(generic_matches(float32_type(), scalar_type(ScalarType::Float64)));
}

TEST(SemaTypes, GenericVectorPatterns) {
    const Type* any_float_vec = generic_composite_type(false, 0, 0, generic_type("Float"));
    EXPECT_TRUE(generic_matches(any_float_vec, vector_type(3, ScalarType::Float32)));
    EXPECT_TRUE(generic_matches(any_float_vec, vector_type(2, ScalarType::Float64)));
    EXPECT_FALSE(generic_matches(any_float_vec, vector_type(3, ScalarType::Int32)));
    EXPECT_FALSE(generic_matches(any_float_vec, matrix_type(3, 3, ScalarType::Float32)));
    const Type* vec3_any = generic_composite_type(false, 3, 0, generic_type("Any"));
    EXPECT_TRUE(generic_matches(vec3_any, vector_type(3, ScalarType::Int32)));
    EXPECT_FALSE(generic_matches(vec3_any, vector_type(4, ScalarType::Int32)));
}

}  // namespace
}  // namespace treadle::types
