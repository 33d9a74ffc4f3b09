// src/codegen/adjoint.cpp -- reverse-mode autodiff: prints the adjoint of a kernel or function
//
// The adjoint of a function runs in two parts inside one C++ function:
//   1. Replay: the forward statements again (FunctionEmitter in replay mode), without side
//      effects, so every value the adjoint needs is in its local variable.
//   2. Reverse: for each instruction in reverse order, its adjoint statement (`adj_f` from the
//      native library for builtins), which adds the gradient of the instruction's result to the
//      gradients of its operands and then clears the result's gradient.
// Key structures: `AdjointEmitter` (the walk and the ReplayHooks), `LoopInfo` (per loop: the
// variables it carries and whether its adjoint must recompute them).
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
//     iterations from last to first; for iteration k it restores the loop-carried variables to
//     their values at loop entry, recomputes iterations 0..k-1 (forward only), replays iteration
//     k and reverses it. Recomputation makes overwritten loop-carried variables correct at O(n^2)
//     replay cost; it is skipped (O(n)) when the adjoint of the body never needs the value of a
//     carried variable (accumulations such as `s += f(x[i])`), and for loops of at most
//     k_history trips, whose carried values the replay keeps per iteration.
// Refused, with an error at the Python line: a return inside a loop, and using the value an
// atomic returns (the backward pass cannot know it).
#include <algorithm>
#include <map>
#include <set>

#include "codegen/function_emitter.h"
#include "common/assert.h"
#include "sema/builtins.h"
#include "treadle/error.h"

namespace treadle::codegen {

using ir::Instr;
using ir::InstrKind;
using ir::VarId;
using sema::Type;

namespace {

/// A type whose values have a gradient: a float scalar, a vector/matrix/quaternion/transform
/// of floats, or a struct with such a field (at any depth).
bool has_gradient(const Type* t) {
    if (!t) return false;
    if (t->is_struct()) {
        for (const sema::StructField& f : t->fields)
            if (has_gradient(f.type)) return true;
        return false;
    }
    return t->is_value() && treadle::is_float(t->scalar);
}

/// Types that get an adjoint variable (integers too, for the adj_ functions' index slots).
bool has_adjoint_slot(const Type* t) { return t && (t->is_value() || t->is_struct()); }

/// The callee without template arguments ("vec_fill<3, float>" -> "vec_fill").
std::string base_callee(const std::string& callee) { return callee.substr(0, callee.find('<')); }

/// Whether a Call of `callee` has an adjoint. Builtins say so in the table; calls that
/// inference generates itself (extract, with_component, vec_fill, ...) are differentiable.
bool call_differentiable(const std::string& callee) {
    static const std::map<std::string, bool> by_native = [] {
        std::map<std::string, bool> m;
        for (const sema::Builtin& b : sema::builtin_table())
            if (b.native) m.emplace(b.native, b.differentiable);
        return m;
    }();
    auto it = by_native.find(base_callee(callee));
    return it == by_native.end() || it->second;
}

/// Calls whose adjoint is linear in the operands at `linear` positions and needs no primal
/// value of them (used to skip loop recomputation).
bool linear_operand(const Instr& in, size_t i) {
    static const std::set<std::string> linear = {
        "add",      "sub",       "neg",           "pos",           "vec_fill",
        "mat_fill", "transpose", "mat_from_rows", "mat_from_cols", "transform_from"};
    std::string c = base_callee(in.callee);
    if (linear.count(c)) return true;
    // extract(a, i...), with_component(a, i..., s), with_row(m, i, r): linear in the value
    // operands, not in the indices.
    if (c == "extract") return i == 0;
    if (c == "with_component" || c == "with_row") return i == 0 || i + 1 == in.args.size();
    return false;
}

/// Iterations of a loop whose carried values the replay keeps, so that reversing a loop of at
/// most this many trips needs no recomputation.
constexpr int k_history = 16;

struct LoopInfo {
    int id = 0;
    std::vector<VarId> carried;  ///< mutable variables assigned in the body (any depth)
    bool recompute = true;       ///< the adjoint needs carried values: recompute them
};

class AdjointEmitter final : public ReplayHooks {
public:
    AdjointEmitter(const ir::Function& f, Text& out, bool checked)
        : m_f(f), m_out(out), m_fe(f, out, checked, this) {
        for (const Instr& in : f.body) analyse(in, nullptr);
        find_used(f.body);
        if (f.is_kernel) find_owned();
        check(f.body, 0);
    }

