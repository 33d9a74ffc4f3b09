// src/ir/verify.cpp -- structural checks of the IR, run after every pass in tests
#include <string>
#include <vector>

#include "ir/ir.h"

namespace treadle::ir {

namespace {

struct Verifier {
    const Function& f;
    std::vector<bool> defined;
    std::string error;

    void fail(const Instr& in, const std::string& what) {
        if (error.empty())
            error = std::string(instr_name(in.kind)) + " at line " + std::to_string(in.line) +
                    ": " + what;
    }

    void use(const Instr& in, VarId v) {
        if (!defined[v] && !f.vars[v].mutable_)
            fail(in, "operand %" + std::to_string(v) + " used before definition");
    }

    void def(const Instr& in, VarId v) {
        if (defined[v] && !f.vars[v].mutable_)
            fail(in, "%" + std::to_string(v) + " defined twice but not mutable");
        defined[v] = true;
    }

    void expect_args(const Instr& in, size_t n) {
        if (in.args.size() != n) fail(in, "expected " + std::to_string(n) + " operands");
    }

    /// Whether every operand and result names a typed variable of the function; the checks of
    /// each kind read their types, so they run only when this holds.
    bool in_range(const Instr& in) {
        for (VarId a : in.args) {
            if (a >= f.vars.size() || !f.vars[a].type) {
                fail(in, "operand %" + std::to_string(a) + bad_var(a));
                return false;
            }
        }
        for (VarId d : in.dsts) {
            if (d >= f.vars.size() || !f.vars[d].type) {
                fail(in, "result %" + std::to_string(d) + bad_var(d));
                return false;
            }
        }
        return true;
    }

    std::string bad_var(VarId v) const {
        return v >= f.vars.size() ? " out of range" : " has no type";
    }

    void block(const Block& b, int loop_depth) {
        for (const Instr& in : b) {
            if (!in_range(in)) return;
            for (VarId a : in.args) use(in, a);
            switch (in.kind) {
                case InstrKind::Const:
                    if (!in.value.type) fail(in, "constant without type");
                    break;
                case InstrKind::Construct:
                    if (in.dsts.size() != 1) fail(in, "construct needs one result");
                    break;
                case InstrKind::Field:
                    expect_args(in, 1);
                    if (!in.args.empty() && !f.type_of(in.args[0])->is_struct())
                        fail(in, "field of a value that is not a struct");
                    break;
                case InstrKind::WithField:
                    expect_args(in, 2);
                    if (in.dsts.size() != 1 || in.args.empty() ||
                        f.type_of(in.dsts[0]) != f.type_of(in.args[0]) ||
                        !f.type_of(in.args[0])->is_struct())
                        fail(in, "with_field needs a struct result of its operand's type");
                    break;
                case InstrKind::Copy:
                case InstrKind::Cast:
                case InstrKind::Print:
                    expect_args(in, 1);
                    break;
                case InstrKind::Assign:
                    expect_args(in, 1);
                    if (in.dsts.size() == 1 && !f.vars[in.dsts[0]].mutable_)
                        fail(in, "assign to an immutable variable");
                    if (in.dsts.size() == 1 && in.args.size() == 1 &&
                        f.type_of(in.dsts[0]) != f.type_of(in.args[0]))
                        fail(in, "assign between different types");
                    break;
                case InstrKind::Compare:
                    expect_args(in, 2);
                    break;
                case InstrKind::Select:
                    expect_args(in, 3);
                    break;
                case InstrKind::Load:
                case InstrKind::View:
                case InstrKind::Store:
                case InstrKind::StoreField:
                    if (in.args.empty() || !f.type_of(in.args[0])->is_array())
                        fail(in, "first operand must be an array");
                    break;
                case InstrKind::Shape:
                    expect_args(in, 1);
                    break;
                case InstrKind::CallFunc:
                    if (!in.func) fail(in, "call without target");
                    break;
                case InstrKind::Grad:
                    if (!in.func == !in.builtin) fail(in, "grad needs one builtin or function");
                    if (!in.value.type) fail(in, "grad without the result's adjoint");
                    break;
                case InstrKind::If:
                    expect_args(in, 1);
                    break;
                case InstrKind::ForRange:
                    expect_args(in, 3);
                    if (in.dsts.size() != 1) fail(in, "loop needs one counter");
                    break;
                case InstrKind::Break:
                case InstrKind::Continue:
                    if (loop_depth == 0) fail(in, "outside a loop");
                    break;
                case InstrKind::Call:
                    if (in.dsts.empty()) fail(in, "call needs a result");
                    if (!in.builtin) fail(in, "call without a builtin");
                    break;
                case InstrKind::Logical:
                case InstrKind::Tid:
                case InstrKind::Printf:
                case InstrKind::Loop:
                case InstrKind::Return:
                    break;
            }
            for (VarId d : in.dsts) def(in, d);
            bool loop = in.kind == InstrKind::ForRange || in.kind == InstrKind::Loop;
            if (!in.body.empty()) block(in.body, loop_depth + (loop ? 1 : 0));
            if (!in.orelse.empty()) block(in.orelse, loop_depth);
        }
    }
};

}  // namespace

std::string verify(const Function& f) {
    Verifier v{f, std::vector<bool>(f.vars.size(), false), {}};
    for (VarId p : f.params) {
        if (p >= f.vars.size() || !f.vars[p].type)
            return "parameter %" + std::to_string(p) + v.bad_var(p);
        v.defined[p] = true;
    }
    v.block(f.body, 0);
    return v.error;
}

}  // namespace treadle::ir
