// src/passes/adjoint_plan.cpp -- reverse-mode autodiff analysis of one function's IR
//
// plan_adjoint(f) runs, in order: numbering (pre-order ids, loops, save slots), the carried
// variables of each loop, the taint analysis that decides each loop's strategy, call adjoints,
// gradient ownership of kernel arrays, jump labels (in the order the printer reaches them),
// and last the refusals. See adjoint_plan.h for what each decision means.
#include "passes/adjoint_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "builtins/builtins.h"
#include "common/assert.h"
#include "treadle/error.h"

namespace treadle::passes {

using ir::Instr;
using ir::InstrKind;
using ir::VarId;

namespace {

/// How the reverse of atomic builtin `b` (on an array of floats) reads (None: no gradient).
CallAdjoint atomic_call_adjoint(const builtins::Builtin& b) {
    switch (builtins::atomic_adjoint(b)) {
        case builtins::AtomicAdjoint::Store:  // a store that returns the old value
            return CallAdjoint::AtomicExch;
        case builtins::AtomicAdjoint::Add:
            return CallAdjoint::AtomicAdd;
        case builtins::AtomicAdjoint::Subtract:
            return CallAdjoint::AtomicSub;
        case builtins::AtomicAdjoint::MinMax:
            return CallAdjoint::AtomicMinMax;
        case builtins::AtomicAdjoint::None:
        case builtins::AtomicAdjoint::Refused:
            break;
    }
    return CallAdjoint::None;
}

using types::has_gradient;

/// Types that get an adjoint variable (integers too, for the adj_ functions' index slots).
bool has_adjoint_slot(const types::Type* t) {
    return t && (t->is_value() || t->is_struct() || t->is_tile());
}

bool is_loop(const Instr& in) {
    return in.kind == InstrKind::ForRange || in.kind == InstrKind::Loop;
}

class Planner {
public:
    Planner(const ir::Function& f, AdjointPlan& plan) : m_f(f), m_plan(plan) {}

    void run() {
        m_plan.var_flags.assign(m_f.vars.size(), 0);
        for (VarId v = 0; v < m_f.vars.size(); ++v) {
            const types::Type* t = m_f.vars[v].type;
            if (has_gradient(t)) m_plan.var_flags[v] |= k_var_gradient;
            if (has_adjoint_slot(t)) m_plan.var_flags[v] |= k_var_adjoint_slot;
        }
        std::vector<InstrId> enclosing;
        for (const Instr& in : m_f.body) number(in, enclosing);
        for (LoopPlan& loop : m_plan.loops)
            if (needs_recompute(loop)) loop.strategy = LoopStrategy::Restore;
        for (size_t id = 0; id < m_plan.instrs.size(); ++id)
            if (m_plan.instrs[id]->kind == InstrKind::Call)
                m_plan.per_instr[id].call = call_adjoint(*m_plan.instrs[id]);
        if (m_f.is_kernel) find_owned();
        assign_labels();
        for (const Instr* in : m_plan.instrs)
            for (VarId a : in->args) m_used.insert(a);
        check(m_f.body, 0);
    }

private:
    InstrId id(const Instr& in) const { return m_plan.id_of(in); }
    LoopPlan& loop_of(const Instr& in) { return m_plan.loops[m_plan.at(in).loop]; }

    /// Gives `in` and its nested instructions their ids, loop indices and save slots, and adds
    /// each assigned variable to the carried set of every loop in `enclosing`.
    void number(const Instr& in, std::vector<InstrId>& enclosing) {
        InstrId self = (InstrId)m_plan.instrs.size();
        m_plan.instrs.push_back(&in);
        m_plan.per_instr.emplace_back();
        m_plan.index.emplace(&in, self);
        if (in.kind == InstrKind::Assign) {
            m_plan.per_instr[self].save = (int32_t)m_plan.saves.size();
            m_plan.saves.push_back(in.dsts[0]);
            for (InstrId loop : enclosing)
                add_carried(m_plan.at(*m_plan.instrs[loop]).loop, in.dsts[0]);
        }
        if (is_loop(in)) {
            m_plan.per_instr[self].loop = (int32_t)m_plan.loops.size();
            LoopPlan loop;
            loop.instr = self;
            m_plan.loops.push_back(loop);
            enclosing.push_back(self);
        }
        for (const Instr& c : in.body) number(c, enclosing);
        for (const Instr& c : in.orelse) number(c, enclosing);
        if (is_loop(in)) enclosing.pop_back();
    }

