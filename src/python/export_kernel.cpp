// src/python/export_kernel.cpp -- kernel compilation and launch for the Python front end
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "compile/compile_kernel.h"
#include "compile/kernel_cache.h"
#include "compile/nvrtc.h"
#include "exports.h"
#include "passes/array_access.h"
#include "runtime/launch.h"
#include "sema/builtins.h"

namespace {

using treadle::CompiledKernel;
using treadle::sema::FunctionSource;

/// A compiled kernel as Python holds it.
struct KernelHandle {
    std::shared_ptr<const CompiledKernel> k;
};

KernelHandle compile(const FunctionSource& fn, const std::string& mode, const std::string& device,
                     bool adjoint, bool verify_fp) {
    treadle::CompileOptions options;
    options.mode = mode;
    options.device = treadle::Device::parse(device);
    options.adjoint = adjoint;
    options.verify_fp = verify_fp;
    return compiling([&] { return KernelHandle{treadle::compile_kernel(fn, options)}; });
}

/// Generates a kernel's CUDA source and compiles it with NVRTC for `arch` without a GPU:
/// returns (ok, log). For the compile-only check of every test kernel.
std::pair<bool, std::string> check_cuda_compile(const FunctionSource& fn, int arch, bool adjoint,
                                                bool verify_fp) {
    std::string source =
        compiling([&] { return treadle::generate_kernel_source(fn, true, adjoint, verify_fp); });
    treadle::nvrtc::Result r =
        treadle::nvrtc::compile(source, fn.source->path, arch, {treadle::native_dir()}, {});
    return {r.ok, r.log};
}

std::vector<int64_t> launch_dims(nb::handle dim) {
    std::vector<int64_t> out;
    if (PyLong_Check(dim.ptr())) {
        out.push_back(nb::cast<int64_t>(dim));
        return out;
    }
    for (nb::handle d : nb::iter(dim)) out.push_back(nb::cast<int64_t>(d));
    return out;
}

[[noreturn]] void type_error(const CompiledKernel& k, const treadle::KernelParam& p,
                             const std::string& what) {
    throw treadle::Error(treadle::ErrorKind::Type,
                         k.name + "(): argument '" + p.name + "' " + what);
}

std::string py_type_name(nb::handle o) { return nb::cast<std::string>(nb::type_name(o.type())); }

/// The numbers of a vector/matrix argument: a treadle vector or matrix, a tuple/list (nested
/// for matrices) or a numpy array, flattened row-major.
void flatten_numbers(const CompiledKernel& k, const treadle::KernelParam& p, nb::handle o,
                     std::vector<double>& out, int depth) {
    if (PyFloat_Check(o.ptr()) || PyLong_Check(o.ptr()) || PyBool_Check(o.ptr()) ||
        (depth > 0 && PyObject_HasAttrString(o.ptr(), "__float__") &&
         !PyObject_HasAttrString(o.ptr(), "__len__"))) {
        double v = PyFloat_AsDouble(o.ptr());
        if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
        out.push_back(v);
        return;
    }
    if (depth > 2 || !PyObject_HasAttrString(o.ptr(), "__iter__"))
        type_error(k, p, "expects " + p.type->name + ", got " + py_type_name(o));
    for (nb::handle item : nb::iter(o)) flatten_numbers(k, p, item, out, depth + 1);
}

/// The array `a` for an adjoint launch: its view with gradient `adj` (a treadle array), or `a`
/// itself when `adj` is None.
treadle::Array with_adjoint(const CompiledKernel& k, const treadle::KernelParam& p,
                            const treadle::Array& a, nb::handle adj) {
    if (adj.is_none()) return a;
    treadle::Array* g = nullptr;
    if (!nb::try_cast<treadle::Array*>(adj, g) || !g)
        type_error(k, p, "expects an adjoint array, got " + py_type_name(adj));
    return treadle::with_adjoint(k, p, a, g);
}

/// The data array and index arrays (null for a whole dimension) of a Python wp.indexedarray,
/// or false when `o` is not one.
bool as_indexed(nb::handle o, treadle::Array*& data, std::vector<const treadle::Array*>& indices) {
    if (o.is_none() || !nb::hasattr(o, "_is_indexedarray")) return false;
    data = nb::cast<treadle::Array*>(o.attr("data"));
    indices.clear();
    for (nb::handle ix : o.attr("indices"))
        indices.push_back(ix.is_none() ? nullptr : nb::cast<treadle::Array*>(ix));
    return data != nullptr;
}

/// Packs Python object `o` into the slot of `p` (a scalar, vector-like, array or struct
/// parameter, or a field of a struct parameter).
void pack_object(uint8_t* block, const CompiledKernel& k, const treadle::KernelParam& p,
                 nb::handle o) {
    if (p.type->is_array()) {
        treadle::Array* data = nullptr;
        std::vector<const treadle::Array*> indices;
        if (as_indexed(o, data, indices)) {
            if (!p.type->indexed)
                type_error(k, p, "expects " + p.type->name + ", got an indexedarray");
            treadle::pack_indexed_array(block, k, p, *data, indices, k.device);
            return;
        }
        if (o.is_none()) {
            treadle::pack_array(block, k, p, treadle::Array(), k.device);
            return;
        }
        treadle::Array* a = nullptr;
        if (!nb::try_cast<treadle::Array*>(o, a) || !a)
            type_error(k, p, "expects " + p.type->name + ", got " + py_type_name(o));
        treadle::pack_array(block, k, p, *a, k.device);
        return;
    }
    if (p.type->is_struct()) {
        // A treadle struct instance (treadle/struct.py): its class names the interned type.
        nb::object id = nb::getattr(o.type(), "_struct_type_id", nb::none());
        if (id.is_none() || nb::cast<uintptr_t>(id) != reinterpret_cast<uintptr_t>(p.type)) {
            std::string got = py_type_name(o);
            if (!id.is_none()) {
                got = "struct " + nb::cast<std::string>(o.type().attr("__name__"));
                if (got == "struct " + p.type->name) got += " of another layout";
            }
            type_error(k, p, "expects struct " + p.type->name + ", got " + got);
        }
        for (const treadle::sema::StructField& f : p.type->fields) {
            treadle::KernelParam field{p.name + "." + f.name, f.type, p.offset + f.offset};
            pack_object(block, k, field, nb::getattr(o, f.name.c_str()));
        }
        return;
    }
    if (!p.type->is_scalar()) {
        std::vector<double> values;
        flatten_numbers(k, p, o, values, 0);
        treadle::pack_components(block, k, p, values);
        return;
    }
    PyObject* po = o.ptr();
    if (PyBool_Check(po)) {
        treadle::pack_int(block, k, p, po == Py_True, true);
    } else if (PyLong_Check(po)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(po, &overflow);
        if (overflow) type_error(k, p, "is an integer too large for " + p.type->name);
        treadle::pack_int(block, k, p, v, false);
    } else if (PyFloat_Check(po)) {
        treadle::pack_float(block, k, p, PyFloat_AS_DOUBLE(po));
    } else if (p.type->is_float() && PyObject_HasAttrString(po, "__float__")) {
        double v = PyFloat_AsDouble(po);
        if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
        treadle::pack_float(block, k, p, v);
    } else if (PyIndex_Check(po)) {
        nb::object idx = nb::steal(PyNumber_Index(po));
        if (!idx.is_valid()) throw nb::python_error();
        treadle::pack_int(block, k, p, nb::cast<int64_t>(idx), false);
    } else if (nb::hasattr(o, "value")) {
        nb::object v = o.attr("value");
        if (p.type->is_float())
            treadle::pack_float(block, k, p, nb::cast<double>(v));
        else
            treadle::pack_int(block, k, p, nb::cast<int64_t>(v), false);
    } else {
        type_error(k, p, "expects " + p.type->name + ", got " + py_type_name(o));
    }
}

void launch(const KernelHandle& h, nb::handle dim, nb::sequence args, uintptr_t stream,
            bool adjoint, nb::handle adj_args) {
    const CompiledKernel& k = *h.k;
    size_t n = nb::len(args);
    if (n != k.params.size())
        throw treadle::Error(treadle::ErrorKind::Type,
                             k.name + "(): takes " + std::to_string(k.params.size()) +
                                 " arguments but " + std::to_string(n) + " were given");
    treadle::LaunchBounds bounds = treadle::make_bounds(k, launch_dims(dim));
    bool has_adj = adjoint && !adj_args.is_none();
    if (has_adj && nb::len(adj_args) != n)
        throw treadle::Error(treadle::ErrorKind::Type, k.name + "(): expects " + std::to_string(n) +
                                                           " adjoint arguments but " +
                                                           std::to_string(nb::len(adj_args)) +
                                                           " were given");
    std::vector<const void*> seen;      // adjoint launches: memory of the arrays so far
    const treadle::Array* written[16];  // arrays this launch may write (overflow: `more`)
    size_t n_written = 0;
    std::vector<const treadle::Array*> more;
    alignas(16) uint8_t small[512];
    std::vector<uint8_t> large;
    uint8_t* block = small;
    if (k.params_size > sizeof(small)) {
        large.resize(k.params_size);
        block = large.data();
    }
    for (size_t i = 0; i < n; ++i) {
        const treadle::KernelParam& p = k.params[i];
        nb::handle o = args[i];
        treadle::Array* a = nullptr;
        std::vector<const treadle::Array*> indices;
        bool indexed = p.type->indexed && as_indexed(o, a, indices);
        if (!indexed &&
            (!p.type->is_array() || o.is_none() || !nb::try_cast<treadle::Array*>(o, a) || !a)) {
            pack_object(block, k, p, o);
            continue;
        }
        if (adjoint) {
            // an indexed array's adjoint is the gradient of its data (an indexedarray's data
            // array when one is given)
            nb::object adj = has_adj ? nb::borrow(adj_args[i]) : nb::none();
            if (!adj.is_none() && nb::hasattr(adj, "_is_indexedarray")) adj = adj.attr("data");
            treadle::Array view = has_adj ? with_adjoint(k, p, *a, adj) : *a;
            if (indexed)
                treadle::pack_indexed_array(block, k, p, view, indices, k.device);
            else
                treadle::pack_array(block, k, p, view, k.device);
            if (treadle::shares_memory(view, seen))
                bounds.flags |= treadle::k_launch_aliased_arrays;
            continue;
        }
        if (indexed)
            treadle::pack_indexed_array(block, k, p, *a, indices, k.device);
        else
            treadle::pack_array(block, k, p, *a, k.device);
        if (p.access & treadle::passes::k_access_write) {
            if (n_written < 16)
                written[n_written++] = a;
            else
                more.push_back(a);
        }
    }
    // Writes are recorded when the launch is issued (for the tape's overwrite check).
    for (size_t i = 0; i < n_written; ++i) written[i]->note_write(k.label);
    for (const treadle::Array* a : more) a->note_write(k.label);
    if (k.device.is_cuda()) {
        // Asynchronous: no need to drop the GIL. Stream 0 is the device's current stream.
        treadle::run_cuda(k, bounds, block, reinterpret_cast<void*>(stream), adjoint);
        return;
    }
    nb::gil_scoped_release release;
    treadle::run_cpu(k, bounds, block, adjoint);
}

}  // namespace

