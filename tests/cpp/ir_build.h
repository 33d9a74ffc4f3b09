// tests/cpp/ir_build.h -- builds small ir::Function objects by hand, for tests of IR passes
//
// IrBuilder appends instructions to the current block of a function; if_/for_range/loop take
// callables that fill the nested blocks. It sets only the fields the IR's operand conventions
// (ir/instr_kinds.h) need, like sema does, so a built function passes ir::verify().
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir.h"

namespace treadle::test {

class IrBuilder {
public:
    using VarId = ir::VarId;
    using Type = types::Type;

    /// Builds into `f`, a kernel when `kernel` is set.
    IrBuilder(ir::Function& f, std::string name, bool kernel) : m_f(f), m_block(&f.body) {
        f.name = name;
        f.c_name = name;
        f.is_kernel = kernel;
        f.return_type = types::void_type();
    }

    /// The Python line the next instructions carry.
    void at_line(int line) { m_line = line; }

    VarId param(const Type* t, const std::string& name) {
        VarId v = m_f.new_var(t, name);
        m_f.vars[v].param = true;
        m_f.params.push_back(v);
        m_f.param_names.push_back(name);
        return v;
    }
    /// A mutable user variable (written by assign()), first set to `init`.
    VarId local(const std::string& name, VarId init) {
        VarId v = m_f.new_var(m_f.type_of(init), name, true);
        assign(v, init);
        return v;
    }

    VarId const_int(int64_t i) {
        types::ConstValue c{types::int32_type(), false, i, 0.0};
        return value(ir::InstrKind::Const, types::int32_type(), {}, "", c);
    }
    VarId const_float(double x) {
        types::ConstValue c{types::float32_type(), false, 0, x};
        return value(ir::InstrKind::Const, types::float32_type(), {}, "", c);
    }

    /// i = wp.tid() (flat, `n` == 1) or the `n` unravelled indices.
    std::vector<VarId> tid(int n = 1) {
        ir::Instr& in = emit(ir::InstrKind::Tid);
        for (int k = 0; k < n; ++k) in.dsts.push_back(m_f.new_var(types::int32_type()));
        m_f.tid_arity = n;
        return in.dsts;
    }

    VarId copy(VarId a) { return value(ir::InstrKind::Copy, m_f.type_of(a), {a}); }
    /// (t) a.
    VarId cast(VarId a, const Type* t) { return value(ir::InstrKind::Cast, t, {a}); }
    void assign(VarId dst, VarId src) { emit(ir::InstrKind::Assign, {dst}, {src}); }
    /// dst = a Call of the builtin whose native name is `callee` (sin, atomic_add, extract).
    VarId call(const std::string& callee, const Type* t, std::vector<VarId> args) {
        VarId d = value(ir::InstrKind::Call, t, std::move(args));
        m_block->at(m_index_of_last).builtin = builtins::find_callee(callee);
        return d;
    }
    /// dst:bool = a <op> b.
    VarId compare(const std::string& op, VarId a, VarId b) {
        return value(ir::InstrKind::Compare, types::bool_type(), {a, b}, op);
    }
    VarId load(VarId array, std::vector<VarId> index) {
        index.insert(index.begin(), array);
        return value(ir::InstrKind::Load, m_f.type_of(array)->dtype, std::move(index));
    }
    void store(VarId array, std::vector<VarId> index, VarId v) {
        index.insert(index.begin(), array);
        index.push_back(v);
        emit(ir::InstrKind::Store, {}, std::move(index));
    }
    /// array.shape[dim].
    VarId shape(VarId array, int dim) {
        types::ConstValue c{types::int32_type(), false, dim, 0.0};
        return value(ir::InstrKind::Shape, types::int32_type(), {array}, "", c);
    }

    void if_(VarId cond, const std::function<void()>& then_,
             const std::function<void()>& else_ = {}) {
        emit(ir::InstrKind::If, {}, {cond});
        size_t self = m_index_of_last;
        ir::Block then_block, else_block;
        nest(then_block, then_);
        if (else_) nest(else_block, else_);
        m_block->at(self).body = std::move(then_block);
        m_block->at(self).orelse = std::move(else_block);
    }
    /// for counter in range(lo, hi, step): `body(counter)`; returns the counter.
    VarId for_range(VarId lo, VarId hi, VarId step, const std::function<void(VarId)>& body) {
        VarId counter = m_f.new_var(m_f.type_of(lo), "", true);
        emit(ir::InstrKind::ForRange, {counter}, {lo, hi, step});
        size_t self = m_index_of_last;
        ir::Block b;
        nest(b, [&] { body(counter); });
        m_block->at(self).body = std::move(b);
        return counter;
    }
    /// while True: `body()`.
    void loop(const std::function<void()>& body) {
        emit(ir::InstrKind::Loop);
        size_t self = m_index_of_last;
        ir::Block b;
        nest(b, body);
        m_block->at(self).body = std::move(b);
    }
    void break_() { emit(ir::InstrKind::Break); }
    void continue_() { emit(ir::InstrKind::Continue); }
    void return_(std::vector<VarId> values = {}) {
        emit(ir::InstrKind::Return, {}, std::move(values));
    }

    /// Appends one instruction to the current block.
    ir::Instr& emit(ir::InstrKind kind, std::vector<VarId> dsts = {}, std::vector<VarId> args = {},
                    const std::string& callee = "") {
        m_block->emplace_back(kind, m_line);
        ir::Instr& in = m_block->back();
        in.dsts = std::move(dsts);
        in.args = std::move(args);
        in.callee = callee;
        m_index_of_last = m_block->size() - 1;
        return in;
    }

    /// Appends an instruction with one fresh result of type `t`; returns the result.
    VarId value(ir::InstrKind kind, const Type* t, std::vector<VarId> args,
                const std::string& callee = "", types::ConstValue c = {}) {
        VarId d = m_f.new_var(t);
        ir::Instr& in = emit(kind, {d}, std::move(args), callee);
        in.value = c;
        return d;
    }

private:
    void nest(ir::Block& b, const std::function<void()>& fill) {
        ir::Block* outer = m_block;
        size_t outer_last = m_index_of_last;
        m_block = &b;
        fill();
        m_block = outer;
        m_index_of_last = outer_last;
    }

    ir::Function& m_f;
    ir::Block* m_block;
    size_t m_index_of_last = 0;
    int m_line = 1;
};

}  // namespace treadle::test
