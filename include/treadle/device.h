// include/treadle/device.h -- devices a kernel can run on ("cpu" now, "cuda:N" later)
#pragma once

#include <string>
#include <string_view>

namespace treadle {

/// A device handle: a small value type. "cuda:N" exists when the CUDA driver is present and
/// has at least N+1 devices; otherwise parsing it throws a treadle::Error (ErrorKind::Value)
/// that says why.
class Device {
public:
    enum class Kind { Cpu, Cuda };

    Device() = default;
    static Device cpu() { return Device(); }
    /// "cpu", "cuda", "cuda:N"; anything else throws ErrorKind::Value.
    static Device parse(std::string_view alias);

    Kind kind() const { return m_kind; }
    int ordinal() const { return m_ordinal; }
    bool is_cpu() const { return m_kind == Kind::Cpu; }
    bool is_cuda() const { return m_kind == Kind::Cuda; }
    /// "cpu" or "cuda:N".
    std::string alias() const;

    bool operator==(const Device& o) const {
        return m_kind == o.m_kind && m_ordinal == o.m_ordinal;
    }
    bool operator!=(const Device& o) const { return !(*this == o); }

private:
    Kind m_kind = Kind::Cpu;
    int m_ordinal = -1;
};

}  // namespace treadle
