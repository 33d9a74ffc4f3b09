#!/usr/bin/env bash
# scripts/device_build.sh OUT -- builds treadle in build-device/ on a GPU machine without network
# (the extension lands in python/treadle/); the build log goes to OUT/build.log. Used by
# device_check.sh and device_conformance.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: device_build.sh OUT}
mkdir -p "$out"
cmake -S . -B build-device -G Ninja -DTREADLE_BUILD_TESTS=OFF \
      -DPython_EXECUTABLE="$(command -v python3)" > "$out/build.log" 2>&1 &&
    cmake --build build-device >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "== nproc: $(nproc); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