    void add_carried(int32_t loop, VarId v) {
        std::vector<VarId>& c = m_plan.loops[loop].carried;
        if (std::find(c.begin(), c.end(), v) == c.end()) c.push_back(v);
    }

    // --- taint: does the adjoint of a loop's body need a carried value? ---

    bool needs_recompute(const LoopPlan& loop) const {
        if (loop.carried.empty()) return false;
        const Instr& in = *m_plan.instrs[loop.instr];
        std::set<VarId> tainted(loop.carried.begin(), loop.carried.end());
        // Iterate to a fixed point: taint flows around the loop through the carried variables.
        for (;;) {
            size_t before = tainted.size();
            if (taint(in.body, tainted)) return true;
            if (tainted.size() == before) return false;
        }
    }

    /// Propagates taint through `b`; true when a tainted value is used where its primal value
    /// matters.
    bool taint(const ir::Block& b, std::set<VarId>& tainted) const {
        for (const Instr& in : b) {
            std::vector<bool> t(in.args.size());
            bool any = false;
            for (size_t i = 0; i < in.args.size(); ++i)
                any |= (t[i] = tainted.count(in.args[i]) > 0);
            if (any && needs_primal(in, t)) return true;
            if (any)
                for (VarId d : in.dsts) tainted.insert(d);
            if (taint(in.body, tainted) || taint(in.orelse, tainted)) return true;
        }
        return false;
    }

    bool needs_primal(const Instr& in, const std::vector<bool>& tainted) const {
        switch (in.kind) {
            case InstrKind::Const:
            case InstrKind::Copy:
            case InstrKind::Assign:
            case InstrKind::Construct:
            case InstrKind::Field:
            case InstrKind::WithField:
            case InstrKind::Print:
            case InstrKind::Printf:
            case InstrKind::Tid:
            case InstrKind::Shape:
            case InstrKind::Break:
            case InstrKind::Continue:
            case InstrKind::Return:
                return false;
            case InstrKind::Cast:
                if (in.callee == "bits") return true;  // wp.cast: bits, no gradient
                return !(has_gradient(m_f.type_of(in.args[0])) &&
                         has_gradient(m_f.type_of(in.dsts[0])));
            case InstrKind::Select:
                return tainted[0];
            case InstrKind::Store:
            case InstrKind::StoreField:
                for (size_t i = 0; i + 1 < in.args.size(); ++i)
                    if (tainted[i]) return true;
                return false;
            case InstrKind::Call: {
                bool atomic = ir::is_atomic_call(in);
                for (size_t i = 0; i < in.args.size(); ++i) {
                    if (!tainted[i]) continue;
                    if (atomic ? i + (size_t)in.builtin->traits.value_operands < in.args.size()
                               : !linear_operand(in, i))
                        return true;
                }
                return false;
            }
            default:  // comparisons, conditions, indices, user functions, random numbers
                return true;
        }
    }

    // --- calls ---

