# scripts/python_env.sh -- sourced by setup.sh, test.sh and demo.sh: picks the Python that
# builds and tests treadle and exports it as PYTHON. An explicit $PYTHON wins; else an active
# virtual environment's python3; else the checkout's own .venv, created on first use (with
# Debian's python3-venv installed by apt-get where the venv module is missing), so pip never
# installs into the system's Python (which PEP 668 refuses) and never needs root.
if [ -z "${PYTHON:-}" ]; then
    if [ -n "${VIRTUAL_ENV:-}" ]; then
        PYTHON=$(command -v python3)
    else
        if [ ! -x .venv/bin/python ]; then
            echo "setup: creating the virtual environment .venv"
            if ! python3 -m venv .venv >/dev/null 2>&1; then
                rm -rf .venv
                echo "setup: installing python3-venv with apt-get"
                apt-get update -qq && apt-get install -y -qq python3-venv
                python3 -m venv .venv
            fi
        fi
        PYTHON=$PWD/.venv/bin/python
    fi
fi
export PYTHON
