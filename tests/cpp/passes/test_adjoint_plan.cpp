// tests/cpp/passes/test_adjoint_plan.cpp -- the adjoint plan of hand-built IR (no parser, no
// compiler)
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../ir_build.h"
#include "passes/adjoint_plan.h"
#include "treadle/error.h"

namespace {

using treadle::Error;
using treadle::ErrorKind;
using treadle::ir::Function;
using treadle::ir::Instr;
using treadle::ir::InstrKind;
using treadle::ir::VarId;
using treadle::passes::AdjointPlan;
using treadle::passes::CallAdjoint;
using treadle::passes::LoopStrategy;
using treadle::passes::plan_adjoint;
using treadle::test::IrBuilder;
namespace types = treadle::types;

const types::Type* f32() { return types::float32_type(); }
const types::Type* i32() { return types::int32_type(); }
const types::Type* farray(int ndim = 1) { return types::array_type(f32(), ndim); }

/// Plans `f` after checking that the hand-built IR is valid.
/// A fresh variable of type `t` in the kernel of `program`.
VarId kernel_var(treadle::ir::Program& program, const types::Type* t) {
    return program.kernel->new_var(t);
}

AdjointPlan plan(const Function& f) {
    std::string problem = treadle::ir::verify(f);
    EXPECT_EQ(problem, "");
    return plan_adjoint(f);
}

/// The instructions of `kind` in `p`, in pre-order.
std::vector<const Instr*> of_kind(const AdjointPlan& p, InstrKind kind) {
    std::vector<const Instr*> found;
    for (const Instr* in : p.instrs)
        if (in->kind == kind) found.push_back(in);
    return found;
}

/// Builds `for k in range(x.shape[0]): s = <update>(s, x[k])`; returns the carried s.
VarId loop_over(IrBuilder& b, VarId x, VarId s, const std::string& update) {
    VarId n = b.shape(x, 0);
    b.for_range(b.const_int(0), n, b.const_int(1), [&](VarId counter) {
        VarId xk = b.load(x, {b.copy(counter)});
        VarId f = update == "add" ? b.call("sin", f32(), {xk}) : xk;
        b.assign(s, b.call(update, f32(), {s, f}));
    });
    return s;
}

TEST(AdjointPlan, AccumulatingLoopNeedsNoCarriedValues) {
    // s += sin(x[k]): add is linear in s, so the reverse never needs s's value
    Function f;
    IrBuilder b(f, "accumulate", true);
    VarId x = b.param(farray(), "x"), out = b.param(farray(), "out");
    VarId i = b.tid()[0];
    VarId s = b.local("s", b.const_float(0.0));
    loop_over(b, x, s, "add");
    b.store(out, {i}, s);
    AdjointPlan p = plan(f);
    ASSERT_EQ(p.loops.size(), 1u);
    EXPECT_EQ(p.loops[0].carried, std::vector<VarId>{s});
    EXPECT_EQ(p.loops[0].strategy, LoopStrategy::None);
    EXPECT_EQ(p.instrs[p.loops[0].instr]->kind, InstrKind::ForRange);
    // the two assignments (entry and update) each keep the value they overwrite
    EXPECT_EQ(p.saves, (std::vector<VarId>{s, s}));
    std::vector<const Instr*> assigns = of_kind(p, InstrKind::Assign);
    ASSERT_EQ(assigns.size(), 2u);
    EXPECT_EQ(p.at(*assigns[0]).save, 0);
    EXPECT_EQ(p.at(*assigns[1]).save, 1);
}

TEST(AdjointPlan, NonlinearOverwriteRestoresCarriedValuesInStaticAndDynamicLoops) {
    // s = s * x[k]: mul's adjoint needs s. A loop of at most 16 trips restores it from the
    // history, a longer one recomputes: both paths are printed, the trip count picks one.
    EXPECT_EQ(treadle::passes::k_adjoint_history, 16);
    for (bool dynamic : {false, true}) {
        Function f;
        IrBuilder b(f, "product", true);
        VarId x = b.param(farray(), "x"), out = b.param(farray(), "out");
        VarId i = b.tid()[0];
        VarId s = b.local("s", b.const_float(1.0));
        VarId hi = dynamic ? b.shape(x, 0) : b.const_int(4);
        b.for_range(b.const_int(0), hi, b.const_int(1), [&](VarId counter) {
            b.assign(s, b.call("mul", f32(), {s, b.load(x, {b.copy(counter)})}));
        });
        b.store(out, {i}, s);
        AdjointPlan p = plan(f);
        ASSERT_EQ(p.loops.size(), 1u);
        EXPECT_EQ(p.loops[0].carried, std::vector<VarId>{s});
        EXPECT_EQ(p.loops[0].strategy, LoopStrategy::Restore) << "dynamic=" << dynamic;
    }
}

TEST(AdjointPlan, CarriedIndexOrConditionNeedsItsValue) {
    // j = j + 1 then x[j]: the index's primal value matters; taint flows through add to it
    Function f;
    IrBuilder b(f, "walk", true);
    VarId x = b.param(farray(), "x"), out = b.param(farray(), "out");
    VarId i = b.tid()[0];
    VarId j = b.local("j", b.const_int(0));
    VarId s = b.local("s", b.const_float(0.0));
    b.loop([&] {
        VarId next = b.call("add", i32(), {j, b.const_int(1)});
        b.assign(s, b.call("add", f32(), {s, b.load(x, {next})}));
        b.assign(j, next);
        b.if_(b.compare(">", j, b.const_int(8)), [&] { b.break_(); });
    });
    b.store(out, {i}, s);
    AdjointPlan p = plan(f);
    ASSERT_EQ(p.loops.size(), 1u);
    EXPECT_EQ(p.loops[0].carried, (std::vector<VarId>{s, j}));  // order of first assignment
    EXPECT_EQ(p.loops[0].strategy, LoopStrategy::Restore);
}

/// The strategy of `while True: s = <body>(s); break-if` in a kernel over `x`, where `body`
/// computes the new s from the carried one.
LoopStrategy strategy_of(const std::function<VarId(IrBuilder&, VarId x, VarId s)>& body) {
    Function f;
    IrBuilder b(f, "taint", true);
    VarId x = b.param(farray(), "x"), out = b.param(farray(), "out");
    VarId i = b.tid()[0];
    VarId s = b.local("s", b.const_float(0.0));
    b.loop([&] {
        b.assign(s, body(b, x, s));
        b.if_(b.compare(">", i, b.const_int(3)), [&] { b.break_(); });
    });
    b.store(out, {i}, s);
    AdjointPlan p = plan(f);
    EXPECT_EQ(p.loops.size(), 1u);
    return p.loops.empty() ? LoopStrategy::None : p.loops[0].strategy;
}

TEST(AdjointPlan, TaintNeedsPrimalOnlyWhereTheAdjointReadsTheValue) {
    // linear uses: sums, negation, a stored value, a float-to-float cast, a select's branches
    EXPECT_EQ(strategy_of([](IrBuilder& b, VarId, VarId s) {
                  return b.call("neg", f32(), {b.call("sub", f32(), {s, b.const_float(1.0)})});
              }),
              LoopStrategy::None);
    EXPECT_EQ(strategy_of([](IrBuilder& b, VarId x, VarId s) {
                  b.store(x, {b.const_int(0)}, s);
                  return b.cast(b.cast(s, types::scalar_type(treadle::ScalarType::Float64)), f32());
              }),
              LoopStrategy::None);
    EXPECT_EQ(strategy_of([](IrBuilder& b, VarId, VarId s) {
                  VarId c = b.compare(">", b.const_float(1.0), b.const_float(0.0));
                  VarId sel = b.value(InstrKind::Select, f32(), {c, s, b.const_float(2.0)});
                  return sel;
              }),
              LoopStrategy::None);
    // uses that read it: a nonlinear builtin, a float-to-int cast, a select's condition, an
    // array index
    EXPECT_EQ(strategy_of([](IrBuilder& b, VarId, VarId s) { return b.call("sin", f32(), {s}); }),
              LoopStrategy::Restore);
    EXPECT_EQ(
        strategy_of([](IrBuilder& b, VarId, VarId s) { return b.cast(b.cast(s, i32()), f32()); }),
        LoopStrategy::Restore);
    EXPECT_EQ(strategy_of([](IrBuilder& b, VarId, VarId s) {
                  VarId c = b.compare(">", s, b.const_float(0.0));
                  return b.value(InstrKind::Select, f32(), {c, s, b.const_float(2.0)});
              }),
              LoopStrategy::Restore);
    EXPECT_EQ(strategy_of([](IrBuilder& b, VarId x, VarId s) {
                  b.store(x, {b.cast(s, i32())}, b.const_float(1.0));
                  return s;
              }),
              LoopStrategy::Restore);
}

TEST(AdjointPlan, NestedLoopsCarryInnerAssignmentsAndNumberInPreOrder) {
    Function f;
    IrBuilder b(f, "nested", true);
    VarId x = b.param(farray(), "x"), out = b.param(farray(), "out");
    VarId i = b.tid()[0];
    VarId s = b.local("s", b.const_float(0.0));
    VarId t = b.local("t", b.const_float(0.0));
    VarId n = b.shape(x, 0);
    b.for_range(b.const_int(0), n, b.const_int(1), [&](VarId) {
        b.assign(t, b.call("add", f32(), {t, b.const_float(1.0)}));
        b.for_range(b.const_int(0), n, b.const_int(1), [&](VarId k) {
            b.assign(s, b.call("add", f32(), {s, b.load(x, {b.copy(k)})}));
        });
    });
    b.store(out, {i}, s);
    AdjointPlan p = plan(f);
    ASSERT_EQ(p.loops.size(), 2u);
    EXPECT_EQ(p.loops[0].carried, (std::vector<VarId>{t, s}));
    EXPECT_EQ(p.loops[1].carried, std::vector<VarId>{s});
    EXPECT_LT(p.loops[0].instr, p.loops[1].instr);
    EXPECT_EQ(p.saves, (std::vector<VarId>{s, t, t, s}));
    for (size_t id = 0; id < p.instrs.size(); ++id) EXPECT_EQ(p.id_of(*p.instrs[id]), id);
}

TEST(AdjointPlan, ArraysAccessedOnlyAtTheThreadIndexAreOwned) {
    Function f;
    IrBuilder b(f, "own", true);
    VarId x = b.param(farray(), "x"), y = b.param(farray(), "y");
    VarId z = b.param(farray(), "z"), w = b.param(farray(), "w");
    VarId d = b.param(farray(), "d");
    VarId ix = b.param(types::indexedarray_type(f32(), 1), "ix");
    VarId scale = b.param(f32(), "scale");
    VarId i = b.tid()[0];
    VarId ii = b.copy(i);
    VarId v = b.call("mul", f32(), {b.load(x, {i}), scale});
    b.store(y, {ii}, v);
    VarId next = b.call("add", i32(), {i, b.const_int(1)});
    b.store(y, {i}, b.load(z, {next}));      // z read at another index: not owned
    b.call("atomic_add", f32(), {w, i, v});  // an atomic at the thread's index: owned
    b.store(d, {i}, b.load(ix, {i}));
    b.shape(d, 0);  // any other use of an array (here its shape) disqualifies it
    AdjointPlan p = plan(f);
    EXPECT_EQ(p.owned_arrays, (std::vector<VarId>{x, y, w}));
    EXPECT_TRUE(p.owned(x));
    EXPECT_FALSE(p.owned(z));
    EXPECT_FALSE(p.owned(d));
    EXPECT_FALSE(p.owned(ix));  // an indexed array may map two threads to one element
    EXPECT_FALSE(p.owned(scale));
}

TEST(AdjointPlan, TwoDimensionalOwnershipNeedsEveryIndexInOrder) {
    Function f;
    IrBuilder b(f, "grid", true);
    VarId a = b.param(farray(2), "a"), t = b.param(farray(2), "t");
    VarId c = b.param(farray(1), "c");
    std::vector<VarId> ij = b.tid(2);
    b.store(a, {ij[0], ij[1]}, b.load(t, {ij[1], ij[0]}));  // t transposed: not owned
    b.store(c, {ij[0]}, b.const_float(1.0));                // one unpacked index: not flat
    AdjointPlan p = plan(f);
    EXPECT_EQ(p.owned_arrays, std::vector<VarId>{a});
}

TEST(AdjointPlan, UserFunctionsOwnNothingAndKeepGradientFlags) {
    Function f;
    IrBuilder b(f, "helper", false);
    VarId x = b.param(farray(), "x"), k = b.param(i32(), "k"), s = b.param(f32(), "s");
    b.store(x, {k}, s);
    AdjointPlan p = plan(f);
    EXPECT_TRUE(p.owned_arrays.empty());
    EXPECT_FALSE(p.owned(x));
    EXPECT_TRUE(p.gradient(s));
    EXPECT_FALSE(p.gradient(k));
    EXPECT_TRUE(p.adjoint_slot(k));  // integers get a slot for the adj_ functions' indices
    EXPECT_FALSE(p.adjoint_slot(x));
    EXPECT_FALSE(p.gradient(x));
}

TEST(AdjointPlan, CallsAreReversedByKind) {
    Function f;
    IrBuilder b(f, "calls", true);
    VarId x = b.param(farray(), "x"), n = b.param(types::array_type(i32(), 1), "n");
    VarId i = b.tid()[0];
    VarId v = b.load(x, {i});
    b.call("sin", f32(), {v});
    b.call("add", i32(), {i, i});
    b.call("isnan", types::bool_type(), {v});
    b.call("atomic_add", f32(), {x, i, v});
    b.call("atomic_sub", f32(), {x, i, v});
    b.call("atomic_exch", f32(), {x, i, v});
    b.call("atomic_max", f32(), {x, i, v});
    b.call("atomic_add", i32(), {n, i, i});  // integers: no gradient
    b.call("spatial_jacobian", i32(), {x, n, x});
    AdjointPlan p = plan(f);
    std::vector<CallAdjoint> got;
    for (const Instr* in : of_kind(p, InstrKind::Call)) got.push_back(p.at(*in).call);
    EXPECT_EQ(got, (std::vector<CallAdjoint>{
                       CallAdjoint::Builtin, CallAdjoint::None, CallAdjoint::None,
                       CallAdjoint::AtomicAdd, CallAdjoint::AtomicSub, CallAdjoint::AtomicExch,
                       CallAdjoint::AtomicMinMax, CallAdjoint::None, CallAdjoint::ArrayWriter}));
}

TEST(AdjointPlan, BuiltinFactsFromTheTable) {
    using treadle::builtins::find_callee;
    EXPECT_EQ(find_callee("atomic_cas")->traits.value_operands, 2);
    EXPECT_LE(find_callee("atomic_add")->traits.value_operands, 1);  // 0 means one value
    EXPECT_TRUE(find_callee("sin")->differentiable);
    EXPECT_FALSE(find_callee("isnan")->differentiable);
    EXPECT_TRUE(find_callee("vec_fill<3, float>")->differentiable);  // generated by sema
    Instr extract(InstrKind::Call, 1);
    extract.builtin = treadle::builtins::find_callee("extract");
    extract.args = {0, 1};
    EXPECT_TRUE(treadle::passes::linear_operand(extract, 0));
    EXPECT_FALSE(treadle::passes::linear_operand(extract, 1));  // the index
}

TEST(AdjointPlan, LabelsFollowTheOrderThePrinterReachesJumps) {
    // returns in pre-order first; then loops as the reverse code reaches them (last first),
    // each loop's own breaks and continues before those of the loops nested in it
    Function f;
    IrBuilder b(f, "jumps", true);
    VarId x = b.param(farray(), "x");
    VarId i = b.tid()[0];
    VarId c = b.compare(">", i, b.const_int(3));
    VarId n = b.shape(x, 0);
    b.if_(c, [&] { b.return_(); });  // return A
    b.for_range(b.const_int(0), n, b.const_int(1), [&](VarId) {
        b.if_(c, [&] { b.break_(); });  // B1
        b.continue_();                  // C1
    });
    b.for_range(b.const_int(0), n, b.const_int(1), [&](VarId) {
        b.loop([&] { b.break_(); });    // B3 (inner loop)
        b.if_(c, [&] { b.break_(); });  // B2
    });
    b.return_();  // return D
    AdjointPlan p = plan(f);
    auto labels = [&](InstrKind kind) {
        std::vector<int> got;
        for (const Instr* in : of_kind(p, kind)) got.push_back(p.at(*in).label);
        return got;
    };
    EXPECT_EQ(labels(InstrKind::Return), (std::vector<int>{0, 1}));
    EXPECT_EQ(labels(InstrKind::Break), (std::vector<int>{4, 3, 2}));  // B1, B3, B2
    EXPECT_EQ(labels(InstrKind::Continue), std::vector<int>{5});
    EXPECT_EQ(p.labels, 6);
}

/// `def early_exit(x):` on line 10 of k.py, with its return on line 13.
std::shared_ptr<const treadle::ast::SourceFile> early_exit_source() {
    return treadle::ast::make_source("k.py",
                                     "def early_exit(x):\n"
                                     "    for k in range(x.shape[0]):\n"
                                     "        if x[k] > 0.0:\n"
                                     "            return\n",
                                     10);
}

/// The refusal plan_adjoint(f) throws (fails the test when it throws none).
Error refusal(const Function& f) {
    EXPECT_EQ(treadle::ir::verify(f), "");
    try {
        plan_adjoint(f);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no refusal";
    return Error(ErrorKind::Runtime, "");
}

TEST(AdjointPlan, ReturnInsideADynamicLoopIsRefusedAtItsLine) {
    Function f;
    IrBuilder b(f, "early_exit", true);
    f.source = early_exit_source();
    VarId x = b.param(farray(), "x");
    b.at_line(11);
    b.loop([&] {
        b.at_line(12);
        VarId c = b.compare(">", b.load(x, {b.const_int(0)}), b.const_float(0.0));
        b.at_line(13);
        b.if_(c, [&] { b.return_(); });
        b.break_();
    });
    Error e = refusal(f);
    EXPECT_EQ(e.kind(), ErrorKind::Compile);
    EXPECT_EQ(e.message(),
              "early_exit(): cannot differentiate a return inside a loop (the backward pass "
              "reverses whole loop iterations); set a flag and break out of the loop instead");
    EXPECT_EQ(e.where().file, "k.py");
    EXPECT_EQ(e.where().line, 13);
    EXPECT_EQ(e.where().col, 13);
    EXPECT_EQ(e.where().line_text, "            return");
}

TEST(AdjointPlan, ReturnOutsideLoopsIsAccepted) {
    Function f;
    IrBuilder b(f, "guarded", true);
    VarId x = b.param(farray(), "x");
    VarId i = b.tid()[0];
    b.if_(b.compare("<", i, b.const_int(0)), [&] { b.return_(); });
    b.store(x, {i}, b.const_float(2.0));
    AdjointPlan p = plan(f);
    EXPECT_EQ(p.labels, 1);
    EXPECT_TRUE(p.differentiated);
}

TEST(AdjointPlan, UsingTheValueAnAtomicReturnsIsRefused) {
    Function f;
    IrBuilder b(f, "slots", true);
    VarId out = b.param(farray(), "out"), x = b.param(farray(), "x");
    VarId i = b.tid()[0];
    b.at_line(3);
    VarId slot = b.call("atomic_add", f32(), {out, b.const_int(0), b.const_float(1.0)});
    b.at_line(4);
    b.store(out, {b.cast(slot, i32())}, b.load(x, {i}));
    Error e = refusal(f);
    EXPECT_EQ(e.message(),
              "slots(): cannot differentiate code that uses the value atomic_add() returns (the "
              "generated backward replay of consumed-return counter atomics cannot recover it); "
              "compute the slot in a separate kernel that is not recorded");
    EXPECT_EQ(e.where().line, 0);  // no source attached: no location
}

TEST(AdjointPlan, AnIntegerAtomicResultKeptOutOfGradientsIsAccepted) {
    // a counter slot stored in an int array: no gradient depends on it
    Function f;
    IrBuilder b(f, "counter", true);
    VarId counter = b.param(types::array_type(i32(), 1), "counter");
    VarId slots = b.param(types::array_type(i32(), 1), "slots");
    VarId x = b.param(farray(), "x"), out = b.param(farray(), "out");
    VarId i = b.tid()[0];
    VarId slot = b.call("atomic_add", i32(), {counter, b.const_int(0), b.const_int(1)});
    b.store(slots, {i}, slot);
    b.store(out, {i}, b.load(x, {i}));
    EXPECT_TRUE(plan(f).differentiated);
}

TEST(AdjointPlan, AnIntegerAtomicResultUsedAsAGradientIndexIsRefused) {
    Function f;
    IrBuilder b(f, "scatter", true);
    VarId counter = b.param(types::array_type(i32(), 1), "counter");
    VarId x = b.param(farray(), "x"), out = b.param(farray(), "out");
    VarId i = b.tid()[0];
    VarId slot = b.call("atomic_add", i32(), {counter, b.const_int(0), b.const_int(1)});
    b.store(out, {b.copy(slot)}, b.load(x, {i}));
    Error e = refusal(f);
    EXPECT_NE(e.message().find("scatter(): cannot differentiate code that uses the value "
                               "atomic_add() returns"),
              std::string::npos);
}

TEST(AdjointPlan, AtomicCasOnFloatsIsRefusedButNotOnIntegers) {
    for (const types::Type* t : {f32(), i32()}) {
        Function f;
        IrBuilder b(f, "cas_store", true);
        VarId a = b.param(types::array_type(t, 1), "a");
        VarId i = b.tid()[0];
        VarId v = t == f32() ? b.const_float(1.0) : b.const_int(1);
        VarId w = t == f32() ? b.const_float(2.0) : b.const_int(2);
        b.call("atomic_cas", t, {a, i, v, w});
        if (t == i32()) {
            AdjointPlan p = plan(f);
            EXPECT_EQ(p.at(*of_kind(p, InstrKind::Call)[0]).call, CallAdjoint::None);
            EXPECT_EQ(p.owned_arrays, std::vector<VarId>{a});  // both value operands skipped
            continue;
        }
        EXPECT_EQ(refusal(f).message(),
                  "cas_store(): cannot differentiate atomic_cas on an array of floats (whether "
                  "it stores depends on the value found there); use it on integer arrays, or "
                  "leave the kernel out of the tape");
    }
}

TEST(AdjointPlan, GradientHelpersAreNotPlanned) {
    // a @wp.func_grad is used as is: never analysed, so never refused
    Function f;
    IrBuilder b(f, "my_grad", false);
    f.grad_helper = true;
    b.loop([&] { b.return_(); });
    AdjointPlan p = plan_adjoint(f);
    EXPECT_FALSE(p.differentiated);
    EXPECT_TRUE(p.instrs.empty());
}

TEST(AdjointPlan, ProgramPlansUserFunctionsFirstThenTheKernel) {
    treadle::ir::Program program;
    auto kernel = std::make_unique<Function>();
    auto helper = std::make_unique<Function>();
    {
        IrBuilder b(*kernel, "main_kernel", true);
        b.tid();
    }
    {
        IrBuilder b(*helper, "bad_helper", false);
        b.loop([&] { b.return_(); });
    }
    program.kernel = kernel.get();
    program.functions.push_back(std::move(kernel));  // listed first, still planned last
    program.functions.push_back(std::move(helper));
    try {
        treadle::passes::plan_adjoint(program);
        ADD_FAILURE() << "no refusal";
    } catch (const Error& e) {
        EXPECT_EQ(e.message().rfind("bad_helper(): cannot differentiate a return inside a loop", 0),
                  0u);
    }
    program.functions[1]->body[0].body.clear();  // the helper's loop without its return
    program.functions[1]->body[0].body.emplace_back(InstrKind::Break, 1);
    treadle::passes::ProgramAdjointPlan plans = treadle::passes::plan_adjoint(program);
    ASSERT_EQ(plans.functions.size(), 2u);
    EXPECT_EQ(plans.functions[0].function, program.functions[1].get());
    EXPECT_EQ(&plans.of(*program.kernel), &plans.functions[1]);
}

TEST(AdjointPlan, ForwardBuildsPlanTheFunctionsGradDifferentiatesAndTheirCallees) {
    // inner <- outer <- Grad in the kernel; unused is called by the kernel only
    treadle::ir::Program program;
    auto inner = std::make_unique<Function>(), outer = std::make_unique<Function>(),
         unused = std::make_unique<Function>(), kernel = std::make_unique<Function>();
    for (Function* g : {inner.get(), unused.get()}) {
        IrBuilder b(*g, g == inner.get() ? "inner" : "unused", false);
        VarId x = b.param(f32(), "x");
        b.return_({b.call("sin", f32(), {x})});
        g->return_type = f32();
    }
    {
        IrBuilder b(*outer, "outer", false);
        VarId x = b.param(f32(), "x");
        VarId y = outer->new_var(f32());
        b.emit(InstrKind::CallFunc, {y}, {x}).func = inner.get();
        b.return_({y});
        outer->return_type = f32();
    }
    IrBuilder k(*kernel, "k", true);
    VarId x = k.const_float(2.0);
    VarId unused_result = kernel->new_var(f32());
    k.emit(InstrKind::CallFunc, {unused_result}, {x}).func = unused.get();
    program.kernel = kernel.get();
    for (auto* f : {&inner, &outer, &unused}) program.functions.push_back(std::move(*f));
    program.functions.push_back(std::move(kernel));
    EXPECT_FALSE(treadle::passes::plan_forward_gradients(program).has_value());

    Instr& grad = k.emit(InstrKind::Grad, {kernel_var(program, f32())}, {x});
    grad.func = program.functions[1].get();
    grad.value = types::ConstValue{f32(), false, 1, 1.0};
    std::optional<treadle::passes::ProgramAdjointPlan> plans =
        treadle::passes::plan_forward_gradients(program);
    ASSERT_TRUE(plans.has_value());
    ASSERT_EQ(plans->functions.size(), 2u);
    EXPECT_EQ(plans->functions[0].function, program.functions[0].get());  // inner
    EXPECT_EQ(plans->functions[1].function, program.functions[1].get());  // outer
    EXPECT_EQ(plans->find(*program.functions[2]), nullptr);               // unused
    EXPECT_EQ(plans->find(*program.kernel), nullptr);  // forward code has no backward pass
}

TEST(AdjointPlan, SameIrGivesTheSamePlanWhereverItLives) {
    // the plan is numbered by position, never by address: two copies plan alike
    auto build = [](Function& f) {
        IrBuilder b(f, "copy", true);
        VarId x = b.param(farray(), "x");
        VarId s = b.local("s", b.const_float(1.0));
        VarId n = b.shape(x, 0);
        b.for_range(b.const_int(0), n, b.const_int(1), [&](VarId k) {
            b.if_(b.compare(">", k, b.const_int(2)), [&] { b.break_(); });
            b.assign(s, b.call("mul", f32(), {s, s}));
        });
        b.store(x, {b.tid()[0]}, s);
    };
    std::vector<std::unique_ptr<Function>> copies;
    for (int k = 0; k < 2; ++k) {
        copies.push_back(std::make_unique<Function>());
        build(*copies.back());
    }
    AdjointPlan a = plan(*copies[0]), c = plan(*copies[1]);
    ASSERT_EQ(a.per_instr.size(), c.per_instr.size());
    for (size_t id = 0; id < a.per_instr.size(); ++id) {
        EXPECT_EQ(a.per_instr[id].loop, c.per_instr[id].loop);
        EXPECT_EQ(a.per_instr[id].save, c.per_instr[id].save);
        EXPECT_EQ(a.per_instr[id].label, c.per_instr[id].label);
        EXPECT_EQ(a.per_instr[id].call, c.per_instr[id].call);
    }
    EXPECT_EQ(a.saves, c.saves);
    EXPECT_EQ(a.var_flags, c.var_flags);
    ASSERT_EQ(a.loops.size(), 1u);
    EXPECT_EQ(a.loops[0].carried, c.loops[0].carried);
    EXPECT_EQ(a.loops[0].strategy, LoopStrategy::Restore);
}

}  // namespace
