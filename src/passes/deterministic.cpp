// src/passes/deterministic.cpp -- record counts, counters and refusals of deterministic builds
#include "passes/deterministic.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

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

/// Records one call emits at most: float atomics' scalars and int32 increments.
struct Counts {
    uint32_t floats = 0;
    uint32_t increments = 0;
    Counts operator+(const Counts& o) const {
        return {floats + o.floats, increments + o.increments};
    }
};

Counts max(const Counts& a, const Counts& b) {
    return {std::max(a.floats, b.floats), std::max(a.increments, b.increments)};
}

void collect_uses(const Block& block, std::set<VarId>& uses) {
    for (const Instr& in : block) {
        uses.insert(in.args.begin(), in.args.end());
        collect_uses(in.body, uses);
        collect_uses(in.orelse, uses);
    }
}

bool is_int32(const types::Type* t) {
    return t && t->is_value() && t->scalar == ScalarType::Int32 && components(t) == 1;
}

std::string atomic_name(const Instr& in) { return std::string("wp.") + in.builtin->name; }

class Planner {
public:
    Planner(bool adjoint, bool two_pass, DeterministicPlan& plan)
        : m_adjoint(adjoint), m_two_pass(two_pass), m_plan(plan) {}

    /// Records (float, and int32 increments) one call of `f` emits at most.
    Counts function(const Function& f) {
        auto it = m_counts.find(&f);
        if (it != m_counts.end()) return it->second;
        m_counts[&f] = {};  // recursion is refused elsewhere; stop here if it reaches us
        std::set<VarId> uses;
        collect_uses(f.body, uses);
        Counts n = block(f, f.body, uses);
        same_target_check(f);
        m_counts[&f] = n;
        return n;
    }

private:
    Counts block(const Function& f, const Block& b, const std::set<VarId>& uses) {
        Counts n;
        for (const Instr& in : b) n = n + instr(f, in, uses);
        return n;
    }

    Counts instr(const Function& f, const Instr& in, const std::set<VarId>& uses) {
        switch (in.kind) {
            case InstrKind::If:
                return max(block(f, in.body, uses), block(f, in.orelse, uses));
            case InstrKind::ForRange:
            case InstrKind::Loop:
                return block(f, in.body, uses);
            case InstrKind::CallFunc: {
                if (!in.func) return {};
                Counts n = function(*in.func);
                // the backward pass runs a custom adjoint in place of the generated one
                if (m_adjoint && in.func->custom_grad) {
                    m_in_custom_grad++;
                    n = n + function(*in.func->custom_grad);
                    m_in_custom_grad--;
                }
                return n;
            }
            case InstrKind::Load:
                // the backward pass accumulates the adjoint of a float element it loaded
                if (m_adjoint && !in.dsts.empty() && float_valued(f.type_of(in.dsts[0])))
                    return {components(f.type_of(in.dsts[0])), 0};
                return {};
            case InstrKind::Call:
                return atomic(f, in, uses);
            default:
                return {};
        }
    }

    Counts atomic(const Function& f, const Instr& in, const std::set<VarId>& uses) {
        if (!ir::is_atomic_call(in) || in.args.empty()) return {};
        const types::Type* value = f.type_of(in.args.back());
        bool consumed = !in.dsts.empty() && uses.count(in.dsts[0]) != 0;
        builtins::AtomicOp op = in.builtin->traits.atomic;
        if (!float_valued(value) || !recorded_op(op)) {
            const bool increment = op == builtins::AtomicOp::Add && is_int32(value);
            if (consumed) counter(f, in, increment);
            if (!consumed) m_plain[&f].push_back(&in);
            return {0, increment ? 1u : 0u};
        }
        if (consumed) refuse_float(f, in);
        one_family(f, in);
        m_plan.records = true;
        return {components(value), 0};
    }

