#!/usr/bin/env bash
# gopt-explore's runs on a GPU machine that has no GOpt compiler (docs/
# Explore.md, "Compile here, measure there"): runs the bundles that
#   gopt-explore --target=cuda MODEL --export-bundles=DIR
# wrote, in interleaved rounds (the order rotated by one each round, as
# gopt-explore does), and records what
#   gopt-explore --target=cuda MODEL --recorded-runs=DIR
# analyzes:
#
#   scripts/gpu-explore.sh DIR [ROUNDS [REPS]]      (default 5 rounds, 20 reps)
#
# Per program, DIR/runs/<program>/: results/result<i>.bin (the outputs, for
# the check against the baseline), round<k>.json (gopt-exec's report of
# round k: REPS timed calls after 2 warm-up calls), kernels.json (a run with
# per-kernel CUDA events). gopt-exec is $GOPT_EXEC, else the one on PATH,
# else build/bin/gopt-exec.
set -euo pipefail
dir=${1:?usage: gpu-explore.sh DIR [ROUNDS [REPS]]}
rounds=${2:-5}
reps=${3:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
exec_=${GOPT_EXEC:-$(command -v gopt-exec || echo "$root/build/bin/gopt-exec")}
[[ -x $exec_ ]] || { echo "gpu-explore: no gopt-exec (set GOPT_EXEC)" >&2; exit 1; }
shopt -s nullglob
bundles=("$dir"/bundles/*/)
n=${#bundles[@]}
(( n > 0 )) || { echo "gpu-explore: no bundles in $dir/bundles (gopt-explore --export-bundles writes them)" >&2; exit 1; }
(( rounds > 0 && reps > 0 )) || { echo "gpu-explore: ROUNDS and REPS must be positive" >&2; exit 1; }
"$exec_" --probe >&2 || exit 1

run() { # bundle, then gopt-exec options
  local bundle=$1
  shift
  "$exec_" "$bundle" --warmup 2 --copy-bytes 0 "$@" > /dev/null
}
start=$(date +%s)
for bundle in "${bundles[@]}"; do
  name=$(basename "$bundle")
  rm -rf "$dir/runs/$name"
  mkdir -p "$dir/runs/$name/results"
  run "$bundle" --reps 1 --no-kernel-times --write-results "$dir/runs/$name/results"
done
for ((r = 0; r < rounds; r++)); do
  for ((i = 0; i < n; i++)); do
    bundle=${bundles[(i + r) % n]}
    name=$(basename "$bundle")
    run "$bundle" --reps "$reps" --no-kernel-times --format=json \
      --report="$dir/runs/$name/round$r.json"
  done
  echo "gpu-explore: round $((r + 1)) of $rounds done" >&2
done
for bundle in "${bundles[@]}"; do
  name=$(basename "$bundle")
  run "$bundle" --reps "$reps" --format=json --report="$dir/runs/$name/kernels.json"
done
echo "gpu-explore: $n programs, $rounds rounds of $reps calls, $(( $(date +%s) - start )) s; results in $dir/runs" >&2
