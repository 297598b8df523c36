#!/usr/bin/env bash
# Compiles the GPU benchmark's models into bundles (docs/GPU.md, "Bundles"),
# on any machine with GOpt built (no GPU needed), for scripts/gpu-check.sh
# to run on a GPU machine:
#
#   bench/gpu/export-bundles.sh OUT.tar.xz [BUILD_DIR]
#
# Two sets, each model unfused (no graph pass) and fused (gopt-optimize):
#   check/  small shapes, with the inputs and the CPU reference results
#           (correctness: the GPU's results against the CPU's), and
#           row/column/whole reductions at sizes no block divides;
#   perf/   benchmark shapes (32M-element elementwise chains, one of
#           transcendental functions, one memory-bound; softmax and
#           layer norm over 8192x4096, a 1024^3 matmul, a linear layer with
#           bias and ReLU 8192x1024x1024, a transformer
#           encoder layer at seq 512, d 768, a ResNet basic block at
#           64 channels, 56x56, and a strided convolution to 128), inputs
#           generated on the GPU machine, except the encoder's, which also
#           has its CPU reference.
# Every bundle's configuration first runs here with its kernels emulated
# on the CPU (gopt-run --target=cuda-emulated) against the CPU's results;
# a mismatch stops the export.
# The chains are also compiled with 2, 4 and 8 elements per thread (check and
# perf), the linear layer and the encoder with cuBLASLt epilogues (.lt),
# the matmul, the linear layer and the encoder with a host wait around each
# GEMM (.sync),
# the conv block with its convolutions as im2col and cuBLAS (.gemm);
# explore/ holds gopt-explore's configurations of the bundled
# transformer block (--passes=fold,dce,cse,fuse,cuda-graph --export-bundles). The tarball also holds gopt-exec
# (it links no LLVM or MLIR).
set -euo pipefail
out=${1:?usage: export-bundles.sh OUT.tar.xz [BUILD_DIR]}
build=${2:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
run=$build/bin/gopt-run
python=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export_model() { # set name mlir configuration [gopt-run options...]
  local set=$1 name=$2 mlir=$3 config=$4
  shift 4
  local pipeline=()
  [[ $config == fused ]] && pipeline=(--pipeline=gopt-optimize)
  echo "export-bundles: $set/$name.$config" >&2
  # The bundle's kernels first run here, emulated on the CPU thread by
  # thread (--target=cuda-emulated; a perf bundle's on seeded random inputs
  # instead of generated ones): a mapping that computes something else
  # stops the export instead of costing a run on the GPU machine.
  local emulated=()
  for arg in "$@"; do
    [[ $arg == --generated-inputs ]] || emulated+=("$arg")
  done
  if ! "$run" --target=cuda-emulated "${pipeline[@]}" "${emulated[@]}" "$mlir" \
       > "$work/emulated.log" 2>&1; then
    echo "export-bundles: $set/$name.$config: the emulated GPU kernels do not" \
      "match the CPU:" >&2
    cat "$work/emulated.log" >&2
    exit 1
  fi
  "$run" --target=cuda --export-bundle="$work/bundles/$set/$name.$config" \
    "${pipeline[@]}" "$@" "$mlir" >/dev/null
}

for size in small big; do
  models=$work/models-$size
  flag=(); [[ $size == small ]] && flag=(--small)
  "$python" "$root/bench/gpu/make_models.py" "$models" "${flag[@]}"
  "$build/bin/gopt-import-onnx" "$models/encoder.onnx" -o "$models/encoder.mlir"
  names=(ew_chain ew_light softmax layer_norm matmul linear_bias encoder conv_block)
  [[ $size == small ]] && names+=(reductions)
  for name in "${names[@]}"; do
    inputs=$(ls "$models/$name".input*.npy | paste -sd, -)
    for config in unfused fused; do
      if [[ $size == small ]]; then
        export_model check "$name" "$models/$name.mlir" $config --inputs="$inputs"
      elif [[ $name == encoder ]]; then
        export_model perf "$name" "$models/$name.mlir" $config --inputs="$inputs"
      else
        export_model perf "$name" "$models/$name.mlir" $config --generated-inputs
      fi
    done
  done
done
export_model check mlp "$root/examples/mlp.mlir" fused
# A lowering option on fused models, checked (small shapes) and timed
# (benchmark shapes) against the default: the bundles NAME.SUFFIX.
export_option() { # suffix nvvm-options name...
  local suffix=$1 options=$2
  shift 2
  for name in "$@"; do
    for size in small big; do
      local set_=perf models=$work/models-$size
      [[ $size == small ]] && set_=check
      local input_flag=(--inputs="$(ls "$models/$name".input*.npy | paste -sd, -)")
      [[ $set_ == perf && $name != encoder ]] && input_flag=(--generated-inputs)
      export_model $set_ "$name.$suffix" "$models/$name.mlir" fused \
        "${input_flag[@]}" --nvvm-options="$options"
    done
  done
}
# cuBLASLt epilogues (gopt-lower-to-nvvm's cublaslt-epilogues: a bias, or a
# bias and a ReLU, applied by the GEMM's call), against the default
# (cuBLAS, then the epilogue's launch).
export_option lt cublaslt-epilogues=true linear_bias encoder
# The host waiting before and after each GEMM (stream-library-calls=false,
# as before the GEMMs went on the launches' stream), the baseline of the
# default.
export_option sync stream-library-calls=false matmul linear_bias encoder
# Convolutions as an im2col launch and a cuBLAS GEMM (gopt-lower-to-nvvm's
# conv-gemm), unfused (NCHW) and fused (channels last): checked and timed
# against the direct loops.
for size in small big; do
  set_=perf input_flag=(--generated-inputs)
  if [[ $size == small ]]; then
    set_=check input_flag=(--inputs="$work/models-small/conv_block.input0.npy")
  fi
  for config in unfused fused; do
    export_model $set_ conv_block.gemm "$work/models-$size/conv_block.mlir" $config \
      "${input_flag[@]}" --nvvm-options=conv-gemm=true
  done
done
# Elements per thread (gopt-lower-to-nvvm's elements-per-thread, its loads
# issued together): both chains checked and timed at 2, 4 and 8.
for chain in ew_chain ew_light; do
  for e in 2 4 8; do
    export_model check "$chain.e$e" "$work/models-small/$chain.mlir" fused \
      --inputs="$work/models-small/$chain.input0.npy" \
      --nvvm-options="elements-per-thread=$e"
    export_model perf "$chain.e$e" "$work/models-big/$chain.mlir" fused \
      --generated-inputs --nvvm-options="elements-per-thread=$e"
  done
done
# The effect analysis on the GPU: gopt-explore's configurations of the
# bundled transformer block, the CUDA-graph launch among the passes, one
# bundle per distinct program
# (scripts/gpu-check.sh runs scripts/gpu-explore.sh on them).
echo "export-bundles: explore/ (gopt-explore --target=cuda --export-bundles)" >&2
"$build/bin/gopt-explore" --target=cuda "$root/examples/transformer_block.mlir" \
  --passes=fold,dce,cse,fuse,cuda-graph --export-bundles="$work/bundles/explore" > /dev/null
mkdir -p "$work/bundles/bin"
cp "$build/bin/gopt-exec" "$work/bundles/bin/"
tar -C "$work" -cf - bundles | xz -T2 -6 > "$out"
echo "export-bundles: wrote $out ($(du -h "$out" | cut -f1))" >&2
