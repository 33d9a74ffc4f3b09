// src/codegen/adjoint.cpp -- reverse-mode autodiff: prints the adjoint of a kernel or function
//
// Prints the adjoint that passes/adjoint_plan.h planned; every decision (loop strategies, save
// slots, labels, gradient ownership, how each call is reversed) and every refusal is the
// plan's. The adjoint of a function runs in two parts inside one C++ function:
//   1. Replay: the forward statements again (FunctionEmitter in replay mode), without side
//      effects, so every value the adjoint needs is in its local variable.
//   2. Reverse: for each instruction in reverse order, its adjoint statement (`adj_f` from the
//      native library for builtins), which adds the gradient of the instruction's result to the
//      gradients of its operands and then clears the result's gradient.
// Key structure: `AdjointPrinter` (the walk and the ReplayHooks), over one `AdjointPlan`.
//
// Control flow:
//   - Variables are SSA except mutable ones written by Assign. The replay saves the value each
//     Assign overwrites (`prev_N`); the reverse restores it, so when the reverse reaches an
//     instruction every variable holds the value it had when the instruction ran forward.
//   - `if`: the condition is still in its variable, so the reverse takes the same branch.
//   - A return (and, inside a loop's reversed iteration, a break or continue) in the replay jumps
//     (goto) to its label in the reverse code, so only the statements that ran are reversed.
//     Every variable is declared at the top of the function, so the jumps cross no
//     initialisation.
//   - Loops, static or dynamic: the replay counts the iterations entered. The reverse walks the
//     iterations from last to first; for iteration k of a loop whose strategy is Restore it
//     restores the loop-carried variables (from the per-trip history, or from their values at
//     loop entry followed by a recomputation of iterations 0..k-1), replays iteration k and
//     reverses it.
#include <string>

#include "codegen/function_emitter.h"
#include "codegen/type_spelling.h"
#include "common/assert.h"
#include "passes/adjoint_plan.h"

namespace treadle::codegen {

using ir::Instr;
using ir::InstrKind;
using ir::VarId;
using passes::CallAdjoint;
using passes::k_adjoint_history;
using passes::LoopPlan;
using passes::LoopStrategy;

namespace {

class AdjointPrinter final : public ReplayHooks {
public:
    AdjointPrinter(const passes::AdjointPlan& plan, Text& out, bool checked)
        : m_f(*plan.function), m_plan(plan), m_out(out), m_fe(m_f, out, checked, this) {
        TREADLE_ASSERT(plan.differentiated);
    }

    std::string var(VarId v) const { return m_fe.var(v); }
    std::string adj(VarId v) const { return "adj_" + var(v); }
    bool gradient(VarId v) const { return m_plan.gradient(v); }

    /// Primal variables (except parameters), adjoints of every value variable (parameters too),
    /// the saved values of assignments and loops, and loop counters.
    void declarations(int depth) {
        m_fe.declarations(depth);
        for (VarId v = 0; v < m_f.vars.size(); ++v)
            if (m_plan.adjoint_slot(v))
                line(depth) << c_type(m_f.vars[v].type) << " " << adj(v) << "{};\n";
        for (size_t slot = 0; slot < m_plan.saves.size(); ++slot)
            line(depth) << c_type(m_f.type_of(m_plan.saves[slot])) << " prev_" << slot << "{};\n";
        for (size_t id = 0; id < m_plan.loops.size(); ++id) {
            const LoopPlan& info = m_plan.loops[id];
            line(depth) << "wp::int64 trips_" << id << " = 0, rk_" << id << " = 0, rj_" << id
                        << " = 0;\n";
            for (VarId v : info.carried) {
                line(depth) << c_type(m_f.type_of(v)) << " save_" << id << "_" << var(v) << "{};\n";
                if (info.strategy == LoopStrategy::Restore)
                    line(depth) << c_type(m_f.type_of(v)) << " hist_" << id << "_" << var(v) << "["
                                << k_adjoint_history << "]{};\n";
            }
        }
    }

