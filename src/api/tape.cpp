// src/api/tape.cpp -- treadle::Tape: recorded launches, copies and custom steps, the overwrite
// check
#include "treadle/tape.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "api/accumulate.h"
#include "api/array_fill.h"
#include "runtime/cuda.h"
#include "runtime/loaded_kernel.h"
#include "treadle/error.h"

namespace treadle {

/// A recorded launch (`kernel` set, or `func` for a front end's launch), copy (`copy` set) or
/// custom step (`func` set). Immutable once recorded.
struct Tape::Step {
    /// An array a launch reads: its name and its write counter before the launch.
    struct Read {
        std::string param;
        std::shared_ptr<const Array> array;
        uint64_t version = 0;
        bool own_write =
            false;  ///< see Tape::LaunchRead: one write after `version` is the launch's
    };

    Kernel kernel;
    std::string kernel_name;  ///< for the overwrite check's message
    std::vector<int64_t> dim;
    /// The step's arrays: per argument of a Tape::launch (null for non-arrays; the args point
    /// at them), the copy's dest and src, or what a front end's step gave.
    std::vector<std::shared_ptr<const Array>> arrays;
    std::vector<KernelArg> args;
    Stream stream;
    std::vector<Read> reads;
    std::function<void()> func;
    bool copy = false;
};

namespace {

/// Whether the bytes two views reach may overlap: on one device, with extents that
/// intersect; views with a non-positive stride count as overlapping (conservative, as Warp).
bool may_overlap(const Array& a, const Array& b) {
    if (a.device() != b.device()) return false;
    auto extent = [](const Array& x, uintptr_t& lo, uintptr_t& hi) {
        int64_t last = 0;
        const std::vector<int64_t> shape = x.shape(), strides = x.strides();
        for (size_t d = 0; d < shape.size(); ++d) {
            if (strides[d] <= 0) return false;
            last += (shape[d] - 1) * strides[d];
        }
        lo = reinterpret_cast<uintptr_t>(x.data());
        hi = lo + (uintptr_t)last + x.dtype().size();
        return true;
    };
    uintptr_t alo = 0, ahi = 0, blo = 0, bhi = 0;
    if (!extent(a, alo, ahi) || !extent(b, blo, bhi)) return true;
    return alo < bhi && blo < ahi;
}

/// The backward pass of `dest = src` (Warp 1.17's copy adjoint): for numeric elements and
/// views that do not overlap, src.grad += dest.grad and dest.grad is consumed (zeroed: the
/// value it held was overwritten) unless dest was made with retain_grad; otherwise (structs, bools,
/// overlapping views) the destination's gradient is copied over the source's and stays.
/// `warn` receives the message when overlapping views make the gradient a copy (Warp warns).
void copy_adjoint(const Array& dest, const Array& src,
                  const std::function<void(const std::string&)>& warn) {
    if (!dest.grad() || !src.grad() || src.size() == 0) return;
    if (dest.device() != src.device()) {
        const Device cuda_side = dest.device().is_cuda() ? dest.device() : src.device();
        if (cuda_side.is_cuda() && cuda::is_capturing(cuda_side.ordinal(), nullptr))
            throw Error(ErrorKind::Runtime,
                        "Cannot run CPU/CUDA wp.copy() adjoints during CUDA graph capture: the "
                        "gradient has to travel through host memory (run this backward pass "
                        "outside the capture)");
    }
    const DType& d = dest.dtype();
    const bool addable = !d.is_struct() && d.scalar != ScalarType::Bool;
    const bool overlap = addable && may_overlap(*dest.grad(), *src.grad());
    if (addable && !overlap) {
        accumulate_into(*src.grad_ptr(), *dest.grad());
        if (!dest.retain_grad()) {
            std::vector<unsigned char> zero(d.size(), 0);
            fill_array(*dest.grad(), zero.data(), zero.size());  // a kernel on strided views
        }
        return;
    }
    if (overlap) {
        const std::string message =
            "Tape.backward(): the gradient of an overlapping copy (source and destination "
            "share memory) cannot yet be fully tracked; the destination's gradient is copied "
            "to the source's instead of accumulated";
        if (warn)
            warn(message);
        else
            std::fprintf(stderr, "Warp UserWarning: %s\n", message.c_str());
    }
    copy_array(*src.grad(), *dest.grad());
}

/// "kernel 'k' (file:line) on cpu", "a host write (...)" or "an unknown writer".
std::string describe_writer(const std::string& label) {
    if (label.empty()) return "an unknown writer";
    if (label == "host") return "a host write (assign, fill_bytes or zero_)";
    return "kernel " + label;
}

/// The bytes of one element of `dtype` with every component 1 (a floating-point dtype).
std::vector<uint8_t> ones_element(const DType& dtype) {
    if (dtype.is_struct() || !is_float(dtype.scalar))
        throw Error(ErrorKind::Type,
                    "Tape::backward(): the loss must have a floating-point "
                    "dtype");
    const size_t components = (size_t)std::max(dtype.rows, 1) * (size_t)std::max(dtype.cols, 1);
    const size_t width = scalar_size(dtype.scalar);
    std::vector<uint8_t> bytes(components * width);
    for (size_t c = 0; c < components; ++c) {
        uint8_t* dst = bytes.data() + c * width;
        if (dtype.scalar == ScalarType::Float16) {
            const uint16_t one = 0x3c00;  // 1.0 in IEEE binary16
            std::memcpy(dst, &one, width);
        } else if (dtype.scalar == ScalarType::BFloat16) {
            const uint16_t one = 0x3f80;  // 1.0 in bfloat16
            std::memcpy(dst, &one, width);
        } else if (dtype.scalar == ScalarType::Float32) {
            const float one = 1.0f;
            std::memcpy(dst, &one, width);
        } else {
            const double one = 1.0;
            std::memcpy(dst, &one, width);
        }
    }
    return bytes;
}

}  // namespace

void Tape::launch(const Kernel& kernel, const std::vector<int64_t>& dim,
                  const std::vector<KernelArg>& args) {
    launch(kernel, dim, args, Stream());
}

void Tape::launch(const Kernel& kernel, const std::vector<int64_t>& dim,
                  const std::vector<KernelArg>& args, const Stream& stream) {
    auto step = std::make_shared<Step>();
    step->kernel = kernel;
    step->kernel_name = kernel.name();
    step->dim = dim;
    step->stream = stream;
    step->args = args;
    step->arrays.resize(args.size());
    const CompiledKernel* k = kernel.compiled().get();
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].kind != KernelArg::Kind::Array) continue;
        step->arrays[i] = std::make_shared<const Array>(*args[i].array);
        step->args[i].array = step->arrays[i].get();
        const bool reads = k && i < k->params.size() && k->params[i].reads;
        if (reads && !step->arrays[i]->is_null())
            step->reads.push_back({k->params[i].name, step->arrays[i], step->arrays[i]->version(),
                                   k->params[i].writes && !k->params[i].writes_after_reads});
    }
    kernel.launch(dim, args, stream);
    m_steps.push_back(std::move(step));
}

