#!/usr/bin/env bash
# GOpt's main job on its embedded default: builds GOpt if needed, runs the
# default graph pipeline (gopt-optimize) on the bundled attention example,
# prints the optimized IR and the --gopt-measure table: op count, kernels
# and estimated peak memory before the first pass and after each pass, and
# the compiled graph's measured run time and peak memory at each point
# (--gopt-measure-runtime: lowered, JIT-compiled and timed on this CPU).
#
#   scripts/run-example.sh [model.mlir]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GOPT_BUILD_DIR:-$ROOT/build}"
MODEL="${1:-$ROOT/examples/attention_redundant.mlir}"

"$ROOT/scripts/setup.sh" >&2

echo "== gopt-optimize on $MODEL"
"$BUILD_DIR/bin/gopt-opt" "$MODEL" -verify-each --gopt-optimize --gopt-measure \
  --gopt-measure-runtime 2>&1
