// src/python/export_device.cpp -- Python bindings of treadle::Device and device queries
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <functional>

#include "exports.h"
#include "treadle/device.h"

void export_device(nb::module_& m) {
    using treadle::Device;
    nb::class_<Device>(m, "Device", "A device handle: 'cpu' (or 'cuda:N' once CUDA exists).")
        .def_static("parse", &Device::parse, nb::arg("alias"),
                    "Parses 'cpu', 'cuda' or 'cuda:N'; raises ValueError otherwise.")
        .def_static("cpu", &Device::cpu)
        .def_prop_ro("alias", &Device::alias)
        .def_prop_ro("is_cpu", &Device::is_cpu)
        .def_prop_ro("is_cuda", &Device::is_cuda)
        .def_prop_ro("ordinal", &Device::ordinal)
        .def(
            "__eq__", [](const Device& a, const Device& b) { return a == b; }, nb::is_operator())
        .def("__hash__", [](const Device& d) { return std::hash<std::string>()(d.alias()); })
        .def("__repr__", [](const Device& d) { return "Device('" + d.alias() + "')"; });

    m.def(
        "cuda_device_count", [] { return 0; },
        "Number of CUDA devices this build can use (0: no CUDA back end yet).");
}
