// src/passes/adjoint_plan.h -- reverse-mode autodiff analysis: the plan the adjoint printer follows
//
// plan_adjoint() reads the IR of a function (or of every function of a program) and decides
// everything about its adjoint except spelling: which variables each loop carries and whether
// the reversed loop needs their values (the taint analysis), the save slot of every assignment,
// the labels that returns, breaks and continues jump to, which kernel arrays a thread owns at
// its own wp.tid() index, and how the reverse of each builtin call reads. It also refuses, with
// a treadle::Error at the Python line, what cannot be differentiated correctly.
// codegen/adjoint.cpp prints the plan and decides nothing.
//
// Key structures: `AdjointPlan` (one function; start reading there), `LoopPlan` (one loop),
// `InstrPlan` (one instruction, by pre-order id). Everything is numbered by position in the
// IR, never by address, so the plan (and the source printed from it) is the same in every run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/ir.h"

namespace treadle::passes {

/// Trips of a loop whose carried values the replay keeps per iteration (`hist_`), so that a
/// reversed loop of at most this many trips restores them instead of recomputing them.
inline constexpr int k_adjoint_history = 16;

/// Pre-order position of an instruction in its function: a block's instructions in order, each
/// followed by its body and then its else-block.
using InstrId = uint32_t;

/// How the reverse of a loop gets the values its carried variables had at the start of each
/// iteration.
enum class LoopStrategy : uint8_t {
    /// The adjoint of the body never needs a carried value (accumulations such as
    /// `s += f(x[i])`): each iteration is replayed and reversed once, O(n).
    None,
    /// It needs them. The replay keeps them per trip for the first k_adjoint_history trips; the
    /// reverse restores them from that history when the loop ran at most that many trips, and
    /// otherwise recomputes iterations 0..k-1 from the loop's entry values (O(n^2)). Which of
    /// the two runs is decided at run time from the trip count, so a dynamic loop gets both.
    Restore,
};

/// One ForRange or Loop.
struct LoopPlan {
    InstrId instr = 0;               ///< the loop instruction
    std::vector<ir::VarId> carried;  ///< mutable variables assigned in the body (any depth),
                                     ///< in the order of their first assignment
    LoopStrategy strategy = LoopStrategy::None;
};

/// How the reverse of a builtin Call reads.
enum class CallAdjoint : uint8_t {
    None,          ///< nothing to reverse (no gradient flows through it, or not differentiable)
    Builtin,       ///< wp::adj_<callee>(args..., [results], adj_args..., adj_results...), then
                   ///< the results' adjoints are cleared
    ArrayWriter,   ///< wp::adj_<callee>(args...): a builtin that writes its last argument, an
                   ///< array, sends that array's gradient back to the arrays it read
    AtomicExch,    ///< the value's adjoint gains the element's gradient (a store)
    AtomicAdd,     ///< the value's adjoint = add(itself, the element's gradient)
    AtomicSub,     ///< the value's adjoint = sub(itself, the element's gradient)
    AtomicMinMax,  ///< wp::adj_atomic_minmax: the gradient goes to the value that won
};

/// What the plan says about one instruction; -1 where a field does not apply.
struct InstrPlan {
    int32_t loop = -1;   ///< ForRange/Loop: its index in AdjointPlan::loops
    int32_t save = -1;   ///< Assign: the slot (`prev_<save>`) that keeps the value it overwrites
    int32_t label = -1;  ///< Return, Break, Continue: its label (`rev_<label>`) in the reverse
    CallAdjoint call = CallAdjoint::None;  ///< Call: how it is reversed
};

/// Bits of AdjointPlan::var_flags.
enum : uint8_t {
    k_var_gradient = 1,      ///< values of this type have a gradient (float scalars, vectors,
                             ///< ... of floats, structs with such a field)
    k_var_adjoint_slot = 2,  ///< gets an adjoint variable `adj_<name>` (value types and structs,
                             ///< integers too, for the index slots of the adj_ functions)
    k_var_owned = 4,         ///< a kernel array parameter that each thread accesses only at its
                             ///< own launch index: its gradient is added without atomics
};

/// Everything the adjoint printer needs to print one function's adjoint. Valid only for the
/// function it was made from (it points into that function's IR for lookups).
struct AdjointPlan {
    const ir::Function* function = nullptr;
    /// False for a @wp.func_grad / @wp.func_replay helper, which is used as is and has no
    /// adjoint; every other member is then empty.
    bool differentiated = false;
    std::vector<const ir::Instr*> instrs;  ///< every instruction, by InstrId
    std::vector<InstrPlan> per_instr;      ///< by InstrId
    std::vector<LoopPlan> loops;           ///< by loop index (pre-order)
    std::vector<ir::VarId> saves;          ///< by save slot: the variable the Assign overwrites
    int labels = 0;                        ///< number of jump labels (0..labels-1)
    std::vector<uint8_t> var_flags;        ///< k_var_* bits, by VarId
    std::vector<ir::VarId> owned_arrays;   ///< k_var_owned parameters, in parameter order

    /// The id of `in`, an instruction of `function`.
    InstrId id_of(const ir::Instr& in) const;
    const InstrPlan& at(const ir::Instr& in) const { return per_instr[id_of(in)]; }
    /// The plan of loop instruction `in`.
    const LoopPlan& loop(const ir::Instr& in) const;
    bool gradient(ir::VarId v) const { return var_flags[v] & k_var_gradient; }
    bool adjoint_slot(ir::VarId v) const { return var_flags[v] & k_var_adjoint_slot; }
    bool owned(ir::VarId v) const { return var_flags[v] & k_var_owned; }

    /// Instruction address -> InstrId, for at()/loop() only. Never iterated, so addresses
    /// cannot reach the plan's order or the printed source.
    std::unordered_map<const ir::Instr*, InstrId> index;
};

/// The plans of the functions of a program whose adjoints are printed, in the program's order:
/// every function and the kernel for a backward pass, or only the user functions that
/// forward code differentiates with wp.grad() (and those their adjoints call).
struct ProgramAdjointPlan {
    std::vector<AdjointPlan> functions;
    /// The plan of `f`, a function of the program that has one.
    const AdjointPlan& of(const ir::Function& f) const;
    /// The plan of `f`, or null when its adjoint is not printed.
    const AdjointPlan* find(const ir::Function& f) const;
};

/// Plans the adjoint of `f`. Throws treadle::Error (ErrorKind::Compile, at the instruction's
/// Python line) for a return inside a loop, a use of the value an atomic returns, and
/// atomic_cas on floats. A @wp.func_grad / @wp.func_replay helper gets an empty plan.
AdjointPlan plan_adjoint(const ir::Function& f);
/// Plans every function of `program`: the user functions in order, then the kernel (the order
/// the source is printed in, so the first refusal is the one the user sees first).
ProgramAdjointPlan plan_adjoint(const ir::Program& program);
/// Plans the adjoints a forward build needs: those of the user functions that a Grad
/// instruction (wp.grad(f)(x)) differentiates, and of the functions their adjoints call, their
/// custom gradients included; nullopt when the program has no Grad of a user function.
std::optional<ProgramAdjointPlan> plan_forward_gradients(const ir::Program& program);

// --- facts about builtins the analysis needs (table queries on a Call's entry) ---
/// Whether the adjoint of Call `in` is linear in operand `i` and needs no primal value of it.
bool linear_operand(const ir::Instr& in, size_t i);
}  // namespace treadle::passes
