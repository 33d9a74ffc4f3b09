// src/runtime/device.cpp -- parsing and naming of device aliases ("cpu", "cuda", "cuda:N")
#include "treadle/device.h"

#include <charconv>
#include <string>

#include "runtime/cuda.h"
#include "treadle/error.h"

namespace treadle {

namespace {

[[noreturn]] void throw_no_cuda(std::string_view alias) {
    std::string reason = cuda::unavailable_reason();
    throw Error(ErrorKind::Value, "get_device(): device '" + std::string(alias) +
                                      "' is not available: CUDA is not available" +
                                      (reason.empty() ? std::string() : " (" + reason + ")") +
                                      "; use 'cpu'");
}

[[noreturn]] void throw_no_such_device(std::string_view alias, int count) {
    throw Error(ErrorKind::Value, "get_device(): " + std::string(alias) + " does not exist (" +
                                      std::to_string(count) + " CUDA device" +
                                      (count == 1 ? ")" : "s)"));
}

/// True when `text` is a non-empty run of decimal digits that fits an int.
bool parse_ordinal(std::string_view text, int& out) {
    if (text.empty() || text.size() > 9) return false;
    for (char c : text)
        if (c < '0' || c > '9') return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

Device Device::parse(std::string_view alias) {
    if (alias == "cpu") return Device::cpu();
    int ordinal = -1;
    constexpr std::string_view k_cuda_prefix = "cuda:";
    if (alias == "cuda") {
        ordinal = 0;  // the current CUDA device: always the first one for now
    } else if (alias.substr(0, k_cuda_prefix.size()) != k_cuda_prefix ||
               !parse_ordinal(alias.substr(k_cuda_prefix.size()), ordinal)) {
        throw Error(ErrorKind::Value, "get_device(): invalid device identifier '" +
                                          std::string(alias) +
                                          "'; expected 'cpu', 'cuda' or 'cuda:N' (N = 0, 1, ...)");
    }
    if (!cuda::is_available()) throw_no_cuda(alias);
    const int count = cuda::device_count();
    if (ordinal >= count) throw_no_such_device(alias, count);
    Device d;
    d.m_kind = Kind::Cuda;
    d.m_ordinal = ordinal;
    return d;
}

std::string Device::alias() const {
    if (m_kind == Kind::Cpu) return "cpu";
    return "cuda:" + std::to_string(m_ordinal < 0 ? 0 : m_ordinal);
}

}  // namespace treadle
