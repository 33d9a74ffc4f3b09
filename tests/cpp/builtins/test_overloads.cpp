// tests/cpp/builtins/test_overloads.cpp -- overload resolution against the builtin table and the
// weak-literal rules
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "builtins/builtins.h"

namespace treadle::builtins {
namespace {

const types::Type* f64() { return types::scalar_type(ScalarType::Float64); }
const types::Type* vec3() { return types::vector_type(3, ScalarType::Float32); }
ArgInfo strong(const types::Type* t) { return ArgInfo{t, false}; }
ArgInfo weak_int() { return ArgInfo{types::int32_type(), true}; }
ArgInfo weak_float() { return ArgInfo{types::float32_type(), true}; }

/// The signature the table's rule for builtin `name` (or operator, when `op`) gives `args`.
std::optional<Signature> resolve(const char* name, const std::vector<ArgInfo>& args,
                                 bool op = false) {
    const Builtin* b = op ? find_operator(name) : find_builtin(name);
    EXPECT_NE(b, nullptr) << name;
    if (!b || !b->rule) return std::nullopt;
    return b->rule(args);
}

TEST(BuiltinWeakLiterals, ALiteralAdoptsTheOtherOperandsType) {
    EXPECT_EQ(unify_scalars({strong(f64()), weak_float()}), f64());
    EXPECT_EQ(unify_scalars({weak_int(), strong(f64())}), f64());
    EXPECT_EQ(unify_scalars({strong(types::scalar_type(ScalarType::UInt8)), weak_int()}),
              types::scalar_type(ScalarType::UInt8));
}

TEST(BuiltinWeakLiterals, LiteralsAloneTakeTheirNaturalType) {
    EXPECT_EQ(unify_scalars({weak_int(), weak_int()}), types::int32_type());
    EXPECT_EQ(unify_scalars({weak_int(), weak_float()}), types::float32_type());
    // float-only builtins turn integer literals into float32
    EXPECT_EQ(unify_scalars({weak_int()}, true), types::float32_type());
}

TEST(BuiltinWeakLiterals, AFloatLiteralNeverBecomesAnInteger) {
    EXPECT_EQ(unify_scalars({strong(types::int32_type()), weak_float()}), nullptr);
    EXPECT_EQ(unify_scalars({strong(types::bool_type()), weak_float()}), nullptr);
}

TEST(BuiltinWeakLiterals, TwoStrongTypesMustAgree) {
    EXPECT_EQ(unify_scalars({strong(types::float32_type()), strong(f64())}), nullptr);
    EXPECT_EQ(unify_scalars({strong(types::int32_type()), strong(types::int32_type())}),
              types::int32_type());
    EXPECT_EQ(unify_scalars({strong(vec3()), weak_float()}), nullptr);
}

TEST(BuiltinWeakLiterals, DescribeArgsNamesLiteralsAsSuch) {
    EXPECT_EQ(describe_args({strong(types::float32_type()), weak_int(), weak_float()}),
              "(float32, int literal, float literal)");
    EXPECT_EQ(describe_args({}), "()");
}

TEST(BuiltinOverloads, TheTableKnowsBuiltinsByNameAndOperatorsApart) {
    const Builtin* sqrt = find_builtin("sqrt");
    ASSERT_NE(sqrt, nullptr);
    EXPECT_STREQ(sqrt->name, "sqrt");
    EXPECT_TRUE(sqrt->differentiable);
    EXPECT_EQ(find_builtin("no_such_builtin"), nullptr);
    EXPECT_EQ(find_builtin("floordiv"), nullptr);  // operators are not callable by name
    ASSERT_NE(find_operator("floordiv"), nullptr);
    EXPECT_EQ(find_operator("floordiv")->kind, BuiltinKind::Operator);
    EXPECT_EQ(find_builtin("tid")->kind, BuiltinKind::Tid);
    EXPECT_EQ(find_builtin("atomic_add")->kind, BuiltinKind::Atomic);
    EXPECT_EQ(find_builtin("svd3")->kind, BuiltinKind::Multi);
    // Every entry can be found again by its name; kernel code sees only the callable ones.
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        const Builtin* entry = find_entry(b.name);
        ASSERT_NE(entry, nullptr);
        EXPECT_STREQ(entry->name, b.name);
        bool by_name = b.kind != BuiltinKind::Operator && b.kind != BuiltinKind::Compare &&
                       b.kind != BuiltinKind::Internal;
        EXPECT_EQ(find_builtin(b.name) != nullptr, by_name);
    }
}

TEST(BuiltinOverloads, FloatFunctionsKeepTheArgumentsPrecision) {
    auto s = resolve("sqrt", {strong(f64())});
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, f64());
    EXPECT_EQ(s->params, std::vector<const types::Type*>{f64()});

