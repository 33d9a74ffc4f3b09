// tests/cpp/builtins/test_table_entries.cpp -- every entry of the builtin table, checked for
// consistency: signatures parse, traits agree with kinds, lookups find the entry itself
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "builtins/builtins.h"

namespace treadle::builtins {
namespace {

/// Whether `b` documents a call signature `name(...)` (operators document their syntax).
bool has_call_signature(const Builtin& b) {
    const std::string sig = b.signature;
    return sig.rfind(std::string(b.name) + "(", 0) == 0;
}

TEST(BuiltinTableEntries, EveryEntryIsComplete) {
    ASSERT_FALSE(builtin_table().empty());
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        ASSERT_NE(b.name, nullptr);
        ASSERT_NE(b.native, nullptr);
        ASSERT_NE(b.group, nullptr);
        ASSERT_NE(b.signature, nullptr);
        ASSERT_NE(b.doc, nullptr);
        EXPECT_NE(std::string(b.name), "");
        EXPECT_NE(std::string(b.native), "");
        EXPECT_NE(std::string(b.group), "");
        EXPECT_NE(std::string(b.signature), "");
    }
}

TEST(BuiltinTableEntries, EverySignatureParses) {
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.signature);
        const std::vector<Param>& params = builtin_params(b);
        if (b.kind == BuiltinKind::Operator && !has_call_signature(b)) {
            // "a + b", "-a": one parameter per distinct operand
            EXPECT_GE(params.size(), 1u);
            EXPECT_LE(params.size(), 2u);
            EXPECT_EQ(builtin_returns(b), "");
            continue;
        }
        if (b.kind == BuiltinKind::Compare) continue;  // "a < b, a == b, ..." documents syntax
        EXPECT_TRUE(has_call_signature(b));
        std::set<std::string> names;
        for (const Param& p : params) {
            // Only a "..." (any number more of the one before) has no name.
            if (p.name.empty()) {
                EXPECT_TRUE(p.variadic);
                EXPECT_NE(&p, &params.front());
                continue;
            }
            EXPECT_TRUE(names.insert(p.name).second) << "parameter " << p.name << " twice";
        }
        // A documented default comes after every required parameter.
        bool optional = false;
        for (const Param& p : params) {
            if (!p.default_value.empty()) optional = true;
            if (optional && !p.variadic) EXPECT_NE(p.default_value, "") << p.name;
        }
        // Parsing is memoised: the same vector every time.
        EXPECT_EQ(&builtin_params(b), &params);
    }
}

TEST(BuiltinTableEntries, KindsThatResolveByRuleHaveOne) {
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        switch (b.kind) {
            case BuiltinKind::Regular:
            case BuiltinKind::Operator:
            case BuiltinKind::Compare:
            case BuiltinKind::Random:
            case BuiltinKind::Multi:
                EXPECT_NE(b.rule, nullptr);
                break;
            case BuiltinKind::Tid:
            case BuiltinKind::Print:
            case BuiltinKind::Printf:
            case BuiltinKind::Atomic:
            case BuiltinKind::Cast:
            case BuiltinKind::Len:
            case BuiltinKind::Where:
            case BuiltinKind::Identity:
            case BuiltinKind::Internal:
                EXPECT_EQ(b.rule, nullptr);  // lowered by dedicated inference code
                break;
        }
    }
}

TEST(BuiltinTableEntries, AtomicsHaveValueOperandsAndAnAdjoint) {
    int atomics = 0;
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        if (b.traits.atomic == AtomicOp::None) {
            EXPECT_EQ(b.traits.value_operands, 0);
            EXPECT_EQ(atomic_adjoint(b), AtomicAdjoint::None);
            continue;
        }
        ++atomics;
        EXPECT_EQ(b.kind, BuiltinKind::Atomic);
        EXPECT_GE(b.traits.value_operands, 1);
        EXPECT_LE(b.traits.value_operands, 2);
        EXPECT_NE(atomic_adjoint(b), AtomicAdjoint::None);
        EXPECT_EQ(b.differentiable, atomic_adjoint(b) != AtomicAdjoint::Refused);
        // The documented signature: the array, its indices, then the value operands.
        const std::vector<Param>& params = builtin_params(b);
        ASSERT_EQ(params.size(), 2u + (size_t)b.traits.value_operands);
        EXPECT_EQ(params[0].name, "a");
        EXPECT_TRUE(params[1].variadic);
    }
    EXPECT_EQ(atomics, 9);
}

