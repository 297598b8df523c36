#!/usr/bin/env bash
# Differential test of the graph passes on many random graphs
# (docs/Testing.md): every subset of {gopt-fold, gopt-dce, cse, gopt-fuse} and
# gopt-optimize against the unoptimized reference, on the same inputs.
#
#   scripts/difftest.sh [first-seed] [last-seed] [ops]    (default: 0 99 40)
#
# Prints one line per seed, then the failing seeds (if any); exit 1 if any.
# Reproduce one: build/bin/gopt-difftest --seeds=N --ops=K
#                build/bin/gopt-gen-graph --seed=N --ops=K -o seedN.mlir
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GOPT_BUILD_DIR:-$ROOT/build}"
FIRST="${1:-0}"
LAST="${2:-99}"
OPS="${3:-40}"

for n in "$FIRST" "$LAST" "$OPS"; do
  if ! [[ "$n" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 [first-seed] [last-seed] [ops] (non-negative integers)" >&2
    exit 2
  fi
done
if [ ! -x "$BUILD_DIR/bin/gopt-difftest" ]; then
  echo "error: $BUILD_DIR/bin/gopt-difftest is missing; run scripts/setup.sh" >&2
  exit 2
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"$BUILD_DIR/bin/gopt-difftest" --seeds="$FIRST-$LAST" --ops="$OPS" | tee "$log"
status=${PIPESTATUS[0]}
failing=$(grep -E '^seed [0-9]+: FAIL' "$log" | awk '{print $2}' | tr -d ':' | tr '\n' ' ')
if [ -n "$failing" ]; then
  echo "failing seeds: $failing"
fi
exit "$status"