void Tape::record_func(std::function<void()> backward, std::vector<Array> arrays) {
    std::vector<std::shared_ptr<const Array>> held;
    for (Array& a : arrays) held.push_back(std::make_shared<const Array>(std::move(a)));
    record_func(std::move(backward), std::move(held));
}

void Tape::record_func(std::function<void()> backward,
                       std::vector<std::shared_ptr<const Array>> arrays) {
    auto step = std::make_shared<Step>();
    step->func = std::move(backward);
    step->arrays = std::move(arrays);
    m_steps.push_back(std::move(step));
}

void Tape::record_copy(const Array& dest, const Array& src) {
    record_copy(std::make_shared<const Array>(dest), std::make_shared<const Array>(src));
}

void Tape::record_copy(std::shared_ptr<const Array> dest, std::shared_ptr<const Array> src) {
    if (dest->shape() != src->shape() || dest->dtype() != src->dtype())
        throw Error(ErrorKind::Value,
                    "Tape::record_copy(): the arrays must have the same shape and dtype");
    auto step = std::make_shared<Step>();
    step->copy = true;
    step->arrays = {std::move(dest), std::move(src)};
    m_steps.push_back(std::move(step));
}

void Tape::record_launch(const std::string& kernel_name, std::vector<LaunchRead> reads,
                         std::function<void()> backward,
                         std::vector<std::shared_ptr<const Array>> arrays) {
    auto step = std::make_shared<Step>();
    step->kernel_name = kernel_name;
    step->func = std::move(backward);
    step->arrays = std::move(arrays);
    for (LaunchRead& r : reads) {
        const uint64_t version = r.array->version();
        step->reads.push_back({std::move(r.param), std::move(r.array), version, r.own_write});
    }
    m_steps.push_back(std::move(step));
}

void Tape::check_unchanged() const {
    for (auto it = m_steps.rbegin(); it != m_steps.rend(); ++it) {
        const Step& s = **it;
        for (const Step::Read& r : s.reads) {
            const Array& a = *r.array;
            if (a.version() == r.version || (r.own_write && a.version() == r.version + 1)) continue;
            throw Error(ErrorKind::Runtime,
                        "Tape::backward(): the gradient of kernel '" + s.kernel_name +
                            "' would be wrong: its argument '" + r.param +
                            "' was overwritten after the launch read it (last written by " +
                            describe_writer(a.last_writer()) +
                            "). The backward pass replays the launch with the array's current "
                            "values. Write the new values to a different array (or clone the "
                            "array before overwriting it).");
        }
    }
}

void Tape::backward() {
    check_unchanged();
    for (auto it = m_steps.rbegin(); it != m_steps.rend(); ++it) {
        const Step& s = **it;
        if (s.func) {
            s.func();
        } else if (s.copy) {
            copy_adjoint(*s.arrays[0], *s.arrays[1], m_warn);
        } else {
            s.kernel.launch_adjoint(s.dim, s.args, {}, s.stream);
        }
    }
}

void Tape::backward(const Array& loss) {
    if (!loss.grad())
        throw Error(ErrorKind::Value,
                    "Tape::backward(): the loss array needs a gradient (requires_grad=True in "
                    "Python, enable_grad() in C++)");
    if (loss.size() != 1)
        throw Error(ErrorKind::Value, "Tape::backward(): the loss must hold one element, not " +
                                          std::to_string(loss.size()) +
                                          "; seed a larger output's gradient and call "
                                          "backward() instead");
    std::vector<uint8_t> one = ones_element(loss.dtype());
    check_unchanged();  // before touching the loss gradient
    loss.grad_ptr()->fill_bytes(one.data(), one.size());
    backward();
}

void Tape::zero() {
    std::set<const Array*> done;
    for (const auto& s : m_steps)
        for (const auto& a : s->arrays)
            if (a && a->grad() && done.insert(a->grad()).second) a->grad_ptr()->zero_();
}

void Tape::reset() {
    zero();
    m_steps.clear();
}

}  // namespace treadle
