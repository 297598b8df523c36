#!/usr/bin/env bash
# The GPU check (docs/GPU.md, "Checking on a GPU machine"): on a machine
# with an NVIDIA GPU and driver, and no GOpt build, runs the bundles that
# bench/gpu/export-bundles.sh made elsewhere:
#
#   scripts/gpu-check.sh BUNDLES.tar.xz REPORT_DIR [--no-torch]
#
# 1. gopt-exec --probe: the device, or why there is none (exit 1);
# 2. every check bundle: its results against the CPU reference (the GPU
#    difftest; a mismatch fails the check), run with streams and again as
#    one CUDA graph (gopt-exec --cuda-graph);
# 3. every perf bundle, unfused and fused: latency, device memory, the
#    effective bandwidth against a device copy timed in the same run, and
#    the latency as one CUDA graph;
# 4. the GEMM arithmetic (GOPT_CUBLAS_MATH=tf32, bf16) on the bundles whose
#    time is GEMMs: latency, and errors against the f32 CPU reference where
#    the bundle has one (an accuracy figure, not a failure);
# 5. scripts/gpu-explore.sh on gopt-explore's exported configurations of
#    the bundled transformer block: REPORT_DIR/explore-runs, which
#    `gopt-explore --target=cuda examples/transformer_block.mlir
#    --passes=fold,dce,cse,fuse,cuda-graph --recorded-runs=DIR` analyzes
#    here (DIR: the same export, with the runs copied in as DIR/runs);
# 6. bench/gpu/torch_peer.py: PyTorch eager, torch.compile and its
#    "reduce-overhead" mode (CUDA graphs) on the same shapes (skipped with
#    --no-torch or without python3 torch);
# 7. REPORT_DIR/summary.md (bench/gpu/summarize.py) and the JSON reports.
# GPU_CHECK_SECONDS (default 540) bounds the whole run: the explore runs and
# the torch peer get what is left of it (each step says when it is skipped),
# and summary.md is rewritten after each step, so a run stopped from outside
# still leaves a summary of what it measured.
# Exit status: 0 when every check bundle matched.
set -uo pipefail
tarball=${1:?usage: gpu-check.sh BUNDLES.tar.xz REPORT_DIR [--no-torch]}
report=${2:?usage: gpu-check.sh BUNDLES.tar.xz REPORT_DIR [--no-torch]}
torch=yes
[[ ${3:-} == --no-torch ]] && torch=no
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$report"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xJf "$tarball" || { echo "gpu-check: cannot unpack $tarball"; exit 1; }
exec_=$work/bundles/bin/gopt-exec
start=$(date +%s)
budget=${GPU_CHECK_SECONDS:-540}
# Seconds left of the budget, less `reserve`, at most `cap`.
time_left() { # reserve cap
  local left=$(( budget - ($(date +%s) - start) - $1 ))
  (( left > $2 )) && left=$2
  echo $left
}
summarize() {
  python3 "$root/bench/gpu/summarize.py" "$report" > "$report/summary.md.tmp" 2>"$report/summarize.err" &&
    mv "$report/summary.md.tmp" "$report/summary.md"
}

# Contractions call cuBLAS (opened at run time): the loader's, else one a
# CUDA toolkit or a Python wheel (nvidia-cublas) installed.
if [[ -z ${GOPT_CUBLAS_LIBRARY:-} ]] && ! ldconfig -p 2>/dev/null | grep -q 'libcublas\.so\.1[23] '; then
  found=$(find /usr/local /opt /usr/lib \( -name 'libcublas.so.13' -o -name 'libcublas.so.12' \) 2>/dev/null | head -1)
  [[ -n $found ]] && export GOPT_CUBLAS_LIBRARY=$found
fi
# The .lt bundles call cuBLASLt (cublaslt-epilogues), opened the same way.
if [[ -z ${GOPT_CUBLASLT_LIBRARY:-} ]] && ! ldconfig -p 2>/dev/null | grep -q 'libcublasLt\.so\.1[23] '; then
  found=$(find /usr/local /opt /usr/lib \( -name 'libcublasLt.so.13' -o -name 'libcublasLt.so.12' \) 2>/dev/null | head -1)
  [[ -n $found ]] && export GOPT_CUBLASLT_LIBRARY=$found
fi
echo "gpu-check: cuBLAS: ${GOPT_CUBLAS_LIBRARY:-libcublas.so from the loader path}"
echo "gpu-check: cuBLASLt: ${GOPT_CUBLASLT_LIBRARY:-libcublasLt.so from the loader path}"

if ! "$exec_" --probe | tee "$report/device.txt"; then
  echo "gpu-check: no usable GPU; nothing run"
  exit 1
fi

