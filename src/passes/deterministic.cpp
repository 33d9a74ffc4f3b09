// src/passes/deterministic.cpp -- record counts, counters and refusals of deterministic builds
#include "passes/deterministic.h"

#include <algorithm>
#include <map>
#include <set>

#include "treadle/error.h"

namespace treadle::passes {

namespace {

using ir::Block;
using ir::Function;
using ir::Instr;
using ir::InstrKind;
using ir::VarId;

/// Scalars in a value of type `t` (1 for a scalar).
uint32_t components(const types::Type* t) {
    size_t s = scalar_size(t->scalar);
    return s == 0 ? 1 : (uint32_t)std::max<size_t>(1, t->size / s);
}

bool float_valued(const types::Type* t) { return t && t->is_value() && is_float(t->scalar); }

bool recorded_op(builtins::AtomicOp op) {
    using builtins::AtomicOp;
    return op == AtomicOp::Add || op == AtomicOp::Sub || op == AtomicOp::Min || op == AtomicOp::Max;
}

void collect_uses(const Block& block, std::set<VarId>& uses) {
    for (const Instr& in : block) {
        uses.insert(in.args.begin(), in.args.end());
        collect_uses(in.body, uses);
        collect_uses(in.orelse, uses);
    }
}

class Planner {
public:
    Planner(bool adjoint, DeterministicPlan& plan) : m_adjoint(adjoint), m_plan(plan) {}

    /// Records one call of `f` emits at most.
    uint32_t function(const Function& f) {
        auto it = m_counts.find(&f);
        if (it != m_counts.end()) return it->second;
        m_counts[&f] = 0;  // recursion is refused elsewhere; stop here if it reaches us
        std::set<VarId> uses;
        collect_uses(f.body, uses);
        uint32_t n = block(f, f.body, uses);
        m_counts[&f] = n;
        return n;
    }

private:
    uint32_t block(const Function& f, const Block& b, const std::set<VarId>& uses) {
        uint32_t n = 0;
        for (const Instr& in : b) n += instr(f, in, uses);
        return n;
    }

    uint32_t instr(const Function& f, const Instr& in, const std::set<VarId>& uses) {
        switch (in.kind) {
            case InstrKind::If:
                return std::max(block(f, in.body, uses), block(f, in.orelse, uses));
            case InstrKind::ForRange:
            case InstrKind::Loop:
                return block(f, in.body, uses);
            case InstrKind::CallFunc:
                return in.func ? function(*in.func) : 0;
            case InstrKind::Load:
                // the backward pass accumulates the adjoint of a float element it loaded
                if (m_adjoint && !in.dsts.empty() && float_valued(f.type_of(in.dsts[0])))
                    return components(f.type_of(in.dsts[0]));
                return 0;
            case InstrKind::Call:
                return atomic(f, in, uses);
            default:
                return 0;
        }
    }

    uint32_t atomic(const Function& f, const Instr& in, const std::set<VarId>& uses) {
        if (!ir::is_atomic_call(in) || in.args.empty()) return 0;
        const types::Type* value = f.type_of(in.args.back());
        bool consumed = !in.dsts.empty() && uses.count(in.dsts[0]) != 0;
        builtins::AtomicOp op = in.builtin->traits.atomic;
        if (!float_valued(value) || !recorded_op(op)) {
            if (consumed && !m_plan.counter_line) {
                m_plan.counter_line = in.line;
                m_plan.counter_col = in.col;
            }
            return 0;
        }
        if (consumed) refuse(f, in);
        m_plan.records = true;
        return components(value);
    }

    [[noreturn]] void refuse(const Function& f, const Instr& in) const {
        const SourceLocation where = ir::source_location(f, in.line, in.col);
        throw Error(ErrorKind::Compile,
                    f.name +
                        "(): deterministic mode supports consumed-return counter atomics "
                        "only for int32 counter arrays: the old value of a float " +
                        in.builtin->name +
                        " is not known until the launch has ended (use the atomic as a "
                        "statement, or build this kernel with deterministic mode off)",
                    where);
    }

    bool m_adjoint;
    DeterministicPlan& m_plan;
    std::map<const Function*, uint32_t> m_counts;
};

}  // namespace

DeterministicPlan plan_deterministic(const ir::Program& program, bool adjoint) {
    DeterministicPlan plan;
    Planner planner(adjoint, plan);
    uint32_t n = planner.function(*program.kernel);
    // the backward pass's loads count too, so a program with only loads records in adjoint
    // builds
    if (adjoint && n > 0) plan.records = true;
    plan.per_thread = std::max<uint32_t>(1, n);
    return plan;
}

}  // namespace treadle::passes
