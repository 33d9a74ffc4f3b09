// include/treadle/tape.h -- treadle::Tape: records launches, then runs their backward passes
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "treadle/array.h"
#include "treadle/module.h"
#include "treadle/stream.h"

namespace treadle {

/// Records the kernel launches made through it (and copies and custom steps) and computes gradients
/// of the recorded computation by running their backward passes (Kernel::launch_adjoint) in reverse
/// order, as Python's wp.Tape does:
///
///     x.enable_grad(); y.enable_grad(); loss.enable_grad();
///     treadle::Tape tape;
///     tape.launch(square, {n}, {x, y});
///     tape.launch(sum, {n}, {y, loss});
///     tape.backward(loss);  // x.grad() now holds d loss / d x
///
/// Only launches made through Tape::launch are recorded; Kernel::launch never records. The tape
/// keeps copies of the array arguments (views sharing their memory and gradient), so give
/// arrays their gradients before recording launches that use them. Array fields of struct
/// arguments are neither checked nor zeroed.
///
/// Like Python's tape it refuses to compute a gradient it knows is wrong: it remembers the
/// write counter (Array::version) of every array a recorded launch reads, taken before the
/// launch, and backward() throws when one changed since, because the backward pass would
/// replay the launch with the overwritten values. Writes through raw pointers are not seen.
/// A Tape is used by one thread at a time; copies share the recorded steps.
class Tape {
public:
    /// Launches `kernel` as Kernel::launch does and records the launch (nothing is recorded
    /// when the launch throws).
    void launch(const Kernel& kernel, const std::vector<int64_t>& dim,
                const std::vector<KernelArg>& args);
    /// launch() enqueued on `stream`; the backward pass runs on the same stream.
    void launch(const Kernel& kernel, const std::vector<int64_t>& dim,
                const std::vector<KernelArg>& args, const Stream& stream);

    /// Records a custom backward step: backward() calls `backward` in its place. `arrays` are
    /// the arrays whose gradients it uses or fills (zero() zeroes them).
    void record_func(std::function<void()> backward, std::vector<Array> arrays = {});
    /// record_func() holding the arrays themselves rather than copies (a front end's arrays,
    /// whose gradients may be given after recording).
    void record_func(std::function<void()> backward,
                     std::vector<std::shared_ptr<const Array>> arrays);

    /// Records a copy `dest` <- `src` (same shape and dtype) made outside the tape, such as
    /// Array::assign: backward() adds dest's gradient into src's when both have one then (a
    /// copy to another device brings the gradient back first) and zeroes dest's, whose value
    /// the copy overwrote; for structs, bools and views whose bytes may overlap it copies
    /// dest's gradient over src's instead (Warp's rules). The shared_ptr form holds the
    /// arrays themselves, so gradients given after recording count.
    void record_copy(const Array& dest, const Array& src);
    void record_copy(std::shared_ptr<const Array> dest, std::shared_ptr<const Array> src);

    /// An array a launch recorded with record_launch() reads: the parameter's name and the
    /// array (its write counter is taken when the launch is recorded).
    struct LaunchRead {
        std::string param;
        std::shared_ptr<const Array> array;
        /// The launch writes the array too, never after reading an element of it: its own
        /// write leaves what the backward replay reads unchanged, so it is no overwrite.
        bool own_write = false;
    };
    /// Records a launch of `kernel_name` that a front end made and differentiates itself:
    /// backward() calls `backward` in its place, after the overwrite check has covered
    /// `reads`. `arrays` are the launch's arrays (zero() zeroes their gradients).
    void record_launch(const std::string& kernel_name, std::vector<LaunchRead> reads,
                       std::function<void()> backward,
                       std::vector<std::shared_ptr<const Array>> arrays);

    /// Runs the recorded steps backward, last first. Gradients are added to what the arrays'
    /// gradients hold: seed the outputs' gradients first, or use backward(loss). Before running
    /// anything it checks every recorded launch and throws treadle::Error (Runtime) naming the
    /// kernel, the argument and its last writer when an array a launch read was overwritten.
    void backward();
    /// Sets the gradient of `loss` (one element of a floating-point type, with a gradient) to 1
    /// and runs backward(). ErrorKind::Value when `loss` has no gradient or more than one
    /// element.
    void backward(const Array& loss);

    /// Zeroes the gradients of every array the tape has recorded.
    void zero();
    /// zero(), then forgets the recorded steps.
    void reset();
    /// Number of recorded steps (launches, copies and custom steps).
    size_t size() const { return m_steps.size(); }

    /// Receives the warnings of backward(): a copy whose gradient cannot be fully tracked
    /// (overlapping views: the destination's gradient is copied over the source's). None set:
    /// they go to stderr.
    void set_warning_handler(std::function<void(const std::string&)> handler) {
        m_warn = std::move(handler);
    }

private:
    struct Step;  ///< one recorded launch or custom step (src/api/tape.cpp)

    void check_unchanged() const;

    std::vector<std::shared_ptr<const Step>> m_steps;
    std::function<void(const std::string&)> m_warn;
};

}  // namespace treadle