    void replay(int depth) { m_fe.block(m_f.body, depth); }

    void reverse(const ir::Block& b, int depth) {
        for (auto it = b.rbegin(); it != b.rend(); ++it) reverse(*it, depth);
    }

    // --- ReplayHooks ---
    bool intercept(const Instr& in, int depth) override {
        switch (in.kind) {
            case InstrKind::Assign: {
                std::string dst = var(in.dsts[0]);
                line(depth) << "prev_" << m_plan.at(in).save << " = " << dst << "; " << dst << " = "
                            << var(in.args[0]) << ";\n";
                return true;
            }
            case InstrKind::Return:
                line(depth) << "goto rev_" << label(in) << ";\n";
                return true;
            case InstrKind::Break:
            case InstrKind::Continue:
                if (!m_goto_loop || m_nest != 0) return false;
                line(depth) << "goto rev_" << label(in) << ";\n";
                return true;
            default:
                return false;
        }
    }

    void loop_entry(const Instr& loop, int depth) override {
        const LoopPlan& info = m_plan.loop(loop);
        std::string id = loop_id(loop);
        line(depth) << "trips_" << id << " = 0;";
        for (VarId v : info.carried)
            m_out << " save_" << id << "_" << var(v) << " = " << var(v) << ";";
        m_out << "\n";
        ++m_nest;
    }
    void iteration_start(const Instr& loop, int depth) override {
        const LoopPlan& info = m_plan.loop(loop);
        std::string id = loop_id(loop);
        if (info.strategy == LoopStrategy::Restore && !info.carried.empty()) {
            // the carried values at the start of each of the first k_adjoint_history iterations
            line(depth) << "if (trips_" << id << " < " << k_adjoint_history << ") {";
            for (VarId v : info.carried)
                m_out << " hist_" << id << "_" << var(v) << "[trips_" << id << "] = " << var(v)
                      << ";";
            m_out << " }\n";
        }
        line(depth) << "++trips_" << id << ";\n";
    }
    void loop_exit(const Instr&) override { --m_nest; }

private:
    Text& line(int depth) {
        m_fe.indent(depth);
        return m_out;
    }

    int label(const Instr& in) const {
        int32_t k = m_plan.at(in).label;
        TREADLE_ASSERT(k >= 0);
        return k;
    }
    std::string loop_id(const Instr& loop) const { return std::to_string(m_plan.at(loop).loop); }

    // --- reverse ---
    void clear(VarId v, int depth) { line(depth) << adj(v) << " = {};\n"; }
    /// adj(v) += `gradient` (an expression).
    void accumulate(VarId v, const std::string& gradient, int depth) {
        line(depth) << adj(v) << " = wp::add(" << adj(v) << ", " << gradient << ");\n";
    }

