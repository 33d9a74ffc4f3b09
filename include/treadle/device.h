// include/treadle/device.h -- devices a kernel can run on ("cpu" now, "cuda:N" later)
#pragma once

#include <string>
#include <string_view>

namespace treadle {

/// A device handle: a small value type. Only the CPU exists until the CUDA back end lands;
/// parsing "cuda" or "cuda:N" then throws a treadle::Error (ErrorKind::Value) that says so.
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

    bool operator==(const Device& o) const { return m_kind == o.m_kind && m_ordinal == o.m_ordinal; }
    bool operator!=(const Device& o) const { return !(*this == o); }

private:
    Kind m_kind = Kind::Cpu;
    int m_ordinal = -1;
};

}  // namespace treadle