    std::string var(VarId v) const { return m_fe.var(v); }
    std::string adj(VarId v) const { return "adj_" + var(v); }

    /// Primal variables (except parameters), adjoints of every value variable (parameters too),
    /// the saved values of assignments and loops, and loop counters.
    void declarations(int depth) {
        m_fe.declarations(depth);
        for (VarId v = 0; v < m_f.vars.size(); ++v) {
            const Type* t = m_f.vars[v].type;
            if (!has_adjoint_slot(t)) continue;
            line(depth) << t->c_name << " " << adj(v) << "{};\n";
        }
        // In id order: the maps are keyed by address, which differs from run to run, and the
        // generated source (and so the cache key) must not.
        std::vector<std::pair<int, const Instr*>> assigns;
        for (const auto& [in, id] : m_assign_ids) assigns.emplace_back(id, in);
        std::sort(assigns.begin(), assigns.end());
        for (const auto& [id, in] : assigns)
            line(depth) << m_f.type_of(in->dsts[0])->c_name << " prev_" << id << "{};\n";
        std::vector<const LoopInfo*> loops;
        for (const auto& entry : m_loops) loops.push_back(&entry.second);
        std::sort(loops.begin(), loops.end(),
                  [](const LoopInfo* a, const LoopInfo* b) { return a->id < b->id; });
        for (const LoopInfo* loop_info : loops) {
            const LoopInfo& info = *loop_info;
            line(depth) << "wp::int64 trips_" << info.id << " = 0, rk_" << info.id << " = 0, rj_"
                        << info.id << " = 0;\n";
            for (VarId v : info.carried) {
                line(depth) << m_f.type_of(v)->c_name << " save_" << info.id << "_" << var(v)
                            << "{};\n";
                if (info.recompute)
                    line(depth) << m_f.type_of(v)->c_name << " hist_" << info.id << "_" << var(v)
                                << "[" << k_history << "]{};\n";
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
                int id = m_assign_ids.at(&in);
                std::string dst = var(in.dsts[0]);
                line(depth) << "prev_" << id << " = " << dst << "; " << dst << " = "
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
        const LoopInfo& info = m_loops.at(&loop);
        line(depth) << "trips_" << info.id << " = 0;";
        for (VarId v : info.carried)
            m_out << " save_" << info.id << "_" << var(v) << " = " << var(v) << ";";
        m_out << "\n";
        ++m_nest;
    }
    void iteration_start(const Instr& loop, int depth) override {
        const LoopInfo& info = m_loops.at(&loop);
        std::string id = std::to_string(info.id);
        if (info.recompute && !info.carried.empty()) {
            // the carried values at the start of each of the first k_history iterations
            line(depth) << "if (trips_" << id << " < " << k_history << ") {";
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

    int label(const Instr& in) {
        auto [it, added] = m_labels.emplace(&in, (int)m_labels.size());
        (void)added;
        return it->second;
    }

    [[noreturn]] void refuse(const Instr& in, const std::string& what) const {
        SourceLocation where;
        if (m_f.source) {
            where.file = m_f.source->path;
            where.line = in.line;
            where.line_text = m_f.source->line_text(in.line);
            size_t col = where.line_text.find_first_not_of(" \t");
            where.col = col == std::string::npos ? 1 : (int)col + 1;
        }
        throw Error(ErrorKind::Compile, m_f.name + "(): cannot differentiate " + what, where);
    }

    // --- analysis ---
    void analyse(const Instr& in, std::vector<const Instr*>* enclosing) {
        if (in.kind == InstrKind::Assign) {
            m_assign_ids.emplace(&in, (int)m_assign_ids.size());
            if (enclosing)
                for (const Instr* loop : *enclosing) add_carried(*loop, in.dsts[0]);
        }
        bool is_loop = in.kind == InstrKind::ForRange || in.kind == InstrKind::Loop;
        std::vector<const Instr*> inner = enclosing ? *enclosing : std::vector<const Instr*>{};
        if (is_loop) {
            LoopInfo info;
            info.id = (int)m_loops.size();
            m_loops.emplace(&in, info);
            inner.push_back(&in);
        }
        for (const Instr& c : in.body) analyse(c, &inner);
        for (const Instr& c : in.orelse) analyse(c, &inner);
        if (is_loop) m_loops.at(&in).recompute = needs_recompute(in);
    }

    void add_carried(const Instr& loop, VarId v) {
        std::vector<VarId>& c = m_loops.at(&loop).carried;
        for (VarId x : c)
            if (x == v) return;
        c.push_back(v);
    }

    void find_used(const ir::Block& b) {
        for (const Instr& in : b) {
            for (VarId a : in.args) m_used.insert(a);
            find_used(in.body);
            find_used(in.orelse);
        }
    }

    /// Kernel array parameters whose every element access is at the thread's own launch
    /// index (a[i] with i = wp.tid(), a[i, j] with i, j = wp.tid()): the thread owns those
    /// gradient elements, so the backward pass adds to them without atomics (unless the
    /// launch passes one array twice; see wp::grad_add_owned).
    void find_owned() {
        std::map<VarId, int> tid_position;  // a variable holding launch index k -> k (-1: flat)
        std::vector<const Instr*> accesses;
        std::set<VarId> disqualified;
        walk(m_f.body, [&](const Instr& in) {
            if (in.kind == InstrKind::Tid) {
                for (size_t k = 0; k < in.dsts.size(); ++k)
                    tid_position[in.dsts[k]] = in.dsts.size() == 1 ? -1 : (int)k;
                return;
            }
            if (in.kind == InstrKind::Copy && tid_position.count(in.args[0])) {
                tid_position[in.dsts[0]] = tid_position[in.args[0]];
                return;
            }
            bool element =
                in.kind == InstrKind::Load || in.kind == InstrKind::Store || ir::is_atomic_call(in);
            if (element) {
                accesses.push_back(&in);
                return;
            }
            for (VarId a : in.args)
                if (m_f.type_of(a)->is_array()) disqualified.insert(a);
        });
        for (const Instr* in : accesses) {
            VarId a = in->args[0];
            size_t n_idx = in->args.size() - 1 -
                           (in->kind == InstrKind::Load    ? 0
                            : in->kind == InstrKind::Store ? 1
                                                           : atomic_value_count(in->callee));
            // a[i] with the flat index, or a[i, j, ...] with every unpacked index in order
            bool own = n_idx == 1 || (int)n_idx == m_f.tid_arity;
            for (size_t k = 0; k < n_idx && own; ++k) {
                auto it = tid_position.find(in->args[1 + k]);
                own = it != tid_position.end() && it->second == (n_idx == 1 ? -1 : (int)k);
            }
            if (!own) disqualified.insert(a);
        }
        for (VarId p : m_f.params)
            // an indexed array may map two threads' indices to one element: never owned
            if (m_f.type_of(p)->is_array() && !m_f.type_of(p)->indexed && !disqualified.count(p))
                m_owned.insert(p);
    }

    template <typename Visit>
    void walk(const ir::Block& b, Visit&& visit) {
        for (const Instr& in : b) {
            visit(in);
            walk(in.body, visit);
            walk(in.orelse, visit);
        }
    }

    /// Refuses what the adjoint cannot reverse correctly; `loops` is the loop depth.
    void check(const ir::Block& b, int loops) {
        for (const Instr& in : b) {
            if (in.kind == InstrKind::Return && loops > 0)
                refuse(in,
                       "a return inside a loop (the backward pass reverses whole loop "
                       "iterations); set a flag and break out of the loop instead");
            bool atomic = ir::is_atomic_call(in);
            if (atomic && !in.dsts.empty() && m_used.count(in.dsts[0]))
                refuse(in, "code that uses the value " + base_callee(in.callee) +
                               "() returns (the backward pass cannot recover it); compute "
                               "the slot in a separate kernel that is not recorded");
            if (atomic && base_callee(in.callee) == "atomic_cas" &&
                has_gradient(m_f.type_of(in.args.back())))
                refuse(in,
                       "atomic_cas on an array of floats (whether it stores depends on the "
                       "value found there); use it on integer arrays, or leave the kernel "
                       "out of the tape");
            bool loop = in.kind == InstrKind::ForRange || in.kind == InstrKind::Loop;
            check(in.body, loops + (loop ? 1 : 0));
            check(in.orelse, loops);
        }
    }

    /// Whether the adjoint of `loop`'s body needs the value of a variable it carries.
    bool needs_recompute(const Instr& loop) {
        const std::vector<VarId>& carried = m_loops.at(&loop).carried;
        if (carried.empty()) return false;
        std::set<VarId> tainted(carried.begin(), carried.end());
        // Iterate to a fixed point: taint flows around the loop through the carried variables.
        for (;;) {
            size_t before = tainted.size();
            if (taint(loop.body, tainted)) return true;
            if (tainted.size() == before) return false;
        }
    }

    /// Propagates taint through `b`; true when a tainted value is used where its primal value
    /// matters.
    bool taint(const ir::Block& b, std::set<VarId>& tainted) {
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
                    if (atomic ? i + atomic_value_count(in.callee) < in.args.size()
                               : !linear_operand(in, i))
                        return true;
                }
                return false;
            }
            default:  // comparisons, conditions, indices, user functions, random numbers
                return true;
        }
    }

    // --- reverse ---
    void clear(VarId v, int depth) { line(depth) << adj(v) << " = {};\n"; }
    /// adj(v) += `gradient` (an expression).
    void accumulate(VarId v, const std::string& gradient, int depth) {
        line(depth) << adj(v) << " = wp::add(" << adj(v) << ", " << gradient << ");\n";
    }

    void reverse(const Instr& in, int depth) {
        m_fe.line_directive(in.line);
        VarId dst = in.dsts.empty() ? 0 : in.dsts[0];
        bool dst_grad = !in.dsts.empty() && has_gradient(m_f.type_of(dst));
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
                line(depth) << var(dst) << " = prev_" << m_assign_ids.at(&in) << ";\n";
                break;
            case InstrKind::Cast:
                if (dst_grad && has_gradient(m_f.type_of(in.args[0]))) {
                    line(depth) << "wp::adj_cast<" << m_f.type_of(dst)->c_name << ">("
                                << var(in.args[0]) << ", " << adj(in.args[0]) << ", " << adj(dst)
                                << ");\n";
                    clear(dst, depth);
                }
                break;
            case InstrKind::Construct:
                if (dst_grad) {
                    const Type* t = m_f.type_of(dst);
                    for (size_t k = 0; k < in.args.size(); ++k) {
                        if (t->is_struct()) {
                            if (!has_gradient(m_f.type_of(in.args[k]))) continue;
                            accumulate(in.args[k],
                                       adj(dst) + "." + sema::field_c_name(t->fields[k].name),
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
                reverse_call(in, depth, dst_grad);
                break;
            case InstrKind::Field:
                if (dst_grad) {
                    std::string field = adj(in.args[0]) + "." + sema::field_c_name(in.text);
                    line(depth) << field << " = wp::add(" << field << ", " << adj(dst) << ");\n";
                    clear(dst, depth);
                }
                break;
            case InstrKind::WithField:
                if (dst_grad) {
                    std::string field = adj(dst) + "." + sema::field_c_name(in.text);
                    if (has_gradient(m_f.type_of(in.args[1]))) accumulate(in.args[1], field, depth);
                    line(depth) << field << " = {};\n";
                    accumulate(in.args[0], adj(dst), depth);
                    clear(dst, depth);
                }
                break;
            case InstrKind::StoreField: {
                VarId v = in.args.back();
                if (has_gradient(m_f.type_of(v)))
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
                    bool owned = m_owned.count(in.args[0]) > 0;
                    line(depth) << (owned ? "wp::grad_add_owned" : "wp::grad_add")
                                << "(wp::grad_address(" << m_fe.args(in) << "), " << adj(dst)
                                << (owned ? ", bounds" : "") << ");\n";
                    clear(dst, depth);
                }
                break;
            case InstrKind::Store: {
                VarId v = in.args.back();
                if (has_gradient(m_f.type_of(v)))
                    accumulate(v,
                               "wp::grad_read(wp::grad_address(" +
                                   m_fe.args(in, 0, in.args.size() - 1) + "))",
                               depth);
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
                    if (!has_gradient(m_f.type_of(in.args[i]))) continue;
                    std::string ret = m_f.return_type->is_tuple() ? "adj_ret_" + std::to_string(i)
                                                                  : std::string("adj_ret");
                    accumulate(in.args[i], ret, depth);
                }
                break;
            case InstrKind::Const:
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

    void reverse_call(const Instr& in, int depth, bool dst_grad) {
        if (ir::writes_last_array(in)) {
            // the gradient of the written array flows back to the arrays it was filled from
            line(depth) << "wp::adj_" << in.callee << "(" << m_fe.args(in) << ");\n";
            return;
        }
        bool atomic = ir::is_atomic_call(in);
        if (atomic) {
            VarId v = in.args.back();
            if (!has_gradient(m_f.type_of(v))) return;
            std::string op = base_callee(in.callee);
            std::string where = "wp::grad_address(" + m_fe.args(in, 0, in.args.size() - 1) + ")";
            if (op == "atomic_exch")  // a store that also returns the old value
                accumulate(v, "wp::grad_read(" + where + ")", depth);
            else if (op == "atomic_add" || op == "atomic_sub")
                line(depth) << adj(v) << " = wp::" << (op == "atomic_add" ? "add" : "sub") << "("
                            << adj(v) << ", wp::grad_read(" << where << "));\n";
            else if (op == "atomic_min" || op == "atomic_max")
                line(depth) << "wp::adj_atomic_minmax(wp::load("
                            << m_fe.args(in, 0, in.args.size() - 1) << "), " << var(v) << ", "
                            << where << ", " << adj(v) << ");\n";
            return;
        }
        for (VarId d : in.dsts) dst_grad |= has_gradient(m_f.type_of(d));
        if (!dst_grad || in.args.empty() || !call_differentiable(in.callee)) return;
        bool any = false;
        for (VarId a : in.args) any |= has_gradient(m_f.type_of(a));
        if (!any) return;
        // adj_f(args..., [results... when several], adj_args..., adj_results...)
        line(depth) << "wp::adj_" << in.callee << "(" << m_fe.args(in);
        if (in.dsts.size() > 1)
            for (VarId d : in.dsts) m_out << ", " << var(d);
        for (VarId a : in.args) m_out << ", " << adj(a);
        for (VarId d : in.dsts) m_out << ", " << adj(d);
        m_out << ");\n";
        for (VarId d : in.dsts) clear(d, depth);
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
                line(depth + 1) << g.return_type->elements[k]->c_name << " " << outs.back()
                                << "{};\n";
            }
        line(depth + 1) << g.c_name << "(" << m_fe.args(in);
        bool first = in.args.empty();
        auto sep = [&]() -> Text& {
            if (!first) m_out << ", ";
            first = false;
            return m_out;
        };
        if (!f.return_type->is_void()) sep() << adj(in.dsts[0]);
        for (const std::string& o : outs) sep() << o;
        m_out << ");\n";
        size_t k = 0;
        for (VarId a : in.args) {
            if (!m_f.type_of(a)->is_value()) continue;
            if (has_gradient(m_f.type_of(a))) accumulate(a, outs[k], depth + 1);
            ++k;
        }
        line(depth) << "}\n";
        if (!f.return_type->is_void()) clear(in.dsts[0], depth);
    }

    void reverse_call_func(const Instr& in, int depth) {
        if (in.func->custom_grad) return reverse_custom_grad(in, depth);
        const ir::Function& g = *in.func;
        line(depth) << adjoint_name(g) << "(" << m_fe.args(in);
        bool first = in.args.empty();
        for (VarId a : in.args) {
            if (!has_gradient(m_f.type_of(a))) continue;
            m_out << (first ? "" : ", ") << adj(a);
            first = false;
        }
        const Type* rt = g.return_type;
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
        const LoopInfo& info = m_loops.at(&in);
        std::string id = std::to_string(info.id);
        bool for_range = in.kind == InstrKind::ForRange;
        std::string counter = for_range ? var(in.dsts[0]) : "";
        std::string set_counter = for_range ? counter + " = (" + m_f.type_of(in.dsts[0])->c_name +
                                                  ")(" + var(in.args[0]) + " + rk_" + id + " * " +
                                                  var(in.args[2]) + ");\n"
                                            : "";
        line(depth) << "for (rk_" << id << " = trips_" << id << " - 1; rk_" << id << " >= 0; --rk_"
                    << id << ") {\n";
        if (info.recompute) {
            // Short loops restore iteration k's carried values from the history; longer ones
            // recompute them from the loop's entry values.
            line(depth + 1) << "if (trips_" << id << " <= " << k_history << ") {\n";
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
    Text& m_out;
    FunctionEmitter m_fe;
    std::map<const Instr*, LoopInfo> m_loops;
    std::map<const Instr*, int> m_assign_ids;
    std::map<const Instr*, int> m_labels;
    std::set<VarId> m_used;
    std::set<VarId> m_owned;             ///< kernel arrays accessed only at the thread's own index
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

void emit_struct_gradient_ops(const Type* t, Text& out) {
    // Declared next to the struct (the global namespace) so templates in native/ find them by
    // argument-dependent lookup, and brought into wp for the generated wp::add(...) calls.
    const std::string& c = t->c_name;
    out << "CUDA_CALLABLE " << c << " add(const " << c << "& a, const " << c << "& b) {\n";
    out << "    " << c << " r = a;\n";
    for (const sema::StructField& f : t->fields) {
        if (f.type->is_array()) continue;
        std::string m = sema::field_c_name(f.name);
        out << "    r." << m << " = wp::add(a." << m << ", b." << m << ");\n";
    }
    out << "    return r;\n}\n";
    out << "CUDA_CALLABLE void grad_accumulate(" << c << "* p, const " << c << "& v) {\n";
    for (const sema::StructField& f : t->fields) {
        if (f.type->is_array()) continue;
        std::string m = sema::field_c_name(f.name);
        out << "    wp::grad_accumulate(&p->" << m << ", v." << m << ");\n";
    }
    out << "    (void)p;\n    (void)v;\n}\n";
    out << "namespace wp {\nusing ::add;\nusing ::grad_accumulate;\n}  // namespace wp\n\n";
}

void emit_function_adjoint(const ir::Function& f, const Backend& backend, Text& out, bool checked) {
    PlainReplay plain;
    emit_function(f, backend, out, checked, &plain);
    if (f.grad_helper) return;  // a func_grad/func_replay: used as is, never differentiated

    AdjointEmitter ae(f, out, checked);
    out << backend.function_qualifier() << " void " << adjoint_name(f) << "(";
    bool first = true;
    auto sep = [&]() -> Text& {
        if (!first) out << ", ";
        first = false;
        return out;
    };
    for (VarId p : f.params) sep() << f.type_of(p)->c_name << " " << ae.var(p);
    for (VarId p : f.params)
        if (has_gradient(f.type_of(p))) sep() << f.type_of(p)->c_name << "& in_" << ae.adj(p);
    const Type* rt = f.return_type;
    if (rt->is_tuple()) {
        for (size_t i = 0; i < rt->elements.size(); ++i)
            sep() << rt->elements[i]->c_name << " adj_ret_" << i;
    } else if (!rt->is_void()) {
        sep() << rt->c_name << " adj_ret";
    }
    out << ") {\n";
    ae.declarations(1);
    ae.replay(1);
    ae.reverse(f.body, 1);
    for (VarId p : f.params)
        if (has_gradient(f.type_of(p)))
            out << "    in_" << ae.adj(p) << " = wp::add(in_" << ae.adj(p) << ", " << ae.adj(p)
                << ");\n";
    out << "}\n\n";
}

void emit_kernel_adjoint(const ir::Function& k, const Backend& backend, Text& out, bool checked,
                         const std::string& params, const std::string& body) {
    AdjointEmitter ae(k, out, checked);
    out << kernel_body_header(k, backend, params, body);
    ae.declarations(1);
    ae.replay(1);
    ae.reverse(k.body, 1);
    out << "}\n\n";
}

}  // namespace treadle::codegen
