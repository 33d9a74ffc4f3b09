// tests/cpp/ir/test_ir.cpp -- the IR printer's text and verify() on hand-built functions
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../ir_build.h"
#include "ir/ir.h"
#include "types/types.h"

namespace treadle::ir {
namespace {

using types::array_type;
using types::bool_type;
using types::float32_type;
using types::int32_type;

/// Appends an instruction of `kind` at `line` with results `dsts` and operands `args` (also
/// malformed ones, which test::IrBuilder never builds).
Instr& add(Block& block, InstrKind kind, int line, std::vector<VarId> dsts,
           std::vector<VarId> args = {}) {
    block.emplace_back(kind, line);
    block.back().dsts = std::move(dsts);
    block.back().args = std::move(args);
    return block.back();
}

Instr& add_const(Function& f, Block& block, VarId dst, double value, int line) {
    Instr& in = add(block, InstrKind::Const, line, {dst});
    in.value = types::ConstValue{f.type_of(dst), false, (int64_t)value, value};
    return in;
}

/// kernel(x: array(float32), n: int32) with a tid, a load, an if/else and a loop:
///
///     i = wp.tid()
///     s = x[i]
///     if i < n: x[i] = 0.5
///     else: return
///     for j in range(0, n, 1): t = s
///     return
struct SampleKernel {
    Function f;
    VarId x, n, i, load, s, half, lt, zero, one, j, copy;

