// src/passes/tile_divergence.cpp -- refuses block-wide tile operations in per-thread branches
//
// A forward dataflow over each function: a variable "varies" when its value can differ
// between the threads of one block (the last index wp.tid() gives, an atomic's old value,
// anything computed from those, anything assigned under a condition that varies). Branches,
// loops and early exits whose condition varies make a divergent region; a block-wide tile
// operation (or a call of a function that has one) in such a region is refused. Loops make
// the dataflow iterate to a fixed point before the check runs.
#include "passes/tile_divergence.h"

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "treadle/error.h"

namespace treadle::passes {

using ir::Block;
using ir::Function;
using ir::Instr;
using ir::InstrKind;
using ir::VarId;

namespace {

/// Tile builtins each thread runs on its own elements only (no barrier): allowed anywhere.
bool per_thread_tile_op(const char* name) {
    static const std::set<std::string> names = {
        "tile_load",  "tile_store",       "tile_atomic_add",  "tile_zeros",
        "tile_ones",  "tile_full",        "tile_arange",      "tile",
        "untile",     "tile_from_vector", "tile_from_matrix", "tile_randi",
        "tile_randf", "tile_astype",      "tile_reshape",     "tile_map",
        "block_dim",  "tile_stack_count"};
    return names.count(name) != 0;
}

bool block_op(const Instr& in) {
    const builtins::Builtin* b = ir::called_builtin(in);
    return b && b->group && std::strcmp(b->group, "Tile Primitives") == 0 &&
           !per_thread_tile_op(b->name);
}

/// Builtins whose results differ between threads whatever their arguments.
bool varies_by_itself(const Instr& in) {
    if (ir::is_atomic_call(in)) return true;
    const builtins::Builtin* b = ir::called_builtin(in);
    return b &&
           (std::strcmp(b->name, "untile") == 0 || std::strcmp(b->name, "tile_stack_pop") == 0);
}

class Checker {
public:
    explicit Checker(const ir::Program& program) : m_program(program) {}

    void check_kernel() {
        const Function& k = *m_program.kernel;
        analyse(k, std::vector<bool>(k.params.size(), false), /*report=*/true);
    }

private:
    struct State {
        std::vector<bool> varies;  ///< per variable
        /// Loops a varying exit makes divergent, with that exit's condition line.
        std::map<const Instr*, int> divergent_loops;
        int return_line = 0;  ///< a varying early return's line: the rest is divergent
        bool changed = false;
    };

    /// Whether f (or a function it calls) has a block-wide tile operation.
    bool has_block_op(const Function& f) {
        auto it = m_has_block_op.find(&f);
        if (it != m_has_block_op.end()) return it->second;
        m_has_block_op[&f] = false;  // recursion is refused earlier; break cycles anyway
        bool found = scan_block_ops(f.body);
        m_has_block_op[&f] = found;
        return found;
    }
    bool scan_block_ops(const Block& block) {
        for (const Instr& in : block) {
            if (block_op(in)) return true;
            if (in.kind == InstrKind::CallFunc && in.func && has_block_op(*in.func)) return true;
            if (scan_block_ops(in.body) || scan_block_ops(in.orelse)) return true;
        }
        return false;
    }

    using Key = std::pair<const Function*, std::vector<bool>>;

    /// Whether a result of f can vary between threads when the parameters flagged in
    /// `params` do (memoised per function and flags); `report`: refuse what is divergent.
    bool analyse(const Function& f, const std::vector<bool>& params, bool report) {
        Key key{&f, params};
        if (!m_results.count(key)) {
            m_results[key] = true;  // pessimistic while in progress (recursion)
            State s;
            s.varies.assign(f.vars.size(), false);
            for (size_t i = 0; i < f.params.size() && i < params.size(); ++i)
                if (params[i]) s.varies[f.params[i]] = true;
            bool result = false;
            do {  // loops carry values around: iterate to a fixed point
                s.changed = false;
                s.return_line = 0;
                result = walk(f, f.body, 0, nullptr, s, false) || result;
            } while (s.changed);
            m_results[key] = result;
            m_states[key] = std::move(s);
        }
        if (report && m_reported.insert(key).second) {
            State s = m_states[key];
            s.return_line = 0;
            walk(f, f.body, 0, nullptr, s, true);
        }
        return m_results[key];
    }

    void mark(State& s, VarId v) {
        if (v < s.varies.size() && !s.varies[v]) {
            s.varies[v] = true;
            s.changed = true;
        }
    }
    bool any_varies(const State& s, const std::vector<VarId>& vs) const {
        for (VarId v : vs)
            if (v < s.varies.size() && s.varies[v]) return true;
        return false;
    }

