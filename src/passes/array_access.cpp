// src/passes/array_access.cpp -- finds the array parameters a kernel reads and writes
#include "passes/array_access.h"

#include <map>

namespace treadle::passes {

namespace {

using ir::InstrKind;
using ir::VarId;

/// Walks a block; `root` maps array variables (parameters and views of them) to the index of
/// the parameter they view.
void walk(const ir::Function& k, const ir::Block& b, std::map<VarId, size_t>& root,
          std::vector<uint8_t>& access) {
    auto mark = [&](VarId v, uint8_t bits) {
        auto it = root.find(v);
        if (it != root.end()) access[it->second] |= bits;
    };
    for (const ir::Instr& in : b) {
        switch (in.kind) {
            case InstrKind::View:
            case InstrKind::Copy:
            case InstrKind::Assign:
                if (!in.args.empty() && root.count(in.args[0]) && !in.dsts.empty())
                    root[in.dsts[0]] = root[in.args[0]];
                break;
            case InstrKind::Load:
                mark(in.args[0], k_access_read);
                break;
            case InstrKind::Store:
                mark(in.args[0], k_access_write);
                break;
            case InstrKind::Call:
                if (ir::is_atomic_call(in)) mark(in.args[0], k_access_write);
                if (ir::writes_last_array(in)) {
                    for (size_t i = 0; i + 1 < in.args.size(); ++i) mark(in.args[i], k_access_read);
                    mark(in.args.back(), k_access_write);
                }
                break;
            case InstrKind::CallFunc:
                for (VarId a : in.args) mark(a, k_access_read | k_access_write);
                break;
            default:
                break;
        }
        walk(k, in.body, root, access);
        walk(k, in.orelse, root, access);
    }
}

}  // namespace

std::vector<uint8_t> array_param_access(const ir::Function& kernel) {
    std::vector<uint8_t> access(kernel.params.size(), 0);
    std::map<VarId, size_t> root;
    for (size_t i = 0; i < kernel.params.size(); ++i)
        if (kernel.type_of(kernel.params[i])->is_array()) root[kernel.params[i]] = i;
    walk(kernel, kernel.body, root, access);
    return access;
}

}  // namespace treadle::passes