    CallAdjoint call_adjoint(const Instr& in) const {
        if (ir::writes_last_array(in)) return CallAdjoint::ArrayWriter;
        if (ir::writes_first_array(in))  // tile_store / tile_atomic_add: the stored tile's adjoint
            return in.args.size() > 1 && has_gradient(m_f.type_of(in.args[1])) &&
                           has_gradient(m_f.type_of(in.args[0])->dtype)
                       ? CallAdjoint::Builtin
                       : CallAdjoint::None;
        if (ir::is_atomic_call(in))
            return has_gradient(m_f.type_of(in.args.back())) ? atomic_call_adjoint(*in.builtin)
                                                             : CallAdjoint::None;
        bool dst_grad = false;
        for (VarId d : in.dsts) dst_grad |= has_gradient(m_f.type_of(d));
        if (!dst_grad || in.args.empty() || !in.builtin->differentiable) return CallAdjoint::None;
        for (VarId a : in.args) {
            const types::Type* t = m_f.type_of(a);
            // a tile load's gradient goes to the array it read (array_t::grad)
            bool loaded = t->is_array() && in.builtin->kind == builtins::BuiltinKind::Tile &&
                          has_gradient(t->dtype);
            if (has_gradient(t) || loaded) return CallAdjoint::Builtin;
        }
        return CallAdjoint::None;
    }

    // --- gradient ownership ---

    /// Kernel array parameters whose every element access is at the thread's own launch
    /// index (a[i] with i = wp.tid(), a[i, j] with i, j = wp.tid()): the thread owns those
    /// gradient elements, so the backward pass adds to them without atomics (unless the
    /// launch passes one array twice; see wp::grad_add_owned).
    void find_owned() {
        std::map<VarId, int> tid_position;  // a variable holding launch index k -> k (-1: flat)
        std::vector<const Instr*> accesses;
        std::set<VarId> disqualified;
        for (const Instr* p : m_plan.instrs) {  // pre-order: definitions before uses
            const Instr& in = *p;
            if (in.kind == InstrKind::Tid) {
                for (size_t k = 0; k < in.dsts.size(); ++k)
                    tid_position[in.dsts[k]] = in.dsts.size() == 1 ? -1 : (int)k;
                continue;
            }
            if (in.kind == InstrKind::Copy && tid_position.count(in.args[0])) {
                tid_position[in.dsts[0]] = tid_position[in.args[0]];
                continue;
            }
            bool element =
                in.kind == InstrKind::Load || in.kind == InstrKind::Store || ir::is_atomic_call(in);
            if (element) {
                accesses.push_back(&in);
                continue;
            }
            for (VarId a : in.args)
                if (m_f.type_of(a)->is_array()) disqualified.insert(a);
        }
        for (const Instr* in : accesses) {
            VarId a = in->args[0];
            size_t n_idx =
                in->args.size() - 1 -
                (in->kind == InstrKind::Load    ? 0
                 : in->kind == InstrKind::Store ? 1
                                                : (size_t)in->builtin->traits.value_operands);
            // a[i] with the flat index, or a[i, j, ...] with every unpacked index in order
            bool own = n_idx == 1 || (int)n_idx == m_f.tid_arity;
            for (size_t k = 0; k < n_idx && own; ++k) {
                auto it = tid_position.find(in->args[1 + k]);
                own = it != tid_position.end() && it->second == (n_idx == 1 ? -1 : (int)k);
            }
            if (!own) disqualified.insert(a);
        }
        for (VarId p : m_f.params)
            // an indexed array may map two threads' indices to one element: never owned (nor
            // a Fabric array, which has no gradient)
            if (m_f.type_of(p)->is_array() && !m_f.type_of(p)->indexed && !m_f.type_of(p)->fabric &&
                !disqualified.count(p)) {
                m_plan.var_flags[p] |= k_var_owned;
                m_plan.owned_arrays.push_back(p);
            }
    }

    // --- labels ---

    /// Numbers the jumps in the order the printer first needs them: every return in pre-order
    /// (the replay), then, walking the reverse code (blocks backwards, a branch's body before
    /// its else-block), for each loop the breaks and continues of its own body (not of loops
    /// nested in it) in pre-order, before the loops nested in it.
    void assign_labels() {
        for (size_t id = 0; id < m_plan.instrs.size(); ++id)
            if (m_plan.instrs[id]->kind == InstrKind::Return) new_label(id);
        reverse_labels(m_f.body);
    }

    void new_label(size_t id) { m_plan.per_instr[id].label = m_plan.labels++; }

