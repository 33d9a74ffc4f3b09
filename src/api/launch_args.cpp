// src/api/launch_args.cpp -- packs the KernelArgs of a C++ API launch (forward or backward)
#include "api/launch_args.h"

#include "passes/array_access.h"
#include "treadle/error.h"

namespace treadle {

PackedLaunch pack_launch(const CompiledKernel& k, const std::vector<int64_t>& dim,
                         const std::vector<KernelArg>& args, const std::vector<Array>* adj_args) {
    const bool adjoint = adj_args != nullptr;
    if (args.size() != k.params.size())
        throw Error(ErrorKind::Type, k.name + "(): takes " + std::to_string(k.params.size()) +
                                         " arguments but " + std::to_string(args.size()) +
                                         " were given");
    if (adjoint && !adj_args->empty() && adj_args->size() != args.size())
        throw Error(ErrorKind::Type, k.name + "(): expects " + std::to_string(args.size()) +
                                         " adjoint arguments but " +
                                         std::to_string(adj_args->size()) + " were given");
    PackedLaunch out;
    out.bounds = make_bounds(k, dim);
    out.block.assign(k.params_size + 8, 0);
    uint8_t* block = out.block.data();
    std::vector<const void*> seen;  // backward: buffers of the arrays so far
    for (size_t i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        const KernelParam& p = k.params[i];
        const Array* adj =
            adjoint && !adj_args->empty() && !(*adj_args)[i].is_null() ? &(*adj_args)[i] : nullptr;
        if (adj && (a.kind != KernelArg::Kind::Array || !p.type->is_array()))
            throw Error(ErrorKind::Type, k.name + "(): argument '" + p.name +
                                             "' is not an array, so its adjoint must be a "
                                             "null Array");
        switch (a.kind) {
            case KernelArg::Kind::Array:
                if (adjoint && p.type->is_array() && !a.array->is_null()) {
                    Array view = with_adjoint(k, p, *a.array, adj);
                    pack_array(block, k, p, view, k.device);
                    if (shares_memory(view, seen)) out.bounds.flags |= k_launch_aliased_arrays;
                    break;
                }
                pack_array(block, k, p, *a.array, k.device);
                if (!adjoint && (p.access & passes::k_access_write)) out.written.push_back(a.array);
                break;
            case KernelArg::Kind::Components:
                if (p.type->is_scalar() || p.type->is_array() || p.type->is_struct())
                    throw Error(ErrorKind::Type,
                                k.name + "(): argument '" + p.name + "' expects " + p.type->name +
                                    ", got " + std::to_string(a.components.size()) + " components");
                pack_components(block, k, p, a.components);
                break;
            case KernelArg::Kind::StructBytes:
                pack_struct_bytes(block, k, p, a.bytes.data(), a.bytes.size());
                break;
            case KernelArg::Kind::Bool:
                pack_int(block, k, p, a.i, true);
                break;
            case KernelArg::Kind::Int:
                pack_int(block, k, p, a.i, false);
                break;
            case KernelArg::Kind::Float:
                // A float32 argument to a float64 parameter keeps its float32 value.
                pack_float(block, k, p, a.f);
                break;
        }
    }
    return out;
}

}  // namespace treadle
