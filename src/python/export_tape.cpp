// src/python/export_tape.cpp -- _treadle.Tape: the C++ tape, recording Python launches and copies
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>
#include <vector>

#include "exports.h"
#include "kernel_handle.h"
#include "treadle/tape.h"

namespace {

using treadle::Array;
using treadle::Tape;

/// A Python object kept alive by a C++ tape step; the GIL is taken to let go of it.
struct Held {
    nb::object object;
    ~Held() {
        nb::gil_scoped_acquire gil;
        object = nb::object();
    }
};

/// The array behind `o` (a treadle array, or the data of a wp.indexedarray), sharing the Python
/// object rather than copying it, so gradients set later are seen; null for anything else.
std::shared_ptr<const Array> held_array(nb::handle o) {
    if (!nb::isinstance<Array>(o)) {
        if (o.is_none() || !nb::hasattr(o, "_is_indexedarray")) return nullptr;
        o = o.attr("data");
        if (!nb::isinstance<Array>(o)) return nullptr;
    }
    auto keep = std::make_shared<Held>(Held{nb::borrow(o)});
    return std::shared_ptr<const Array>(keep, nb::inst_ptr<Array>(o));
}

std::vector<std::shared_ptr<const Array>> held_arrays(nb::handle seq) {
    std::vector<std::shared_ptr<const Array>> out;
    for (nb::handle a : seq)
        if (auto held = held_array(a)) out.push_back(std::move(held));
    return out;
}

/// A Python callable as a tape step's backward function.
std::function<void()> callback(nb::object fn) {
    auto held = std::make_shared<Held>(Held{std::move(fn)});
    return [held]() { held->object(); };
}

void record_launch(Tape& tape, const KernelHandle& h, nb::handle args, nb::object backward) {
    const treadle::LaunchPlan& plan = *h.plan;
    std::vector<Tape::LaunchRead> reads;
    std::vector<std::shared_ptr<const Array>> arrays;
    size_t i = 0;
    for (nb::handle a : args) {
        if (i >= plan.params().size()) break;
        const treadle::PlanParam& p = plan.params()[i++];
        if (p.kind != treadle::ParamKind::Array && p.kind != treadle::ParamKind::IndexedArray)
            continue;
        std::shared_ptr<const Array> held = held_array(a);
        if (!held) continue;
        if (p.reads && !held->is_null())
            reads.push_back({p.param->name, held, p.writes && !p.param->writes_after_reads});
        arrays.push_back(std::move(held));
    }
    tape.record_launch(plan.kernel().name, std::move(reads), callback(std::move(backward)),
                       std::move(arrays));
}

}  // namespace

void export_tape(nb::module_& m) {
    nb::class_<Tape>(m, "Tape",
                     "The C++ tape (treadle/tape.h) behind wp.Tape: recorded launches, copies and "
                     "custom steps, the overwrite check and the backward pass.")
        .def(nb::init<>())
        .def(
            "set_warning_handler",
            [](Tape& tape, nb::object handler) {
                auto held = std::make_shared<Held>(Held{std::move(handler)});
                tape.set_warning_handler(
                    [held](const std::string& message) { held->object(message); });
            },
            nb::arg("handler"), "Sets the callable that receives backward()'s warnings (a str).")
        .def("record_launch", &record_launch, nb::arg("kernel"), nb::arg("args"),
             nb::arg("backward"),
             "Records a launch of `kernel` (a CompiledKernel) with `args`, remembering the write "
             "counter of every array it reads; backward() calls `backward` for it.")
        .def(
            "record_copy",
            [](Tape& t, nb::handle dest, nb::handle src) {
                auto d = held_array(dest), s = held_array(src);
                if (!d || !s)
                    throw treadle::Error(treadle::ErrorKind::Type,
                                         "Tape.record_copy(): dest and src must be arrays");
                t.record_copy(std::move(d), std::move(s));
            },
            nb::arg("dest"), nb::arg("src"))
        .def(
            "record_func",
            [](Tape& t, nb::object backward, nb::handle arrays) {
                t.record_func(callback(std::move(backward)), held_arrays(arrays));
            },
            nb::arg("backward"), nb::arg("arrays"))
        .def("backward", [](Tape& t) { t.backward(); })
        .def(
            "backward_from", [](Tape& t, const Array& loss) { t.backward(loss); }, nb::arg("loss"),
            "Seeds the loss gradient with 1, then backward().")
        .def("zero", &Tape::zero)
        .def("reset", &Tape::reset)
        .def_prop_ro("size", &Tape::size);
}
