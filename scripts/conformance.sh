#!/usr/bin/env bash
# scripts/conformance.sh -- runs Warp 1.17.0's own unit tests under treadle (scripts/conformance.py)
# e.g. `bash scripts/conformance.sh core --reference --json build/conformance.json`
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -f build/build.ninja ] || bash scripts/setup.sh
exec "$PYTHON" scripts/conformance.py "$@"
