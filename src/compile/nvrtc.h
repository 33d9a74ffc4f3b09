// src/compile/nvrtc.h -- NVRTC loaded at run time: CUDA C++ source to CUBIN (or PTX)
#pragma once

#include <string>
#include <vector>

namespace treadle::nvrtc {

/// True when an NVRTC library could be loaded. Never throws. The library is searched in
/// TREADLE_NVRTC (a file; when set, nothing else is tried and a failure is reported), then
/// CUDA_HOME / CUDA_PATH (lib64, lib), /usr/local/cuda/lib64, the `nvidia-cuda-nvrtc` pip
/// package (nvidia/cu13/lib or nvidia/cuda_nvrtc/lib in the site-packages found by walking up
/// from the binary treadle is linked into), $CONDA_PREFIX/lib, and the plain sonames
/// (libnvrtc.so.13, .12, .11.2, libnvrtc.so) for the dynamic loader. Loaded once per process.
bool is_available();
/// Why NVRTC is unavailable (empty when available).
std::string unavailable_reason();
/// "13.0" (major.minor), or "" when unavailable; part of the kernel cache key.
std::string version();

/// The file NVRTC was loaded from ("" when unavailable or found by the dynamic loader's soname).
std::string library_path();

/// Identifies the NVRTC library that would be used (its resolved path, size and modification
/// time) without loading it; part of the kernel cache key. Falls back to version() when
/// the library can only be found through the dynamic loader.
std::string identity();

struct Result {
    bool ok = false;
    std::string log;    ///< NVRTC's program log (errors and warnings)
    std::string image;  ///< CUBIN when `is_cubin`, else PTX text
    bool is_cubin = false;
    double seconds = 0.0;
};

/// Compiles `source` (named `name` in diagnostics) for compute capability `arch` (e.g. 90).
/// Produces a CUBIN for that exact architecture when NVRTC supports it, else PTX for the
/// newest virtual architecture it supports at or below `arch`. Never throws for a compile
/// error (ok = false, log set); throws treadle::Error(ErrorKind::Runtime) if NVRTC is missing.
Result compile(const std::string& source, const std::string& name, int arch,
               const std::vector<std::string>& include_dirs,
               const std::vector<std::string>& options);

}  // namespace treadle::nvrtc
