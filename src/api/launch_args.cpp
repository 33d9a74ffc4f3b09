// src/api/launch_args.cpp -- reads the KernelArgs of a C++ API launch for the runtime's packer
#include "api/launch_args.h"

namespace treadle {

namespace {

/// KernelArgs (and the adjoint Arrays of a backward launch) as the packer reads them: each
/// KernelArg already says what kind of value it holds.
class KernelArgSource : public ArgumentSource {
public:
    KernelArgSource(const std::vector<KernelArg>& args, const std::vector<Array>* adj_args)
        : m_args(args), m_adj(adj_args) {}

    size_t size() const override { return m_args.size(); }

    void read(size_t i, const PlanParam&, ArgValue& out) override {
        const KernelArg& a = m_args[i];
        out.overflow = false;
        out.is_unsigned = false;
        switch (a.kind) {
            case KernelArg::Kind::Array:
                out.kind = ArgValue::Kind::Array;
                out.array = a.array;
                break;
            case KernelArg::Kind::Components:
                out.kind = ArgValue::Kind::Components;
                out.scalar = ScalarType::Float64;
                out.data = a.components.data();
                out.count = a.components.size();
                break;
            case KernelArg::Kind::StructBytes:
                out.kind = ArgValue::Kind::StructBytes;
                out.data = a.bytes.data();
                out.count = a.bytes.size();
                break;
            case KernelArg::Kind::Bool:
                out.kind = ArgValue::Kind::Bool;
                out.i = a.i;
                break;
            case KernelArg::Kind::Int:
                out.kind = ArgValue::Kind::Int;
                out.i = a.i;
                out.is_unsigned = a.type == ScalarType::UInt64 && a.i < 0;
                break;
            case KernelArg::Kind::Float:
                // A float32 argument to a float64 parameter keeps its float32 value.
                out.kind = ArgValue::Kind::Float;
                out.f = a.f;
                break;
        }
    }

    int64_t adjoint_count() const override {
        return m_adj && !m_adj->empty() ? (int64_t)m_adj->size() : -1;
    }

    void read_adjoint(size_t i, const PlanParam&, ArgValue& out) override {
        const Array& a = (*m_adj)[i];
        out.kind = a.is_null() ? ArgValue::Kind::None : ArgValue::Kind::Array;
        out.array = &a;
    }

private:
    const std::vector<KernelArg>& m_args;
    const std::vector<Array>* m_adj;
};

}  // namespace

PackedLaunch pack_launch(const LaunchPlan& plan, const std::vector<int64_t>& dim,
                         const std::vector<KernelArg>& args, const std::vector<Array>* adj_args) {
    KernelArgSource source(args, adj_args);
    PackedLaunch out;
    out.block.resize(plan.block_size());
    out.bounds = pack_arguments(plan, dim.data(), dim.size(), source, adj_args != nullptr,
                                out.block.data(), adj_args ? nullptr : &out.written);
    return out;
}

}  // namespace treadle
