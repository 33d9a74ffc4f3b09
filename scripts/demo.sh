#!/usr/bin/env bash
# scripts/demo.sh -- sets up treadle and runs the main demo (a heat-diffusion simulation) on the CPU
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/python_env.sh
bash scripts/setup.sh _treadle  # the Python extension alone: the demo needs no C++ tests
mkdir -p out
PYTHONPATH=python exec "$PYTHON" -m treadle.examples.heat_diffusion --out out/heat_diffusion.png "$@"
