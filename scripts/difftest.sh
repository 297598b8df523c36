#!/usr/bin/env bash
# Differential test of the graph passes on many random graphs
# (docs/Testing.md): every subset of {gopt-fold, gopt-dce, cse, gopt-fuse} and
# gopt-optimize against the unoptimized reference and the constant evaluator,
# on the same inputs. The seeds are split into chunks run by parallel
# gopt-difftest processes (a fresh MLIR context per chunk).
#
#   scripts/difftest.sh [--jobs=N] [--chunk=K] [first-seed] [last-seed] [ops]
#                       [gopt-difftest flags...]
#
#   first-seed, last-seed   default 0 99
#   ops                     compute ops per graph, N or A-B (default 40)
#   --jobs=N                processes at once (default: the number of cores)
#   --chunk=K               seeds per process (default 50)
#   further flags go to every gopt-difftest, e.g. the fast mode of large runs:
#   --compile-all=false --opt-level=0 (docs/Testing.md, "Large runs")
#
# Prints a line per finished chunk (graphs done, failures, elapsed, estimated
# time left), then the totals and the failing seeds with their mismatches;
# exit 1 if any seed failed, 2 on bad arguments.
# Reproduce one: build/bin/gopt-difftest --seeds=N --ops=K
#                build/bin/gopt-gen-graph --seed=N --ops=K -o seedN.mlir
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GOPT_BUILD_DIR:-$ROOT/build}"
JOBS="$(nproc)"
CHUNK=50
usage() {
  echo "usage: $0 [--jobs=N] [--chunk=K] [first-seed] [last-seed] [ops N|A-B]" \
       "[gopt-difftest flags...]" >&2
  exit 2
}
positional=()
extra=()
for arg in "$@"; do
  case "$arg" in
    --jobs=*) JOBS="${arg#--jobs=}" ;;
    --chunk=*) CHUNK="${arg#--chunk=}" ;;
    -h|--help) usage ;;
    -*) extra+=("$arg") ;;
    *) positional+=("$arg") ;;
  esac
done
[ "${#positional[@]}" -le 3 ] || usage
FIRST="${positional[0]:-0}"
LAST="${positional[1]:-99}"
OPS="${positional[2]:-40}"
for n in "$FIRST" "$LAST" "$JOBS" "$CHUNK"; do
  [[ "$n" =~ ^[0-9]+$ ]] || usage
done
[[ "$OPS" =~ ^[0-9]+(-[0-9]+)?$ ]] || usage
if [ "$FIRST" -gt "$LAST" ] || [ "$JOBS" -lt 1 ] || [ "$CHUNK" -lt 1 ]; then
  usage
fi
if [ ! -x "$BUILD_DIR/bin/gopt-difftest" ]; then
  echo "error: $BUILD_DIR/bin/gopt-difftest is missing; run scripts/setup.sh" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
total=$((LAST - FIRST + 1))
start=$(date +%s)
export BUILD_DIR OPS work total start
extra_args="${extra[*]:-}"
export extra_args

# One chunk: gopt-difftest over seeds A-B into work/A.log, then a progress
# line from the logs finished so far. A gopt-difftest that crashes (a
# segfault in compiled code) fails the seed after the last one it reported,
# and the chunk goes on from the next.
run_chunk() {
  local a="$1" b="$2" from="$1" rc last
  : > "$work/$a.part" || return 1
  while [ "$from" -le "$b" ]; do
    [ -d "$work" ] || return 1  # the run was stopped
    # In a subshell whose own stderr is dropped: the shell's "Segmentation
    # fault" notice would otherwise interleave with the progress lines.
    # shellcheck disable=SC2086
    ( "$BUILD_DIR/bin/gopt-difftest" --seeds="$from-$b" --ops="$OPS" \
        $extra_args > "$work/$a.run" 2> "$work/$a.err"; exit $? ) 2> /dev/null
    rc=$?
    cat "$work/$a.run" >> "$work/$a.part"
    if [ "$rc" -le 1 ] && grep -q '^difftest: ' "$work/$a.run"; then
      break
    fi
    last=$(grep -E '^seed [0-9]+' "$work/$a.run" | tail -n 1 | awk '{print $2}' | tr -d ':')
    local crashed=$(( ${last:-$((from - 1))} + 1 ))
    echo "seed $crashed: FAIL (gopt-difftest exited $rc)" >> "$work/$a.part"
    echo "  CRASH seed $crashed: gopt-difftest exited $rc; reproduce:" \
      "gopt-difftest --seeds=$crashed --ops=$OPS $extra_args" >> "$work/$a.part"
    from=$((crashed + 1))
  done
  mv "$work/$a.part" "$work/$a.log"
  local done failed now eta
  done=$(cat "$work"/*.log | grep -c '^seed ')
  failed=$(cat "$work"/*.log | grep -c '^seed .*: FAIL')
  now=$(($(date +%s) - start))
  eta=$(( done > 0 ? now * (total - done) / done : 0 ))
  printf 'seeds %s-%s done: %d/%d graphs, %d failed, %d s elapsed, ~%d s left\n' \
    "$a" "$b" "$done" "$total" "$failed" "$now" "$eta"
}
export -f run_chunk

for ((a = FIRST; a <= LAST; a += CHUNK)); do
  b=$((a + CHUNK - 1))
  [ "$b" -gt "$LAST" ] && b="$LAST"
  echo "$a $b"
done > "$work/chunks"
# xargs and its workers in a process group of their own, so stopping this
# script (Ctrl-C, kill) stops them too instead of leaving them running.
setsid xargs -P "$JOBS" -n 2 bash -c 'run_chunk "$0" "$1"' < "$work/chunks" &
workers=$!
trap 'kill -TERM -- "-$workers" 2>/dev/null; echo "stopped" >&2; exit 130' INT TERM
wait "$workers"
trap - INT TERM

cat "$work"/*.log > "$work/all"
# Totals from the per-seed lines ("seed N (K ops): ok (16 configurations,
# 1 compiled, 16 evaluated; checked against the evaluator)").
awk -v wall="$(($(date +%s) - start))" '
  /^seed [0-9]+/ {
    ++graphs
    if ($0 ~ /: FAIL/) ++failed
    if ($0 ~ /; checked against the evaluator/) ++checked
    if (match($0, /\(([0-9]+) configurations, ([0-9]+) compiled, ([0-9]+) evaluated/)) {
      split(substr($0, RSTART + 1, RLENGTH - 1), f, /[^0-9]+/)
      configs += f[1]; compiled += f[2]; evals += f[3]
    }
  }
  END {
    printf "difftest: %d graphs (%d checked against the evaluator), %d configurations (%d compiled, %d evaluated), %d failed, %d s\n",
      graphs, checked, configs, compiled, evals, failed, wall
  }' "$work/all"
failing=$(grep -E '^seed [0-9]+.*: FAIL' "$work/all" | awk '{print $2}' |
          tr -d ':' | sort -n | uniq | tr '\n' ' ')
if [ -n "$failing" ]; then
  echo "failing seeds: $failing"
  grep -E '^  (MISMATCH|CRASH) ' "$work/all"
  exit 1
fi
exit 0
