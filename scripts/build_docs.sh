#!/usr/bin/env bash
# scripts/build_docs.sh [OUT] -- builds the HTML documentation (docs/, Sphinx with MyST) into OUT
# (default build/docs), with warnings as errors. Needs the extension built (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/python_env.sh
out=${1:-build/docs}
PYTHONPATH=python "$PYTHON" -m sphinx -W --keep-going -q -b html docs "$out"
echo "documentation in $out/index.html"
