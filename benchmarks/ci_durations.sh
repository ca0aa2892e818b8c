#!/usr/bin/env bash
# The test command's duration, suite by suite: runs each tox environment's pytest command (tox.ini's
# `commands`) in this interpreter with --durations, and writes what pytest printed plus the suite's
# wall, user and system seconds and the machine's load before and after, to OUT (default stdout).
#
#     bash benchmarks/ci_durations.sh benchmarks/results/ci-durations-after.txt [SUITE ...]
#
# SUITE: the test folders to run (default: all eight, in tox.ini's order).
# It runs pytest directly rather than through tox so that the times are the tests' own (tox's
# environment setup is a few seconds: .ci/reuse_venv.py installs nothing). A fresh score cache each
# run, as on a fresh clone.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-/dev/stdout}"
shift || true
SUITES=(tests plugins/simpeval-cescore/tests plugins/simpeval-siera/tests plugins/simpeval-faithfulness/tests
        plugins/simpeval-sle/tests plugins/simpeval-lens/tests plugins/simpeval-simpq/tests
        plugins/simpeval-judge/tests)
if [ "$#" -gt 0 ]; then SUITES=("$@"); fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export SIMPEVAL_CACHE_DIR="$(mktemp -d)"
{
    echo "# simpeval test durations, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, git $(git rev-parse --short HEAD)"
    echo "# $(python -c 'import platform; print(platform.processor() or platform.machine(), platform.python_version())')"
    for suite in "${SUITES[@]}"; do
        echo "## suite $suite"
        echo "# load before: $(uptime)"
        /usr/bin/time -f "# suite $suite: wall %e s, user %U s, sys %S s, exit %x" \
            python -m pytest "$suite" -q --durations=40 -p no:cacheprovider 2>&1
        echo "# load after: $(uptime)"
    done
} > "$OUT" 2>&1
rm -rf "$SIMPEVAL_CACHE_DIR"