    void reverse(const Instr& in, int depth) {
        m_fe.line_directive(in.line);
        VarId dst = in.dsts.empty() ? 0 : in.dsts[0];
        bool dst_grad = !in.dsts.empty() && gradient(dst);
        switch (in.kind) {
            case InstrKind::Copy:
                if (dst_grad) {
                    accumulate(in.args[0], adj(dst), depth);
                    clear(dst, depth);
                }
                break;
            case InstrKind::Assign:
                if (dst_grad) {
                    accumulate(in.args[0], adj(dst), depth);
                    clear(dst, depth);
                }
                line(depth) << var(dst) << " = prev_" << m_plan.at(in).save << ";\n";
                break;
            case InstrKind::Cast:
                if (dst_grad && gradient(in.args[0]) && in.callee != "bits") {
                    line(depth) << "wp::adj_cast<" << c_type(m_f.type_of(dst)) << ">("
                                << var(in.args[0]) << ", " << adj(in.args[0]) << ", " << adj(dst)
                                << ");\n";
                    clear(dst, depth);
                }
                break;
            case InstrKind::Construct:
                if (dst_grad) {
                    const types::Type* t = m_f.type_of(dst);
                    for (size_t k = 0; k < in.args.size(); ++k) {
                        if (t->is_struct()) {
                            if (!gradient(in.args[k])) continue;
                            accumulate(in.args[k], adj(dst) + "." + c_field(t->fields[k].name),
                                       depth);
                            continue;
                        }
                        std::string part = t->is_matrix()
                                               ? ".m[" + std::to_string(k / t->cols) + "][" +
                                                     std::to_string(k % t->cols) + "]"
                                               : ".c[" + std::to_string(k) + "]";
                        accumulate(in.args[k], adj(dst) + part, depth);
                    }
                    clear(dst, depth);
                }
                break;
            case InstrKind::Call:
                reverse_call(in, depth);
                break;
            case InstrKind::Field:
                if (dst_grad) {
                    std::string field = adj(in.args[0]) + "." + c_field(in.text);
                    line(depth) << field << " = wp::add(" << field << ", " << adj(dst) << ");\n";
                    clear(dst, depth);
                }
                break;
            case InstrKind::WithField:
                if (dst_grad) {
                    std::string field = adj(dst) + "." + c_field(in.text);
                    if (gradient(in.args[1])) accumulate(in.args[1], field, depth);
                    line(depth) << field << " = {};\n";
                    accumulate(in.args[0], adj(dst), depth);
                    clear(dst, depth);
                }
                break;
            case InstrKind::StoreField: {
                VarId v = in.args.back();
                if (gradient(v))
                    line(depth) << "if (auto* g_ = wp::grad_address("
                                << m_fe.args(in, 0, in.args.size() - 1) << ")) " << adj(v)
                                << " = wp::add(" << adj(v) << ", g_->"
                                << field_path(in.text).substr(1) << ");\n";
                break;
            }
            case InstrKind::Select:
                if (dst_grad) {
                    line(depth) << "if (" << var(in.args[0]) << ") " << adj(in.args[1])
                                << " = wp::add(" << adj(in.args[1]) << ", " << adj(dst)
                                << "); else " << adj(in.args[2]) << " = wp::add(" << adj(in.args[2])
                                << ", " << adj(dst) << ");\n";
                    clear(dst, depth);
                }
                break;
            case InstrKind::CallFunc:
                reverse_call_func(in, depth);
                break;
            case InstrKind::Load:
                if (dst_grad) {
                    bool owned = m_plan.owned(in.args[0]);
                    line(depth) << (owned ? "wp::grad_add_owned" : "wp::grad_add")
                                << "(wp::grad_address(" << m_fe.args(in) << "), " << adj(dst)
                                << (owned ? ", bounds" : "") << ");\n";
                    clear(dst, depth);
                }
                break;
            case InstrKind::Store: {
                VarId v = in.args.back();
                // the element's gradient goes to v and is consumed (final write wins)
                std::string element = m_fe.args(in, 0, in.args.size() - 1);
                std::string take =
                    "wp::grad_take(" + m_fe.args(in, 0, 1) + ", wp::grad_address(" + element + "))";
                if (gradient(v))
                    accumulate(v, take, depth);
                else
                    line(depth) << take << ";\n";
                break;
            }
            case InstrKind::If:
                line(depth) << "if (" << var(in.args[0]) << ") {\n";
                reverse(in.body, depth + 1);
                if (!in.orelse.empty()) {
                    line(depth) << "} else {\n";
                    reverse(in.orelse, depth + 1);
                }
                line(depth) << "}\n";
                break;
            case InstrKind::ForRange:
            case InstrKind::Loop:
                reverse_loop(in, depth);
                break;
            case InstrKind::Break:
            case InstrKind::Continue:
                line(depth) << "rev_" << label(in) << ": ;\n";
                break;
            case InstrKind::Return:
                line(depth) << "rev_" << label(in) << ": ;\n";
                if (m_f.is_kernel) break;
                for (size_t i = 0; i < in.args.size(); ++i) {
                    if (!gradient(in.args[i])) continue;
                    std::string ret = m_f.return_type->is_tuple() ? "adj_ret_" + std::to_string(i)
                                                                  : std::string("adj_ret");
                    accumulate(in.args[i], ret, depth);
                }
                break;
            case InstrKind::Const:
            case InstrKind::Grad:  // wp.grad(f)(x) is a constant to the backward pass, as in Warp
            case InstrKind::Compare:
            case InstrKind::Logical:
            case InstrKind::Tid:
            case InstrKind::View:
            case InstrKind::Shape:
            case InstrKind::Print:
            case InstrKind::Printf:
                break;
        }
    }