TEST(BuiltinTableEntries, LinearEntriesAreDifferentiable) {
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        if (b.traits.linear != Linearity::None) EXPECT_TRUE(b.differentiable);
        if (b.traits.linear == Linearity::None) {
            for (size_t i = 0; i < 4; ++i) EXPECT_FALSE(linear_in_operand(b, i, 4));
        }
    }
}

TEST(BuiltinTableEntries, CallableBuiltinsAreDocumented) {
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        if (!b.traits.callable) continue;
        // `wp.<name>(...)` shows in the stubs and the reference: it needs a real description.
        EXPECT_GE(std::string(b.doc).size(), 20u);
        EXPECT_NE(b.kind, BuiltinKind::Internal);
    }
}

TEST(BuiltinTableEntries, NamesAreUniquePerSignature) {
    std::set<std::pair<std::string, std::string>> seen;
    for (const Builtin& b : builtin_table())
        EXPECT_TRUE(seen.emplace(b.name, b.signature).second)
            << b.name << " is declared twice with the signature " << b.signature;
}

TEST(BuiltinTableEntries, LookupByNameGivesTheEntryItself) {
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        EXPECT_EQ(find_entry(b.name), &b);
        EXPECT_EQ(&table_entry(b.name), &b);
        const bool kernel_name = b.kind != BuiltinKind::Operator &&
                                 b.kind != BuiltinKind::Compare && b.kind != BuiltinKind::Internal;
        EXPECT_EQ(find_builtin(b.name), kernel_name ? &b : nullptr);
        EXPECT_EQ(find_operator(b.name), b.kind == BuiltinKind::Internal ? nullptr : &b);
        // By native name: this entry, or an earlier one sharing the native (matmul and mul).
        const Builtin* by_native = find_callee(b.native);
        ASSERT_NE(by_native, nullptr);
        EXPECT_EQ(std::string(by_native->native), b.native);
        EXPECT_LE(by_native, &b);
    }
    EXPECT_EQ(find_entry("no_such_builtin"), nullptr);
    EXPECT_EQ(find_builtin("no_such_builtin"), nullptr);
    EXPECT_EQ(find_operator("no_such_builtin"), nullptr);
}

TEST(BuiltinTableEntries, OperatorSpellingsFindAnEntryWithThatSpelling) {
    for (const Builtin& b : builtin_table()) {
        if (!b.traits.op) continue;
        SCOPED_TRACE(b.name);
        const Builtin* found = find_syntax_operator(b.traits.op, builtin_params(b).size());
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(std::string(found->traits.op), b.traits.op);
        EXPECT_EQ(builtin_params(*found).size(), builtin_params(b).size());
    }
}

TEST(BuiltinTableEntries, RebindingTraitsMatchTheirKinds) {
    for (const Builtin& b : builtin_table()) {
        SCOPED_TRACE(b.name);
        EXPECT_EQ(builtin_writes_arguments(b), b.traits.rebinds != Rebinds::None);
        if (b.traits.rebinds == Rebinds::State) {
            // The generator state comes first.
            ASSERT_FALSE(builtin_params(b).empty());
            EXPECT_EQ(builtin_params(b)[0].name, "state");
        }
        if (b.traits.writes_last_array) EXPECT_EQ(builtin_returns(b), "None");
    }
}

}  // namespace
}  // namespace treadle::builtins