    void reverse_labels(const ir::Block& b) {
        for (auto it = b.rbegin(); it != b.rend(); ++it) {
            if (it->kind == InstrKind::If) {
                reverse_labels(it->body);
                reverse_labels(it->orelse);
            } else if (is_loop(*it)) {
                own_jump_labels(it->body);
                reverse_labels(it->body);
            }
        }
    }

    void own_jump_labels(const ir::Block& b) {
        for (const Instr& in : b) {
            if (in.kind == InstrKind::Break || in.kind == InstrKind::Continue) {
                InstrId self = id(in);
                if (m_plan.per_instr[self].label < 0) new_label(self);
            }
            if (is_loop(in)) continue;
            own_jump_labels(in.body);
            own_jump_labels(in.orelse);
        }
    }

    // --- refusals ---

    [[noreturn]] void refuse(const Instr& in, const std::string& what) const {
        throw Error(ErrorKind::Compile, m_f.name + "(): cannot differentiate " + what,
                    ir::source_location(m_f, in.line));
    }

    /// Whether the value `v` an atomic returns reaches something whose adjoint needs it: the
    /// replay cannot recover it (it reads the element the atomic updated). It does through a
    /// value with a gradient, an index into an array with gradients, control flow, a call, or
    /// a function's result (unless the user's @wp.func_replay recomputes the function). Integer
    /// bookkeeping that only lands in arrays without gradients needs nothing.
    bool atomic_result_matters(VarId v) const {
        std::set<VarId> tainted{v};
        for (;;) {  // to a fixed point: loops carry taint back through their Assigns
            size_t before = tainted.size();
            for (const Instr* p : m_plan.instrs) {
                const Instr& in = *p;
                std::vector<bool> t(in.args.size());
                bool any = false;
                for (size_t i = 0; i < in.args.size(); ++i)
                    any |= (t[i] = tainted.count(in.args[i]) > 0);
                if (!any) continue;
                if (needs_atomic_result(in, t)) return true;
                for (VarId d : in.dsts) tainted.insert(d);
            }
            if (tainted.size() == before) return false;
        }
    }

    /// atomic_result_matters() for one instruction with the tainted operands `t`.
    bool needs_atomic_result(const Instr& in, const std::vector<bool>& t) const {
        for (VarId d : in.dsts)
            if (has_gradient(m_f.type_of(d))) return true;
        auto tainted_index = [&](size_t from, size_t end) {
            if (!has_gradient(m_f.type_of(in.args[0])->dtype)) return false;
            for (size_t i = from; i < end; ++i)
                if (t[i]) return true;
            return false;
        };
        switch (in.kind) {
            case InstrKind::Load:
            case InstrKind::View:
                return tainted_index(1, in.args.size());
            case InstrKind::Store:
            case InstrKind::StoreField:
                return tainted_index(1, in.args.size() - 1);
            case InstrKind::Call:
                if (ir::writes_last_array(in)) return true;
                if (ir::is_atomic_call(in))
                    return tainted_index(1, in.args.size() - in.builtin->traits.value_operands);
                return false;
            case InstrKind::Return:
                return !m_f.custom_replay;
            case InstrKind::If:
            case InstrKind::ForRange:
            case InstrKind::Loop:
            case InstrKind::CallFunc:
            case InstrKind::Grad:
                return true;
            default:
                return false;
        }
    }

