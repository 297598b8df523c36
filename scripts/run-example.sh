#!/usr/bin/env bash
# GOpt's main job on its embedded default: builds GOpt if needed (installing
# what is missing), then runs gopt-explore on the bundled attention block
# (examples/attention_block.mlir, embedded in the tool): the model compiled
# with no graph pass, with each pass alone, with each ordered pair and with
# the default pipeline, verified against the baseline and timed on this CPU;
# prints the summary: speedups with intervals, memory, compile cost and
# break-even, the pairs whose synergy is not 1, and the configuration to
# ship.
#
#   scripts/run-example.sh [gopt-explore arguments, e.g. model.mlir --html=r.html]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GOPT_BUILD_DIR:-$ROOT/build}"

"$ROOT/scripts/setup.sh" >&2

exec "$BUILD_DIR/bin/gopt-explore" "$@"
