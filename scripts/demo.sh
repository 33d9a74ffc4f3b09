#!/usr/bin/env bash
# scripts/demo.sh -- sets up treadle and runs the main demo (a heat-diffusion simulation) on the CPU
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/python_env.sh
bash scripts/setup.sh
PYTHONPATH=python exec "$PYTHON" -m treadle.examples.heat_diffusion "$@"