failed=0 checked=0
for bundle in "$work"/bundles/check/*/; do
  name=$(basename "$bundle")
  checked=$((checked + 1))
  if timeout 120 "$exec_" "$bundle" --warmup 1 --reps 5 --copy-bytes 0 --atol 1e-4 \
       --format=json --report="$report/check.$name.json" 2>"$report/check.$name.err"; then
    echo "gpu-check: check $name: results match"
  else
    failed=$((failed + 1))
    echo "gpu-check: check $name: FAILED: $(cat "$report/check.$name.err")"
  fi
  # The same call captured as one CUDA graph: its replay's results too.
  if timeout 120 "$exec_" "$bundle" --warmup 1 --reps 5 --copy-bytes 0 --atol 1e-4 \
       --no-kernel-times --cuda-graph --format=json \
       --report="$report/graph.$name.json" 2>"$report/graph.$name.err"; then
    echo "gpu-check: check $name as a CUDA graph: results match"
  else
    failed=$((failed + 1))
    echo "gpu-check: check $name as a CUDA graph: FAILED: $(cat "$report/graph.$name.err")"
  fi
done

for bundle in "$work"/bundles/perf/*/; do
  name=$(basename "$bundle")
  # Streams, then the same model as one CUDA graph (--cuda-graph). Exit 2
  # is results that differ from the reference; any other failure may be the
  # graph's capture, so the streams are timed again alone and their
  # figures remain.
  timeout 180 "$exec_" "$bundle" --warmup 5 --reps 50 --atol 1e-4 --format=json \
    --cuda-graph --report="$report/perf.$name.json" 2>"$report/perf.$name.err"
  status=$?
  if [[ $status == 0 ]]; then
    echo "gpu-check: perf $name: $(grep -o '"median": [0-9.e-]*' "$report/perf.$name.json" | head -2 | tr '\n' ' ')ms (streams, graph)"
  elif [[ $status == 2 ]]; then
    failed=$((failed + 1))
    echo "gpu-check: perf $name: FAILED: results differ from the reference"
  else
    failed=$((failed + 1))
    echo "gpu-check: perf $name as a CUDA graph: FAILED: $(cat "$report/perf.$name.err")"
    if timeout 180 "$exec_" "$bundle" --warmup 5 --reps 50 --atol 1e-4 --format=json \
         --report="$report/perf.$name.json" 2>>"$report/perf.$name.err"; then
      echo "gpu-check: perf $name: $(grep -o '"median": [0-9.e-]*' "$report/perf.$name.json" | head -1) ms"
    else
      echo "gpu-check: perf $name: FAILED: $(cat "$report/perf.$name.err")"
    fi
  fi
done

summarize

# GEMM arithmetic: TF32 and bf16 tensor cores (GOPT_CUBLAS_MATH) on the
# bundles whose time is GEMMs. Exit 2 (results beyond the f32 tolerance) is
# the accuracy being measured: the report has the errors.
for math in tf32 bf16; do
  for bundle in "$work"/bundles/perf/{matmul,linear_bias,encoder,conv_block.gemm}.fused/ \
                "$work"/bundles/check/{matmul,linear_bias,encoder}.fused/; do
    [[ -d $bundle ]] || continue
    set_=$(basename "$(dirname "$bundle")") name=$(basename "$bundle")
    out=$report/math.$math.$set_.$name
    GOPT_CUBLAS_MATH=$math timeout 180 "$exec_" "$bundle" --warmup 5 --reps 50 \
      --atol 1e-4 --no-kernel-times --format=json --report="$out.json" 2>"$out.err"
    status=$?
    if [[ $status == 0 || $status == 2 ]]; then
      echo "gpu-check: $math $set_/$name: $(grep -o '"median": [0-9.e-]*' "$out.json" | head -1) ms"
    else
      failed=$((failed + 1))
      echo "gpu-check: $math $set_/$name: FAILED: $(cat "$out.err")"
    fi
  done
done

summarize

# The effect analysis's runs (gopt-explore --export-bundles in the tarball):
# recorded into REPORT_DIR/explore-runs for gopt-explore --recorded-runs.
# It leaves two minutes of the budget to the torch peer.
explore_time=$(time_left 120 300)
if [[ -d $work/bundles/explore/bundles ]] && (( explore_time < 30 )); then
  echo "gpu-check: explore runs skipped: ${explore_time} s of the ${budget} s budget left"
elif [[ -d $work/bundles/explore/bundles ]]; then
  if GOPT_EXEC=$exec_ timeout "$explore_time" "$root/scripts/gpu-explore.sh" "$work/bundles/explore" 5 50 \
       2> "$report/explore.log"; then
    cp -r "$work/bundles/explore/runs" "$report/explore-runs"
    echo "gpu-check: explore: runs recorded in $report/explore-runs"
  else
    echo "gpu-check: explore runs FAILED (see explore.log)"
  fi
fi

torch_time=$(time_left 10 300)
if [[ $torch == yes ]] && (( torch_time < 30 )); then
  echo "gpu-check: torch peer skipped: ${torch_time} s of the ${budget} s budget left"
elif [[ $torch == yes ]] && python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  # The peer writes its JSON after each measurement: cut short, it keeps
  # what it measured.
  timeout "$torch_time" python3 "$root/bench/gpu/torch_peer.py" "$report/torch.json" \
    2>"$report/torch.log" || echo "gpu-check: torch peer stopped early or failed (see torch.log)"
fi
summarize
cat "$report/summary.md"
echo "gpu-check: $checked check bundles, $failed failures, $(( $(date +%s) - start )) s"
[[ $failed == 0 ]]