    /// Refuses what the adjoint cannot reverse correctly; `loops` is the loop depth.
    void check(const ir::Block& b, int loops) const {
        for (const Instr& in : b) {
            if (in.kind == InstrKind::Return && loops > 0)
                refuse(in,
                       "a return inside a loop (the backward pass reverses whole loop "
                       "iterations); set a flag and break out of the loop instead");
            bool atomic = ir::is_atomic_call(in);
            if (atomic && !in.dsts.empty() && m_used.count(in.dsts[0]) &&
                atomic_result_matters(in.dsts[0]))
                refuse(in, std::string("code that uses the value ") + ir::called_builtin(in)->name +
                               "() returns (the generated backward replay of consumed-return "
                               "counter atomics cannot recover it); compute the slot in a "
                               "separate kernel that is not recorded");
            if (atomic &&
                builtins::atomic_adjoint(*ir::called_builtin(in)) ==
                    builtins::AtomicAdjoint::Refused &&
                has_gradient(m_f.type_of(in.args.back())))
                refuse(in,
                       "atomic_cas on an array of floats (whether it stores depends on the "
                       "value found there); use it on integer arrays, or leave the kernel "
                       "out of the tape");
            check(in.body, loops + (is_loop(in) ? 1 : 0));
            check(in.orelse, loops);
        }
    }

    const ir::Function& m_f;
    AdjointPlan& m_plan;
    std::set<VarId> m_used;  ///< every variable some instruction reads
};

}  // namespace

InstrId AdjointPlan::id_of(const Instr& in) const {
    auto it = index.find(&in);
    TREADLE_ASSERT(it != index.end());
    return it->second;
}

const LoopPlan& AdjointPlan::loop(const Instr& in) const {
    int32_t k = at(in).loop;
    TREADLE_ASSERT(k >= 0);
    return loops[k];
}

const AdjointPlan& ProgramAdjointPlan::of(const ir::Function& f) const {
    const AdjointPlan* p = find(f);
    TREADLE_ASSERT(p != nullptr);
    return *p;
}

const AdjointPlan* ProgramAdjointPlan::find(const ir::Function& f) const {
    for (const AdjointPlan& p : functions)
        if (p.function == &f) return &p;
    return nullptr;
}

AdjointPlan plan_adjoint(const ir::Function& f) {
    AdjointPlan plan;
    plan.function = &f;
    if (f.grad_helper) return plan;  // a func_grad/func_replay: used as is, never differentiated
    plan.differentiated = true;
    Planner(f, plan).run();
    return plan;
}

ProgramAdjointPlan plan_adjoint(const ir::Program& program) {
    ProgramAdjointPlan plans;
    for (const auto& f : program.functions)
        if (!f->is_kernel) plans.functions.push_back(plan_adjoint(*f));
    TREADLE_ASSERT(program.kernel != nullptr);
    plans.functions.push_back(plan_adjoint(*program.kernel));
    return plans;
}

namespace {

/// Adds to `out` the user functions that instructions of `b` reach: with `all`, every callee
/// (CallFunc and Grad targets, and their custom gradients and replays), else only Grad targets.
void reached_functions(const ir::Block& b, bool all, std::set<const ir::Function*>& out) {
    for (const Instr& in : b) {
        if (in.func && (all || in.kind == InstrKind::Grad)) {
            out.insert(in.func);
            if (all && in.func->custom_grad) out.insert(in.func->custom_grad);
            if (all && in.func->custom_replay) out.insert(in.func->custom_replay);
        }
        reached_functions(in.body, all, out);
        reached_functions(in.orelse, all, out);
    }
}

}  // namespace

std::optional<ProgramAdjointPlan> plan_forward_gradients(const ir::Program& program) {
    std::set<const ir::Function*> needed;
    for (const auto& f : program.functions) reached_functions(f->body, false, needed);
    if (needed.empty()) return std::nullopt;
    // An adjoint calls the replays and adjoints of its callees: close the set over calls.
    for (size_t before = 0; before != needed.size();) {
        before = needed.size();
        for (const auto& f : program.functions)
            if (needed.count(f.get())) reached_functions(f->body, true, needed);
    }
    ProgramAdjointPlan plans;
    for (const auto& f : program.functions)
        if (!f->is_kernel && needed.count(f.get())) plans.functions.push_back(plan_adjoint(*f));
    return plans;
}

// --- facts about builtins, from the table's traits ---

bool linear_operand(const Instr& in, size_t i) {
    return in.builtin && builtins::linear_in_operand(*in.builtin, i, in.args.size());
}

}  // namespace treadle::passes
