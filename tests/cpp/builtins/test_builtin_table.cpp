// tests/cpp/builtins/test_builtin_table.cpp -- the builtin table's traits, lookups and signatures
#include <gtest/gtest.h>

#include <string>

#include "builtins/builtins.h"

namespace treadle::builtins {
namespace {

const Builtin& get(const char* name) {
    const Builtin* b = find_operator(name);
    if (!b) b = find_callee(name);
    EXPECT_NE(b, nullptr) << name;
    return *b;
}

TEST(BuiltinTable, KindsAndTraitsAgree) {
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        EXPECT_EQ(b.kind == BuiltinKind::Random, b.traits.rebinds == Rebinds::State);
        EXPECT_EQ(b.kind == BuiltinKind::Multi, b.traits.rebinds == Rebinds::Outputs);
        // tile builtins with several results (tile_stack_pop, tile_sort) are lowered by hand
        if (b.kind != BuiltinKind::Tile)
            EXPECT_EQ(b.kind == BuiltinKind::Multi, b.traits.results > 1);
        if (b.traits.rebinds == Rebinds::OutputLocals) EXPECT_EQ(b.kind, BuiltinKind::Regular);
        EXPECT_EQ(b.kind == BuiltinKind::Atomic, b.traits.atomic != AtomicOp::None);
        EXPECT_EQ(b.kind == BuiltinKind::Atomic, b.traits.value_operands > 0);
        if (b.kind == BuiltinKind::Operator) EXPECT_NE(b.traits.op, nullptr);
        EXPECT_EQ(b.traits.atomic == AtomicOp::None, atomic_adjoint(b) == AtomicAdjoint::None);
        if (b.kind == BuiltinKind::Internal) {
            EXPECT_FALSE(b.traits.callable);
            EXPECT_EQ(find_builtin(b.name), nullptr);
        }
        EXPECT_NE(std::string(b.doc), "");
        EXPECT_NE(b.traits.devices, 0);
    }
}

TEST(BuiltinTable, MultiResultCountsMatchTheirRules) {
    const types::Type* m3 = types::matrix_type(3, 3, ScalarType::Float32);
    for (const char* name : {"svd3", "qr3", "eig3"}) {
        const Builtin& b = get(name);
        auto sig = b.rule({{m3, false}});
        ASSERT_TRUE(sig) << name;
        EXPECT_EQ((int)sig->ret->elements.size(), b.traits.results) << name;
    }
}

TEST(BuiltinTable, CalleesFindTheirEntryWithoutTemplateArguments) {
    EXPECT_EQ(find_callee("vec_fill<3, float>"), &get("vec_fill"));
    EXPECT_EQ(find_callee("identity<4, double>")->name, std::string("identity"));
    EXPECT_EQ(find_callee("mul")->name, std::string("mul"));  // matmul shares its native
    EXPECT_EQ(find_callee("mat_from_rows")->name, std::string("matrix_from_rows"));
    EXPECT_EQ(find_callee("fn_user_3"), nullptr);
    EXPECT_EQ(find_builtin("extract"), nullptr);
    EXPECT_EQ(find_builtin("add"), nullptr);  // operators are not kernel names
}

TEST(BuiltinTable, SyntaxFindsItsOperator) {
    EXPECT_EQ(find_syntax_operator("+", 2), &get("add"));
    EXPECT_EQ(find_syntax_operator("+", 1), &get("pos"));
    EXPECT_EQ(find_syntax_operator("-", 1), &get("neg"));
    EXPECT_EQ(find_syntax_operator("**", 2), &get("pow"));
    EXPECT_EQ(find_syntax_operator("@", 2), &get("matmul"));
    EXPECT_EQ(find_syntax_operator("//", 2), &get("floordiv"));
    EXPECT_EQ(find_syntax_operator("~", 1), &get("invert"));
    EXPECT_EQ(find_syntax_operator("and", 2), nullptr);
}

TEST(BuiltinTable, LinearOperands) {
    EXPECT_TRUE(linear_in_operand(get("add"), 1, 2));
    EXPECT_FALSE(linear_in_operand(get("mul"), 0, 2));
    EXPECT_TRUE(linear_in_operand(get("extract"), 0, 3));
    EXPECT_FALSE(linear_in_operand(get("extract"), 1, 3));
    EXPECT_TRUE(linear_in_operand(get("with_component"), 2, 3));
    EXPECT_FALSE(linear_in_operand(get("with_component"), 1, 3));
    EXPECT_FALSE(linear_in_operand(get("vec_cast"), 0, 1));
}

TEST(BuiltinTable, AtomicTraits) {
    EXPECT_EQ(atomic_adjoint(get("atomic_add")), AtomicAdjoint::Add);
    EXPECT_EQ(atomic_adjoint(get("atomic_sub")), AtomicAdjoint::Subtract);
    EXPECT_EQ(atomic_adjoint(get("atomic_max")), AtomicAdjoint::MinMax);
    EXPECT_EQ(atomic_adjoint(get("atomic_exch")), AtomicAdjoint::Store);
    EXPECT_EQ(atomic_adjoint(get("atomic_cas")), AtomicAdjoint::Refused);
    EXPECT_EQ(get("atomic_cas").traits.value_operands, 2);
    EXPECT_TRUE(atomic_needs_word_scalars(get("atomic_exch")));
    EXPECT_FALSE(atomic_needs_word_scalars(get("atomic_add")));
}

TEST(BuiltinTable, SignaturesParseIntoParameters) {
    const auto& clamp = builtin_params(get("clamp"));
    ASSERT_EQ(clamp.size(), 3u);
    EXPECT_EQ(clamp[1].name, "low");
    EXPECT_EQ(clamp[1].type, "Scalar");
    EXPECT_EQ(builtin_returns(get("clamp")), "Scalar");

    const auto& randi = builtin_params(get("randi"));
    ASSERT_EQ(randi.size(), 3u);
    EXPECT_EQ(randi[0].default_value, "");
    EXPECT_EQ(randi[2].default_value, "...");

    const auto& curl = builtin_params(get("curlnoise"));
    ASSERT_EQ(curl.size(), 5u);
    EXPECT_EQ(curl[1].type, "vec2 | vec3 | vec4");
    EXPECT_EQ(curl[3].default_value, "2.0");

    const auto& cdf = builtin_params(get("sample_cdf"));
    ASSERT_EQ(cdf.size(), 2u);
    EXPECT_EQ(cdf[1].type, "array(dtype=float32)");
    EXPECT_EQ(cdf[1].default_value, "");

    const auto& rows = builtin_params(get("matrix_from_rows"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_TRUE(rows[0].variadic);
    EXPECT_EQ(rows[0].name, "rows");

    const auto& atomic = builtin_params(get("atomic_add"));
    ASSERT_EQ(atomic.size(), 3u);
    EXPECT_EQ(atomic[1].name, "i");
    EXPECT_TRUE(atomic[1].variadic);

    const auto& pnoise = builtin_params(get("pnoise"));
    ASSERT_EQ(pnoise.size(), 4u);
    EXPECT_TRUE(pnoise[3].variadic);
    EXPECT_EQ(pnoise[3].name, "");

    EXPECT_EQ(builtin_params(get("add")).size(), 2u);
    EXPECT_EQ(builtin_params(get("neg")).size(), 1u);
    EXPECT_EQ(builtin_params(get("compare")).size(), 2u);
    EXPECT_EQ(builtin_params(get("tid")).size(), 0u);
    EXPECT_EQ(builtin_returns(get("tid")), "int | tuple(int, ...)");
    EXPECT_EQ(builtin_returns(get("svd3")), "tuple(mat33, vec3, mat33)");
    EXPECT_EQ(builtin_returns(get("min")), "");
    EXPECT_EQ(builtin_returns(get("add")), "");
}

}  // namespace
}  // namespace treadle::builtins