    void reverse_call(const Instr& in, int depth) {
        CallAdjoint how = m_plan.at(in).call;
        // an atomic's element: the array and its indices, without the value operands
        auto element = [&] { return m_fe.args(in, 0, in.args.size() - 1); };
        VarId v = in.args.empty() ? 0 : in.args.back();  // an atomic's value
        switch (how) {
            case CallAdjoint::None:
                return;
            case CallAdjoint::ArrayWriter:
                // the gradient of the written array flows back to the arrays it was filled from
                line(depth) << "wp::adj_" << native_callee(m_f, in) << "(" << m_fe.args(in)
                            << ");\n";
                return;
            case CallAdjoint::Builtin:
                if (std::string(in.builtin->name) == "tile_map") return reverse_tile_map(in, depth);
                if (std::string(in.builtin->name) == "tile_reduce")
                    return reverse_tile_reduce(in, depth);
                // adj_f(args..., [results... when several], adj_args..., adj_results...); an
                // array argument has no adjoint variable: its slot is the array, whose gradient
                // (array_t::grad) the native adjoint accumulates into (volume_sample_index)
                line(depth) << "wp::adj_" << native_callee(m_f, in) << "(" << m_fe.args(in);
                if (in.dsts.size() > 1)
                    for (VarId d : in.dsts) m_out << ", " << var(d);
                for (VarId a : in.args)
                    m_out << ", " << (m_f.type_of(a)->is_array() ? var(a) : adj(a));
                for (VarId d : in.dsts) m_out << ", " << adj(d);
                m_out << ");\n";
                for (VarId d : in.dsts) clear(d, depth);
                return;
            case CallAdjoint::AtomicExch:  // a store that also returns the old value
                accumulate(v, "wp::grad_read(wp::grad_address(" + element() + "))", depth);
                return;
            case CallAdjoint::AtomicAdd:
            case CallAdjoint::AtomicSub:
                line(depth) << adj(v)
                            << " = wp::" << (how == CallAdjoint::AtomicAdd ? "add" : "sub") << "("
                            << adj(v) << ", wp::grad_read(wp::grad_address(" << element()
                            << ")));\n";
                return;
            case CallAdjoint::AtomicMinMax:
                line(depth) << "wp::adj_atomic_minmax(wp::load(" << element() << "), " << var(v)
                            << ", wp::grad_address(" << element() << "), " << adj(v) << ");\n";
                return;
        }
    }

    /// tile_map(f, ...): f's adjoint for each element the thread holds (a user function's
    /// takes the adjoints of its float parameters only, as reverse_call_func passes them).
    void reverse_tile_map(const Instr& in, int depth) {
        VarId d = in.dsts[0];
        const std::string t = "decltype(" + var(d) + ")";
        std::string call;
        if (in.func) {
            call = adjoint_name(*in.func) + "(";
            bool first = true;
            auto sep = [&] {
                std::string s = first ? "" : ", ";
                first = false;
                return s;
            };
            for (VarId a : in.args) call += sep() + tile_map_operand(var(a), m_f.type_of(a));
            for (VarId a : in.args)
                if (gradient(a)) call += sep() + tile_map_operand(adj(a), m_f.type_of(a));
            call += sep() + adj(d) + ".data[k_])";
        } else {
            const builtins::Builtin& f = mapped_builtin(in);
            if (!f.differentiable) {
                clear(d, depth);
                return;
            }
            call = std::string("wp::adj_") + f.native + "(";
            for (size_t i = 0; i < in.args.size(); ++i)
                call +=
                    (i ? ", " : "") + tile_map_operand(var(in.args[i]), m_f.type_of(in.args[i]));
            for (VarId a : in.args) call += ", " + tile_map_operand(adj(a), m_f.type_of(a));
            call += ", " + adj(d) + ".data[k_])";
        }
        line(depth) << "for (int k_ = 0; k_ < " << t << "::slots; ++k_) if (" << t
                    << "::element(k_) < " << t << "::size) " << call << ";\n";
        clear(d, depth);
    }