    SampleKernel() {
        test::IrBuilder b(f, "sample_0", true);
        f.name = "sample";
        x = b.param(array_type(float32_type(), 1), "x");
        n = b.param(int32_type(), "n");
        b.at_line(2);
        i = b.tid()[0];
        f.vars[i].hint = "i";
        b.at_line(3);
        load = b.load(x, {i});
        s = b.local("s", load);
        b.at_line(4);
        half = b.const_float(0.5);
        lt = b.compare("<", i, n);
        b.if_(
            lt, [&] { b.store(x, {i}, half); },
            [&] {
                b.at_line(5);
                b.return_();
            });
        b.at_line(6);
        zero = b.const_int(0);
        one = b.const_int(1);
        j = b.for_range(zero, n, one, [&](VarId) { copy = b.copy(s); });
        f.vars[j].hint = "j";
        f.vars[copy].hint = "t";
        b.at_line(7);
        b.return_();
    }
};

TEST(IrPrinter, PrintsTypesHintsNestingAndLines) {
    SampleKernel k;
    EXPECT_EQ(print(k.f),
              "kernel sample_0(%0.x:array(dtype=float32, ndim=1), %1.n:int32) -> None\n"
              "  %2.i:int32 = tid  # line 2\n"
              "  %3:float32 = load %0.x, %2.i  # line 3\n"
              "  %4.s:float32 = assign %3  # line 3\n"
              "  %5:float32 = const 0.5  # line 4\n"
              "  %6:bool = compare < %2.i, %1.n  # line 4\n"
              "  if %6  # line 4\n"
              "    store %0.x, %2.i, %5  # line 4\n"
              "  else\n"
              "    return  # line 5\n"
              "  end\n"
              "  %7:int32 = const 0  # line 6\n"
              "  %8:int32 = const 1  # line 6\n"
              "  %9.j:int32 = for_range %7, %1.n, %8  # line 6\n"
              "    %10.t:float32 = copy %4.s  # line 6\n"
              "  end\n"
              "  return  # line 7\n");
}

TEST(IrPrinter, FunctionsShowTheirReturnTypeAndProgramsEveryFunction) {
    Program p;
    auto fn = std::make_unique<Function>();
    fn->c_name = "fn_twice_0";
    fn->return_type = float32_type();
    VarId a = fn->new_var(float32_type(), "a");
    fn->vars[a].param = true;
    fn->params.push_back(a);
    VarId two = fn->new_var(float32_type());
    add_const(*fn, fn->body, two, 2.25, 1);
    add(fn->body, InstrKind::Return, 2, {}, {two});
    p.functions.push_back(std::move(fn));
    auto k = std::make_unique<Function>();
    k->c_name = "k_1";
    k->is_kernel = true;
    p.kernel = k.get();
    p.functions.push_back(std::move(k));
    EXPECT_EQ(print(p),
              "func fn_twice_0(%0.a:float32) -> float32\n"
              "  %1:float32 = const 2.25  # line 1\n"
              "  return %1  # line 2\n"
              "\n"
              "kernel k_1() -> None\n"
              "\n");
}

TEST(IrPrinter, EveryKindHasAName) {
    EXPECT_STREQ(instr_name(InstrKind::Const), "const");
    EXPECT_STREQ(instr_name(InstrKind::ForRange), "for_range");
    EXPECT_STREQ(instr_name(InstrKind::StoreField), "store_field");
    EXPECT_STREQ(instr_name(InstrKind::Return), "return");
}

TEST(IrVerify, AWellFormedFunctionPasses) {
    SampleKernel k;
    EXPECT_EQ(verify(k.f), "");
}

TEST(IrVerify, UseBeforeDefinition) {
    SampleKernel k;
    std::swap(k.f.body[0], k.f.body[1]);  // the load of x[i] before i = tid()
    EXPECT_EQ(verify(k.f), "load at line 3: operand %2 used before definition");
}

TEST(IrVerify, AnImmutableVariableDefinedTwice) {
    SampleKernel k;
    add(k.f.body, InstrKind::Tid, 8, {k.i});
    EXPECT_EQ(verify(k.f), "tid at line 8: %2 defined twice but not mutable");
}

TEST(IrVerify, AMutableVariableMayBeAssignedAgain) {
    SampleKernel k;
    add(k.f.body, InstrKind::Assign, 8, {k.s}, {k.half});
    EXPECT_EQ(verify(k.f), "");
}

TEST(IrVerify, OperandsAndResultsOutOfRange) {
    SampleKernel k;
    add(k.f.body, InstrKind::Copy, 8, {k.copy}, {99});
    EXPECT_EQ(verify(k.f), "copy at line 8: operand %99 out of range");

    SampleKernel r;
    add(r.f.body, InstrKind::Copy, 8, {42}, {r.s});
    EXPECT_EQ(verify(r.f), "copy at line 8: result %42 out of range");
}

TEST(IrVerify, OutOfRangeOperandsOfTypedKindsAreReportedNotRead) {
    // The kind checks look at operand types; an operand outside the function's variables is
    // reported as such instead.
    SampleKernel a;
    add(a.f.body, InstrKind::Load, 8, {a.copy}, {1000, a.i});
    EXPECT_EQ(verify(a.f), "load at line 8: operand %1000 out of range");

    SampleKernel b;
    add(b.f.body, InstrKind::Assign, 8, {1000}, {b.half});
    EXPECT_EQ(verify(b.f), "assign at line 8: result %1000 out of range");

    SampleKernel c;
    add(c.f.body, InstrKind::Field, 8, {c.copy}, {1000}).text = "x";
    EXPECT_EQ(verify(c.f), "field at line 8: operand %1000 out of range");

    SampleKernel d;
    add(d.f.body, InstrKind::WithField, 8, {1000}, {d.s, d.half}).text = "x";
    EXPECT_EQ(verify(d.f), "with_field at line 8: result %1000 out of range");

    SampleKernel e;  // a variable without a type
    e.f.vars[e.copy].type = nullptr;
    EXPECT_EQ(verify(e.f), "copy at line 6: result %10 has no type");

    SampleKernel g;
    g.f.params.push_back(77);
    EXPECT_EQ(verify(g.f), "parameter %77 out of range");
}

TEST(IrVerify, OperandCounts) {
    SampleKernel k;
    Instr& loop = k.f.body[8];
    ASSERT_EQ(loop.kind, InstrKind::ForRange);
    loop.args.pop_back();
    EXPECT_EQ(verify(k.f), "for_range at line 6: expected 3 operands");

    SampleKernel s;
    add(s.f.body, InstrKind::Select, 8, {s.copy}, {s.lt, s.half});
    EXPECT_EQ(verify(s.f), "select at line 8: expected 3 operands");
}

TEST(IrVerify, BreakAndContinueOnlyInsideLoops) {
    SampleKernel k;
    add(k.f.body[5].body, InstrKind::Break, 4, {});  // in the if, not in a loop
    EXPECT_EQ(verify(k.f), "break at line 4: outside a loop");

    SampleKernel ok;
    add(ok.f.body[8].body, InstrKind::Continue, 6, {});  // in the for loop
    EXPECT_EQ(verify(ok.f), "");

    SampleKernel nested;  // a loop's break inside an if inside the loop is fine
    Instr& inner_if = add(nested.f.body[8].body, InstrKind::If, 6, {}, {nested.lt});
    add(inner_if.body, InstrKind::Break, 6, {});
    EXPECT_EQ(verify(nested.f), "");
}

TEST(IrVerify, AssignRules) {
    SampleKernel k;
    add(k.f.body, InstrKind::Assign, 8, {k.load}, {k.half});
    EXPECT_EQ(verify(k.f), "assign at line 8: assign to an immutable variable");

    SampleKernel t;
    add(t.f.body, InstrKind::Assign, 8, {t.s}, {t.i});
    EXPECT_EQ(verify(t.f), "assign at line 8: assign between different types");
}

TEST(IrVerify, MemoryAccessNeedsAnArray) {
    SampleKernel k;
    add(k.f.body, InstrKind::Store, 8, {}, {k.s, k.i, k.half});
    EXPECT_EQ(verify(k.f), "store at line 8: first operand must be an array");

    SampleKernel f;
    add(f.f.body, InstrKind::Field, 8, {f.copy}, {f.s}).text = "x";
    EXPECT_EQ(verify(f.f), "field at line 8: field of a value that is not a struct");
}

TEST(IrVerify, MissingPiecesOfCallsAndConstants) {
    SampleKernel k;
    add(k.f.body, InstrKind::CallFunc, 8, {k.copy}, {k.s});
    EXPECT_EQ(verify(k.f), "call_func at line 8: call without target");

    SampleKernel c;
    add(c.f.body, InstrKind::Const, 8, {c.copy});  // value.type left null
    EXPECT_EQ(verify(c.f), "const at line 8: constant without type");

    SampleKernel r;
    add(r.f.body, InstrKind::Call, 8, {}, {r.s}).callee = "sin";
    EXPECT_EQ(verify(r.f), "call at line 8: call needs a result");
}

TEST(IrVerify, ReportsTheFirstProblemOnly) {
    SampleKernel k;
    add(k.f.body, InstrKind::Break, 8, {});
    add(k.f.body, InstrKind::Copy, 9, {k.copy}, {99});
    EXPECT_EQ(verify(k.f), "break at line 8: outside a loop");
}

}  // namespace
}  // namespace treadle::ir
