#!/usr/bin/env bash
# Builds GOpt (installing what is missing) and runs every test: the lit
# regression suite and the GoogleTest unit tests (through lit's GoogleTest
# format). Ends with one line "tests: N passed, M failed, K skipped" (skipped:
# tests that need a CUDA device; a package setup.sh installs that is still
# missing fails the run).
#
#   scripts/test.sh              build/ and every test
#   scripts/test.sh --sanitize   build-sanitize/ (AddressSanitizer and
#                                UndefinedBehaviorSanitizer over GOpt's code)
#                                and every test that can run instrumented
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
  "") ;;
  --sanitize)
    export GOPT_BUILD_DIR="${GOPT_BUILD_DIR:-$ROOT/build-sanitize}"
    export GOPT_CMAKE_ARGS="-DGOPT_SANITIZE=ON"
    ;;
  *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
esac
BUILD_DIR="${GOPT_BUILD_DIR:-$ROOT/build}"

"$ROOT/scripts/setup.sh" || { echo "tests: 0 passed, 1 failed (build)"; exit 1; }

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# The features of the packages setup.sh installs are required: a missing one
# is a broken set-up, not a reason to skip the tests that need it.
/usr/lib/llvm-22/bin/lit -sv --param gopt_require_features=onnx,torch,cmake,ninja \
  "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

count() { grep -E "^ *$1 *:" "$log" | awk -F: '{print $2}' | awk '{s+=$1} END {print s+0}'; }
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
# Tests whose REQUIRES are missing (python3-onnx, python3-torch, ...) and
# GoogleTest cases that skip themselves (no CUDA device) are counted, so a
# machine without them does not pass silently.
skipped=$(( $(count Unsupported) + $(count Skipped) ))
if [ "$passed" -eq 0 ]; then
  echo "no test ran"
  exit 1
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