    /// tile_reduce(f, a): the fold replayed and walked backwards (wp::adj_tile_reduce_with).
    void reverse_tile_reduce(const Instr& in, int depth) {
        VarId d = in.dsts[0], t = in.args[0];
        const std::string e = c_type(m_f.type_of(t)->dtype);
        std::string f, adj_f;
        if (in.func) {
            f = replay_name(*in.func);  // the side-effect-free variant
            adj_f = adjoint_name(*in.func) + "(a_, b_, ga_, gb_, gr_)";
        } else {
            const builtins::Builtin& b = mapped_builtin(in);
            if (!b.differentiable) {
                clear(d, depth);
                return;
            }
            f = std::string("wp::") + b.native;
            adj_f = std::string("wp::adj_") + b.native + "(a_, b_, ga_, gb_, gr_)";
        }
        line(depth) << "wp::adj_tile_reduce_with<" << c_type(m_f.type_of(d)) << ">(" << var(t)
                    << ", [&](const " << e << "& a_, const " << e << "& b_) { return " << f
                    << "(a_, b_); }, [&](const " << e << "& a_, const " << e << "& b_, " << e
                    << "& ga_, " << e << "& gb_, const " << e << "& gr_) { " << adj_f << "; }, "
                    << adj(t) << ", " << adj(d) << ");\n";
        clear(d, depth);
    }

    /// The user's @wp.func_grad: it returns the parameters' gradients, added here.
    void reverse_custom_grad(const Instr& in, int depth) {
        const ir::Function& f = *in.func;
        const ir::Function& g = *f.custom_grad;
        line(depth) << "{\n";
        std::vector<std::string> outs;
        if (g.return_type->is_tuple())
            for (size_t k = 0; k < g.return_type->elements.size(); ++k) {
                outs.push_back("grad_" + std::to_string(k));
                line(depth + 1) << c_type(g.return_type->elements[k]) << " " << outs.back()
                                << "{};\n";
            }
        line(depth + 1) << g.c_name << "(" << m_fe.args(in);
        bool first = in.args.empty();
        auto sep = [&]() -> Text& {
            if (!first) m_out << ", ";
            first = false;
            return m_out;
        };
        if (!f.return_type->is_void())
            for (VarId d : in.dsts) sep() << adj(d);  // adj_ret, or adj_ret0, adj_ret1...
        for (const std::string& o : outs) sep() << o;
        m_out << ");\n";
        size_t k = 0;
        for (VarId a : in.args) {
            if (!m_f.type_of(a)->is_value() && !m_f.type_of(a)->is_struct()) continue;
            if (gradient(a)) accumulate(a, outs[k], depth + 1);
            ++k;
        }
        line(depth) << "}\n";
        if (!f.return_type->is_void())
            for (VarId d : in.dsts) clear(d, depth);
    }

    void reverse_call_func(const Instr& in, int depth) {
        if (in.func->custom_grad) return reverse_custom_grad(in, depth);
        const ir::Function& g = *in.func;
        line(depth) << adjoint_name(g) << "(" << m_fe.args(in);
        bool first = in.args.empty();
        for (VarId a : in.args) {
            if (!gradient(a)) continue;
            m_out << (first ? "" : ", ") << adj(a);
            first = false;
        }
        const types::Type* rt = g.return_type;
        if (!rt->is_void())
            for (VarId d : in.dsts) {
                m_out << (first ? "" : ", ") << adj(d);
                first = false;
            }
        m_out << ");\n";
        if (!rt->is_void())
            for (VarId d : in.dsts) clear(d, depth);
    }