void export_kernel(nb::module_& m) {
    nb::class_<KernelHandle>(m, "CompiledKernel")
        .def_prop_ro("name", [](const KernelHandle& h) { return h.k->name; })
        .def_prop_ro("key", [](const KernelHandle& h) { return h.k->key; })
        .def_prop_ro("source", [](const KernelHandle& h) { return h.k->source; })
        .def_prop_ro("from_cache", [](const KernelHandle& h) { return h.k->from_cache; })
        .def_prop_ro("compile_seconds", [](const KernelHandle& h) { return h.k->compile_seconds; })
        .def_prop_ro("tid_arity", [](const KernelHandle& h) { return h.k->tid_arity; })
        .def_prop_ro("device", [](const KernelHandle& h) { return h.k->device.alias(); })
        .def_prop_ro("params",
                     [](const KernelHandle& h) {
                         std::vector<std::pair<std::string, std::string>> out;
                         for (const auto& p : h.k->params)
                             out.emplace_back(p.name, treadle::sema::type_spec(p.type));
                         return out;
                     })
        .def_prop_ro(
            "param_access",
            [](const KernelHandle& h) {
                std::vector<int> out;
                for (const auto& p : h.k->params) out.push_back(p.access);
                return out;
            },
            "Per parameter: bit 1 the array is read, bit 2 it is written (0 for non-arrays).")
        .def_prop_ro("adjoint", [](const KernelHandle& h) { return h.k->adjoint; });
    m.def("check_cuda_compile", &check_cuda_compile, nb::arg("function"), nb::arg("arch"),
          nb::arg("adjoint") = false, nb::arg("verify_fp") = false);
    m.def(
        "struct_layout",
        [](const std::string& spec) {
            const treadle::sema::Type* t = treadle::sema::type_from_spec(spec);
            if (!t || !t->is_struct())
                throw treadle::Error(treadle::ErrorKind::Type,
                                     "invalid struct spec '" + spec + "'");
            std::vector<std::pair<std::string, size_t>> fields;
            for (const auto& f : t->fields) fields.emplace_back(f.name, f.offset);
            return nb::make_tuple(reinterpret_cast<uintptr_t>(t), t->size, t->align, fields,
                                  treadle::sema::type_spec(t));
        },
        nb::arg("spec"),
        "(type id, size, alignment, [(field, offset)], canonical spec) of a struct spec: the C "
        "layout kernels use, and the id launches compare struct arguments against.");
    m.def("nvrtc_available", &treadle::nvrtc::is_available);
    m.def(
        "kernel_source",
        [](const FunctionSource& fn, bool cuda, bool adjoint) {
            return compiling([&] { return treadle::generate_kernel_source(fn, cuda, adjoint); });
        },
        nb::arg("function"), nb::arg("cuda") = false, nb::arg("adjoint") = false,
        "The generated CUDA or CPU source of a kernel (no GPU needed).");
    m.def("compile_kernel", &compile, nb::arg("function"), nb::arg("mode"),
          nb::arg("device") = "cpu", nb::arg("adjoint") = false, nb::arg("verify_fp") = false,
          "Compiles a kernel given as a FunctionSource.");
    m.def("launch", &launch, nb::arg("kernel"), nb::arg("dim"), nb::arg("args"),
          nb::arg("stream") = 0, nb::arg("adjoint") = false,
          nb::arg("adj_args").none() = nb::none(),
          "Packs the arguments and runs the kernel: on the CPU, or enqueued on the CUDA stream "
          "with handle `stream` (0: the device's current stream).");
    m.def("set_native_dir", &treadle::set_native_dir, nb::arg("path"));
    m.def("clear_kernel_cache", &treadle::clear_kernel_cache);
    m.def("kernel_cache_dir", []() { return treadle::kernel_cache().root(); });
    m.def("set_kernel_cache_dir",
          [](const std::string& d) { treadle::kernel_cache().set_root(d); });
}
