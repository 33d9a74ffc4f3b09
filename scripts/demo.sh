#!/usr/bin/env bash
# scripts/demo.sh -- sets up treadle and runs the main demo (a heat-diffusion simulation) on the CPU
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
PYTHONPATH=python exec "${PYTHON:-python3}" -m treadle.examples.heat_diffusion "$@"
