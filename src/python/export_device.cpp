// src/python/export_device.cpp -- Python bindings of treadle::Device and CUDA device queries
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <functional>

#include "exports.h"
#include "runtime/cuda.h"
#include "treadle/device.h"

namespace cuda = treadle::cuda;

void export_device(nb::module_& m) {
    using treadle::Device;
    nb::class_<Device>(m, "Device", "A device handle: 'cpu' or 'cuda:N'.")
        .def_static("parse", &Device::parse, nb::arg("alias"),
                    "Parses 'cpu', 'cuda' or 'cuda:N'; raises ValueError for a malformed alias, "
                    "when CUDA is unavailable, or for a CUDA device that does not exist.")
        .def_static("cpu", &Device::cpu)
        .def_prop_ro("alias", &Device::alias)
        .def_prop_ro("is_cpu", &Device::is_cpu)
        .def_prop_ro("is_cuda", &Device::is_cuda)
        .def_prop_ro("ordinal", &Device::ordinal)
        .def(
            "__eq__", [](const Device& a, const Device& b) { return a == b; }, nb::is_operator())
        .def("__hash__", [](const Device& d) { return std::hash<std::string>()(d.alias()); })
        .def("__repr__", [](const Device& d) { return "Device('" + d.alias() + "')"; });

    m.def("cuda_available", &cuda::is_available,
          "Whether the CUDA driver loaded and reports at least one device.");
    m.def("cuda_unavailable_reason", &cuda::unavailable_reason,
          "Why CUDA cannot be used ('' when it can).");
    m.def("cuda_driver_version", &cuda::driver_version,
          "The CUDA driver's version as 1000 * major + 10 * minor (0 without CUDA).");
    m.def("cuda_device_count", &cuda::device_count,
          "Number of CUDA devices treadle can use (0 without CUDA).");
    m.def(
        "cuda_device_info",
        [](int ordinal) {
            const cuda::DeviceInfo& info = cuda::device_info(ordinal);
            nb::dict d;
            d["name"] = info.name;
            d["arch"] = info.major * 10 + info.minor;
            d["sm_count"] = info.sm_count;
            d["total_memory"] = info.total_memory;
            d["memory_pools"] = info.memory_pools;
            d["max_shared_memory_per_block"] = info.max_shared_memory_per_block;
            d["pageable_memory_access"] = info.pageable_memory_access;
            d["host_managed_access"] = info.host_managed_access;
            d["host_native_atomics"] = info.host_native_atomics;
            return d;
        },
        nb::arg("ordinal"),
        "Properties of CUDA device `ordinal`: a dict with name, arch (major*10+minor), sm_count, "
        "total_memory (bytes), memory_pools (stream-ordered allocation support) and "
        "max_shared_memory_per_block (the opt-in maximum, bytes), pageable_memory_access "
        "(kernels can access pageable host memory), host_managed_access (the host can access "
        "managed memory resident on the device) and host_native_atomics.");
    m.def(
        "cuda_memory_info",
        [](int ordinal) {
            size_t free_bytes = 0, total_bytes = 0;
            cuda::memory_info(ordinal, free_bytes, total_bytes);
            return nb::make_tuple(free_bytes, total_bytes);
        },
        nb::arg("ordinal"), "(free, total) memory of CUDA device `ordinal` in bytes, now.");
    m.def(
        "synchronize_device",
        [](int ordinal) {
            nb::gil_scoped_release nogil;
            cuda::synchronize(ordinal);
        },
        nb::arg("ordinal"),
        "Waits for all work on CUDA device `ordinal`; errors of earlier asynchronous work (a "
        "kernel's illegal address, say) are raised here.");
}
