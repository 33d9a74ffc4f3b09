// src/api/accumulate.cpp -- into += from on any device, with a kernel per scalar type and device
#include "api/accumulate.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "api/array_fill.h"
#include "treadle/error.h"
#include "treadle/module.h"

namespace treadle {

namespace {

/// The `into[idx] = into[idx] + from[idx]` kernel over `ndim`-D arrays of scalars of `scalar`,
/// for `device`.
Kernel add_kernel(ScalarType scalar, int ndim, Device device) {
    static std::mutex mutex;
    static std::map<std::tuple<ScalarType, int, std::string>, Kernel> kernels;
    std::lock_guard<std::mutex> lock(mutex);
    auto key = std::make_tuple(scalar, ndim, device.alias());
    auto it = kernels.find(key);
    if (it != kernels.end()) return it->second;
    const std::string array = "wp.array(dtype=wp." + std::string(scalar_name(scalar)) +
                              ", ndim=" + std::to_string(ndim) + ")";
    const char* const names[] = {"i", "j", "k", "l"};
    std::string idx;
    for (int d = 0; d < ndim; ++d) idx += std::string(d ? ", " : "") + names[d];
    const std::string source =
        "import treadle as wp\n\n\n@wp.kernel\ndef accumulate(into: " + array + ", src: " + array +
        "):\n    " + idx + " = wp.tid()\n    into[" + idx + "] = into[" + idx + "] + src[" + idx +
        "]\n";
    Kernel k = Module::load_string(source, "<accumulate>").kernel("accumulate", device);
    kernels.emplace(key, k);
    return k;
}

/// `a` seen as an array of its scalars: 1-D when `flat` (a contiguous array), else with one
/// more dimension for vector and matrix elements; shares its memory.
Array scalars_of(const Array& a, bool flat) {
    const DType& d = a.dtype();
    const int64_t per = (int64_t)std::max(d.rows, 1) * std::max(d.cols, 1);
    const int64_t width = (int64_t)scalar_size(d.scalar);
    if (flat)
        return Array::wrap(a.data(), DType(d.scalar), {a.size() * per}, {width}, a.device(),
                           a.buffer());
    std::vector<int64_t> shape = a.shape(), strides = a.strides();
    if (per > 1) {
        shape.push_back(per);
        strides.push_back(width);
    }
    return Array::wrap(a.data(), DType(d.scalar), shape, strides, a.device(), a.buffer());
}

}  // namespace

void accumulate_into(Array& into, const Array& from) {
    if (into.shape() != from.shape() || into.dtype() != from.dtype())
        throw Error(ErrorKind::Value,
                    "accumulate(): the arrays must have the same shape and dtype");
    if (into.dtype().is_struct())
        throw Error(ErrorKind::Type, "accumulate(): cannot add arrays of structs");
    if (into.size() == 0) return;
    Array src = from.device() == into.device() ? from : from.clone(into.device());
    const bool flat = into.is_contiguous() && src.is_contiguous();
    const int extra = into.dtype().rows > 0 ? 1 : 0;
    if (!flat && into.ndim() + extra > k_max_dims) {
        // A 4-D array of vectors: through a contiguous sum
        Array sum = into.clone(into.device());
        accumulate_into(sum, src.is_contiguous() ? src : src.clone(into.device()));
        copy_array(into, sum);
        return;
    }
    // Strided views are walked in place (no allocation: a backward pass stays capturable).
    Array to = scalars_of(into, flat);
    Array add = scalars_of(src, flat);
    add_kernel(into.dtype().scalar, to.ndim(), into.device()).launch(to.shape(), {to, add});
}

}  // namespace treadle