    [[noreturn]] void refuse(const Function& f, const Instr& in, int line,
                             const std::string& what) {
        throw Error(ErrorKind::Compile,
                    f.name + "(): " + what +
                        " runs on every thread of the block together, but here it is inside "
                        "a branch, loop or early exit on a value that differs between the "
                        "threads (line " +
                        std::to_string(line) +
                        "): treadle's tiles are spread over the threads' registers, so on "
                        "CUDA the threads outside the branch would never meet it (a hang or "
                        "stale elements). Do the tile operation outside the branch, with the "
                        "per-thread choice as a mask (tile_scatter_add and tile_scatter_masked "
                        "take a has_value argument)",
                    ir::source_location(f, in.line, in.col));
    }

    /// Walks `block` with `line` the varying condition that makes it divergent (0: uniform);
    /// `loop` is the innermost loop. Returns whether a value it returns can vary.
    bool walk(const Function& f, const Block& block, int line, const Instr* loop, State& s,
              bool report) {
        bool returns_vary = false;
        for (const Instr& in : block) {
            if (!line && s.return_line) line = s.return_line;
            if (!line && loop && s.divergent_loops.count(loop)) line = s.divergent_loops[loop];
            if (report && line) {
                if (block_op(in)) refuse(f, in, line, std::string(in.builtin->name) + "()");
                if (in.kind == InstrKind::CallFunc && in.func && has_block_op(*in.func))
                    refuse(f, in, line, in.func->name + "() (it uses tiles)");
            }
            switch (in.kind) {
                case InstrKind::If: {
                    const int inner = line ? line : any_varies(s, in.args) ? in.line : 0;
                    if (inner && !line) {
                        if (loop && exits_loop(in) && !s.divergent_loops.count(loop)) {
                            s.divergent_loops[loop] = in.line;
                            s.changed = true;
                        }
                        if (returns(in.body) || returns(in.orelse)) s.return_line = in.line;
                    }
                    returns_vary = walk(f, in.body, inner, loop, s, report) || returns_vary;
                    returns_vary = walk(f, in.orelse, inner, loop, s, report) || returns_vary;
                    break;
                }
                case InstrKind::ForRange: {
                    // a varying start alone (range(lane, n, block_dim), Warp's strided
                    // loop) is taken as the same trip count in every thread; a varying stop
                    // or step is not
                    int inner = line;
                    const bool bounds_vary = any_varies(s, in.args);
                    if (!inner && in.args.size() == 3 && any_varies(s, {in.args[1], in.args[2]}))
                        inner = in.line;
                    if (inner || bounds_vary)
                        for (VarId d : in.dsts) mark(s, d);
                    returns_vary = walk(f, in.body, inner, &in, s, report) || returns_vary;
                    break;
                }
                case InstrKind::Loop:
                    returns_vary = walk(f, in.body, line, &in, s, report) || returns_vary;
                    break;
                case InstrKind::Return:
                    returns_vary = returns_vary || line || any_varies(s, in.args);
                    break;
                case InstrKind::CallFunc: {
                    std::vector<bool> flags;
                    for (VarId a : in.args) flags.push_back(any_varies(s, {a}));
                    const bool result = in.func && analyse(*in.func, flags, report);
                    if (result || line)
                        for (VarId d : in.dsts) mark(s, d);
                    break;
                }
                case InstrKind::Tid:
                    // a tiled launch's last index is the thread's position in the block; the
                    // others (the tile's coordinates) are the same for the whole block
                    if (!in.dsts.empty()) mark(s, in.dsts.back());
                    if (line)
                        for (VarId d : in.dsts) mark(s, d);
                    break;
                default:
                    if (line || varies_by_itself(in) || any_varies(s, in.args))
                        for (VarId d : in.dsts) mark(s, d);
                    break;
            }
        }
        return returns_vary;
    }

    /// Whether an If's branches leave the enclosing loop (break / continue, not in a nested
    /// loop) or the function.
    static bool exits_loop(const Instr& in) { return exits(in.body) || exits(in.orelse); }
    static bool exits(const Block& block) {
        for (const Instr& in : block) {
            if (in.kind == InstrKind::Return || in.kind == InstrKind::Break ||
                in.kind == InstrKind::Continue)
                return true;
            if (in.kind == InstrKind::If && exits_loop(in)) return true;
            if ((in.kind == InstrKind::Loop || in.kind == InstrKind::ForRange) && returns(in.body))
                return true;
        }
        return false;
    }
    static bool returns(const Block& block) {
        for (const Instr& in : block)
            if (in.kind == InstrKind::Return || returns(in.body) || returns(in.orelse)) return true;
        return false;
    }

    const ir::Program& m_program;
    std::map<const Function*, bool> m_has_block_op;
    std::map<Key, bool> m_results;
    std::map<Key, State> m_states;
    std::set<Key> m_reported;
};

}  // namespace

void check_tile_divergence(const ir::Program& program) {
    if (!program.kernel || program.tile_block_dim <= 1 || !program.uses_tiles()) return;
    Checker(program).check_kernel();
}

}  // namespace treadle::passes