    /// A consumed integer atomic: a counter (refused where the two passes cannot run it).
    void counter(const Function& f, const Instr& in, bool increment) {
        if (!m_plan.counter_line) {
            m_plan.counter_line = in.line;
            m_plan.counter_col = in.col;
        }
        if (m_in_custom_grad)
            refuse(f, in,
                   "deterministic mode does not support consumed-return counter atomics in a "
                   "custom adjoint (wp.func_grad): the backward pass cannot hand out the "
                   "forward order's slots");
        if (!m_two_pass) return;
        if (in.builtin->traits.atomic != builtins::AtomicOp::Add)
            refuse(f, in,
                   "deterministic mode supports consumed-return counters only for atomic_add: "
                   "the old value " +
                       atomic_name(in) +
                       " returns depends on the order threads run in (use its result only as "
                       "a statement, or build this kernel with deterministic mode off)");
        if (!increment)
            refuse(f, in,
                   "deterministic mode supports consumed-return counter atomics only for int32 "
                   "counter arrays: " +
                       atomic_name(in) + " on " + f.type_of(in.args.back())->name +
                       " elements cannot be handed out in order");
        m_counters[&f].push_back(&in);
    }

    /// Float reductions of different families (add and sub; min; max) on one array are
    /// refused, as Warp refuses them: the order between families would matter.
    void one_family(const Function& f, const Instr& in) {
        using builtins::AtomicOp;
        AtomicOp op = in.builtin->traits.atomic;
        if (op == AtomicOp::Sub) op = AtomicOp::Add;
        auto [it, fresh] = m_families[&f].try_emplace(in.args[0], &in);
        AtomicOp first = it->second->builtin->traits.atomic;
        if (first == AtomicOp::Sub) first = AtomicOp::Add;
        if (!fresh && first != op)
            refuse(f, in,
                   std::string("deterministic mode does not support mixing ") +
                       it->second->builtin->name + " (line " + std::to_string(it->second->line) +
                       ") and " + in.builtin->name +
                       " on one array: the result would depend on how the two interleave");
    }

    /// Two passes: an integer atomic on a counter's array that is not itself a counter would
    /// see the counters' totals before its own update.
    void same_target_check(const Function& f) {
        if (!m_two_pass) return;
        for (const Instr* c : m_counters[&f])
            for (const Instr* p : m_plain[&f])
                if (p->args[0] == c->args[0] && !float_valued(f.type_of(p->args.back())))
                    refuse(f, *p,
                           "deterministic mode does not support ordinary integer atomic side "
                           "effects on the array of a consumed-return counter (line " +
                               std::to_string(c->line) +
                               "): use the counter's result, or another array");
    }

    [[noreturn]] void refuse_float(const Function& f, const Instr& in) const {
        refuse(f, in,
               "deterministic mode supports consumed-return counter atomics only for int32 "
               "counter arrays: the old value of a float " +
                   std::string(in.builtin->name) +
                   " is not known until the launch has ended (use the atomic as a statement, "
                   "or build this kernel with deterministic mode off)");
    }

    [[noreturn]] static void refuse(const Function& f, const Instr& in, const std::string& why) {
        throw Error(ErrorKind::Compile, f.name + "(): " + why,
                    ir::source_location(f, in.line, in.col));
    }

    bool m_adjoint;
    bool m_two_pass;
    DeterministicPlan& m_plan;
    int m_in_custom_grad = 0;
    std::map<const Function*, Counts> m_counts;
    std::map<const Function*, std::vector<const Instr*>> m_counters, m_plain;
    std::map<const Function*, std::map<VarId, const Instr*>> m_families;
};

}  // namespace

DeterministicPlan plan_deterministic(const ir::Program& program, bool adjoint, bool two_pass) {
    DeterministicPlan plan;
    Planner planner(adjoint, two_pass, plan);
    Counts n = planner.function(*program.kernel);
    // the backward pass's loads count too, so a program with only loads records in adjoint
    // builds
    if (adjoint && n.floats > 0) plan.records = true;
    plan.per_thread = std::max<uint32_t>(1, n.floats);
    if (plan.counter_line) {
        plan.counter_per_thread = std::max<uint32_t>(1, n.increments);
    }
    return plan;
}

}  // namespace treadle::passes