    void reverse_loop(const Instr& in, int depth) {
        const LoopPlan& info = m_plan.loop(in);
        std::string id = loop_id(in);
        bool for_range = in.kind == InstrKind::ForRange;
        std::string counter = for_range ? var(in.dsts[0]) : "";
        std::string set_counter = for_range ? counter + " = (" + c_type(m_f.type_of(in.dsts[0])) +
                                                  ")(" + var(in.args[0]) + " + rk_" + id + " * " +
                                                  var(in.args[2]) + ");\n"
                                            : "";
        line(depth) << "for (rk_" << id << " = trips_" << id << " - 1; rk_" << id << " >= 0; --rk_"
                    << id << ") {\n";
        if (info.strategy == LoopStrategy::Restore) {
            // Short loops restore iteration k's carried values from the history; longer ones
            // recompute them from the loop's entry values.
            line(depth + 1) << "if (trips_" << id << " <= " << k_adjoint_history << ") {\n";
            for (VarId v : info.carried)
                line(depth + 2) << var(v) << " = hist_" << id << "_" << var(v) << "[rk_" << id
                                << "];\n";
            line(depth + 1) << "} else {\n";
            for (VarId v : info.carried)
                line(depth + 2) << var(v) << " = save_" << id << "_" << var(v) << ";\n";
            line(depth + 2) << "for (rj_" << id << " = 0; rj_" << id << " < rk_" << id << "; ++rj_"
                            << id << ") {\n";
            if (for_range) {
                std::string c = set_counter;
                c.replace(c.find("rk_"), 3, "rj_");
                line(depth + 3) << c;
            }
            replay_block(in.body, depth + 3, nullptr);
            line(depth + 2) << "}\n";
            line(depth + 1) << "}\n";
        }
        if (for_range) line(depth + 1) << set_counter;
        replay_block(in.body, depth + 1, &in);
        reverse(in.body, depth + 1);
        line(depth) << "}\n";
        m_fe.reset_line();
    }

    /// Replays `b` (one iteration of a loop). With `jumps`, that loop's breaks and continues
    /// jump to their labels in the reversed iteration.
    void replay_block(const ir::Block& b, int depth, const Instr* jumps) {
        const Instr* saved_loop = m_goto_loop;
        int saved_nest = m_nest;
        m_goto_loop = jumps;
        m_nest = 0;
        m_fe.reset_line();
        m_fe.block(b, depth);
        m_goto_loop = saved_loop;
        m_nest = saved_nest;
        m_fe.reset_line();
    }