    s = resolve("sqrt", {weak_int()});  // sqrt(2): the literal becomes float32
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, types::float32_type());

    EXPECT_FALSE(resolve("sqrt", {strong(types::int32_type())}));
    EXPECT_FALSE(resolve("sqrt", {strong(f64()), strong(f64())}));
}

TEST(BuiltinOverloads, ArithmeticOperatorsOnScalarsVectorsAndMatrices) {
    auto s = resolve("add", {strong(types::int32_type()), weak_int()}, true);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, types::int32_type());
    EXPECT_EQ(s->params,
              (std::vector<const types::Type*>{types::int32_type(), types::int32_type()}));

    s = resolve("add", {strong(vec3()), strong(vec3())}, true);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, vec3());
    EXPECT_FALSE(resolve("add", {strong(vec3()), weak_float()}, true));
    EXPECT_FALSE(
        resolve("add", {strong(vec3()), strong(types::vector_type(3, ScalarType::Float64))}, true));
    EXPECT_FALSE(resolve("add", {strong(types::bool_type()), strong(types::bool_type())}, true));

    // vec3 * 2.0: the literal becomes the vector's scalar type
    s = resolve("mul", {strong(vec3()), weak_float()}, true);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->params, (std::vector<const types::Type*>{vec3(), types::float32_type()}));
    EXPECT_EQ(s->ret, vec3());
    EXPECT_FALSE(resolve("mul", {strong(vec3()), strong(f64())}, true));

    const types::Type* m23 = types::matrix_type(2, 3, ScalarType::Float32);
    s = resolve("mul", {strong(m23), strong(vec3())}, true);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, types::vector_type(2, ScalarType::Float32));
    s = resolve("mul", {strong(m23), strong(types::matrix_type(3, 4, ScalarType::Float32))}, true);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, types::matrix_type(2, 4, ScalarType::Float32));
    EXPECT_FALSE(resolve("mul", {strong(vec3()), strong(m23)}, true));  // 3 != 2 rows
}

TEST(BuiltinOverloads, VectorBuiltinsRefuseScalars) {
    auto s = resolve("length", {strong(vec3())});
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, types::float32_type());
    s = resolve("dot", {strong(vec3()), strong(vec3())});
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, types::float32_type());
    s = resolve("cross", {strong(vec3()), strong(vec3())});
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, vec3());
    EXPECT_FALSE(resolve("length", {strong(types::float32_type())}));
    EXPECT_FALSE(resolve("cross", {strong(types::vector_type(2, ScalarType::Float32)),
                                   strong(types::vector_type(2, ScalarType::Float32))}));
}

TEST(BuiltinOverloads, ComparisonsGiveBool) {
    const Builtin* cmp = find_operator("compare");
    ASSERT_NE(cmp, nullptr);
    EXPECT_EQ(cmp->kind, BuiltinKind::Compare);
    EXPECT_EQ(find_builtin("compare"), nullptr);
    auto s = resolve("compare", {strong(f64()), weak_int()}, true);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ret, types::bool_type());
    EXPECT_EQ(s->params, (std::vector<const types::Type*>{f64(), f64()}));
    EXPECT_FALSE(resolve("compare", {strong(f64()), strong(types::float32_type())}, true));
}

}  // namespace
}  // namespace treadle::builtins
