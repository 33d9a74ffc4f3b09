// src/api/accumulate.cpp -- into += from on any device, with a kernel per scalar type and device
#include "api/accumulate.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "treadle/error.h"
#include "treadle/module.h"

namespace treadle {

namespace {

/// The 1-D `into[i] = into[i] + from[i]` kernel over scalars of `scalar`, for `device`.
Kernel add_kernel(ScalarType scalar, Device device) {
    static std::mutex mutex;
    static std::map<std::pair<ScalarType, std::string>, Kernel> kernels;
    std::lock_guard<std::mutex> lock(mutex);
    auto key = std::make_pair(scalar, device.alias());
    auto it = kernels.find(key);
    if (it != kernels.end()) return it->second;
    const std::string type = std::string("wp.") + scalar_name(scalar);
    const std::string source =
        "import treadle as wp\n\n\n@wp.kernel\ndef accumulate(into: wp.array(dtype=" + type +
        "), src: wp.array(dtype=" + type +
        ")):\n    i = wp.tid()\n    into[i] = into[i] + src[i]\n";
    Kernel k = Module::load_string(source, "<accumulate>").kernel("accumulate", device);
    kernels.emplace(key, k);
    return k;
}

/// `a` (contiguous) seen as a 1-D array of its scalars; shares its memory.
Array scalars_of(const Array& a) {
    const DType& d = a.dtype();
    const int64_t per = (int64_t)std::max(d.rows, 1) * std::max(d.cols, 1);
    const int64_t width = (int64_t)scalar_size(d.scalar);
    return Array::wrap(a.data(), DType(d.scalar), {a.size() * per}, {width}, a.device(),
                       a.buffer());
}

}  // namespace

void accumulate_into(Array& into, const Array& from) {
    if (into.shape() != from.shape() || into.dtype() != from.dtype())
        throw Error(ErrorKind::Value,
                    "accumulate(): the arrays must have the same shape and dtype");
    if (into.dtype().is_struct())
        throw Error(ErrorKind::Type, "accumulate(): cannot add arrays of structs");
    if (into.size() == 0) return;
    Array src =
        from.device() == into.device() && from.is_contiguous() ? from : from.clone(into.device());
    if (!into.is_contiguous()) {
        Array sum = into.clone(into.device());
        accumulate_into(sum, src);
        into.assign(sum);
        return;
    }
    Array flat_into = scalars_of(into);
    Array flat_src = scalars_of(src);
    add_kernel(into.dtype().scalar, into.device()).launch({flat_into.size()}, flat_into, flat_src);
}

}  // namespace treadle