    const ir::Function& m_f;
    const passes::AdjointPlan& m_plan;
    Text& m_out;
    FunctionEmitter m_fe;
    const Instr* m_goto_loop = nullptr;  ///< the loop whose iteration is being replayed
    int m_nest = 0;                      ///< loops entered inside that replay
};

/// Hooks of a plain replay variant: native control flow, no saved values.
class PlainReplay final : public ReplayHooks {
public:
    bool intercept(const Instr&, int) override { return false; }
    void loop_entry(const Instr&, int) override {}
    void iteration_start(const Instr&, int) override {}
    void loop_exit(const Instr&) override {}
};

}  // namespace

void emit_struct_gradient_ops(const types::Type* t, Text& out) {
    // Declared next to the struct (the global namespace) so templates in native/ find them by
    // argument-dependent lookup, and brought into wp for the generated wp::add(...) calls.
    // Fields of types without atomics (bool, 8- and 16-bit integers) and arrays are carried
    // from the first operand, not added: a sum of structs adds what an atomic add would.
    auto adds = [](const types::Type* f) {
        if (f->is_struct()) return true;
        if (!f->is_value()) return false;
        const ScalarType s = f->scalar;
        return s != ScalarType::Bool && s != ScalarType::Int8 && s != ScalarType::UInt8 &&
               s != ScalarType::Int16 && s != ScalarType::UInt16;
    };
    const std::string c = c_type(t);
    for (const char* op : {"add", "sub"}) {  // fieldwise a + b, a - b
        out << "CUDA_CALLABLE " << c << " " << op << "(const " << c << "& a, const " << c
            << "& b) {\n    " << c << " r = a;\n";
        for (const types::StructField& f : t->fields) {
            if (!adds(f.type)) continue;
            std::string m = c_field(f.name);
            out << "    r." << m << " = wp::" << op << "(a." << m << ", b." << m << ");\n";
        }
        out << "    (void)b;\n    return r;\n}\n";
    }
    // atomic_add(p, v): each field that add() adds, atomically; returns the fields before
    out << "CUDA_CALLABLE " << c << " atomic_add(" << c << "* p, const " << c << "& v) {\n";
    out << "    " << c << " old = *p;\n";
    for (const types::StructField& f : t->fields) {
        if (!adds(f.type)) continue;
        std::string m = c_field(f.name);
        out << "    old." << m << " = wp::atomic_add(&p->" << m << ", v." << m << ");\n";
    }
    out << "    (void)v;\n    return old;\n}\n";
    out << "CUDA_CALLABLE void grad_accumulate(" << c << "* p, const " << c << "& v) {\n";
    for (const types::StructField& f : t->fields) {
        if (f.type->is_array()) continue;
        std::string m = c_field(f.name);
        out << "    wp::grad_accumulate(&p->" << m << ", v." << m << ");\n";
    }
    out << "    (void)p;\n    (void)v;\n}\n";
    out << "namespace wp {\nusing ::add;\nusing ::sub;\nusing ::atomic_add;\nusing "
           "::grad_accumulate;\n}  // namespace wp\n\n";
}

void emit_function_adjoint(const passes::AdjointPlan& plan, const Backend& backend, Text& out,
                           bool checked) {
    const ir::Function& f = *plan.function;
    PlainReplay plain;
    emit_function(f, backend, out, checked, &plain);
    if (!plan.differentiated) return;  // a func_grad/func_replay: used as is
    if (f.native) return emit_native_adjoint(plan, backend, out);

    AdjointPrinter ae(plan, out, checked);
    out << backend.function_qualifier() << " void " << adjoint_name(f) << "(";
    bool first = true;
    auto sep = [&]() -> Text& {
        if (!first) out << ", ";
        first = false;
        return out;
    };
    for (VarId p : f.params) sep() << c_type(f.type_of(p)) << " " << ae.var(p);
    for (VarId p : f.params)
        if (plan.gradient(p)) sep() << c_type(f.type_of(p)) << "& in_" << ae.adj(p);
    const types::Type* rt = f.return_type;
    if (rt->is_tuple()) {
        for (size_t i = 0; i < rt->elements.size(); ++i)
            sep() << c_type(rt->elements[i]) << " adj_ret_" << i;
    } else if (!rt->is_void()) {
        sep() << c_type(rt) << " adj_ret";
    }
    out << ") {\n";
    ae.declarations(1);
    ae.replay(1);
    ae.reverse(f.body, 1);
    for (VarId p : f.params)
        if (plan.gradient(p))
            out << "    in_" << ae.adj(p) << " = wp::add(in_" << ae.adj(p) << ", " << ae.adj(p)
                << ");\n";
    out << "}\n\n";
}

void emit_kernel_adjoint(const passes::AdjointPlan& plan, const Backend& backend, Text& out,
                         bool checked, const std::string& params, const std::string& body) {
    AdjointPrinter ae(plan, out, checked);
    out << kernel_body_header(*plan.function, backend, params, body);
    ae.declarations(1);
    ae.replay(1);
    ae.reverse(plan.function->body, 1);
    out << "}\n\n";
}

}  // namespace treadle::codegen
