#!/usr/bin/env bash
# Builds GOpt's fuzz targets as libFuzzer fuzzers (clang-22, AddressSanitizer,
# GOpt's code instrumented for coverage) and runs each for a while
# (docs/Testing.md, "Fuzzing"):
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Targets: npy, manifests, onnx, gopt-ir (default: all, 60 s each). Each
# starts from fuzz/corpus/TARGET, fuzz/regressions/TARGET and, for gopt-ir,
# the repository's .mlir tests and examples; the corpus grows in
# build-fuzz/corpus/TARGET. A crash leaves its input in build-fuzz/crashes/
# and fails the script: copy it into fuzz/regressions/TARGET, fix the bug,
# and test/Fuzz/replay.test runs it from then on. Installs clang-22 and
# libclang-rt-22-dev (Debian) when they are missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
[[ $# -gt 0 ]] && shift
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(npy manifests onnx gopt-ir)

missing=()
for package in clang-22 libclang-rt-22-dev; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "fuzz: installing ${missing[*]}" >&2
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo=sudo
  $sudo apt-get install -y -q "${missing[@]}" >&2
fi

build=$root/build-fuzz
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
llvm=/usr/lib/llvm-22
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DMLIR_DIR=$llvm/lib/cmake/mlir -DLLVM_DIR=$llvm/lib/cmake/llvm \
  -DGOPT_FUZZ=ON -DGOPT_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
ninja -C "$build" "${targets[@]/#/gopt-fuzz-}"

mkdir -p "$build/crashes" "$build/logs"
failed=0
total=0
printf '%-10s %12s %10s %8s %s\n' target executions "exec/s" crashes corpus
for target in "${targets[@]}"; do
  corpus=$build/corpus/$target
  mkdir -p "$corpus"
  cp -n "$root/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
  cp -n "$root/fuzz/regressions/$target/"* "$corpus/" 2>/dev/null || true
  if [[ $target == gopt-ir ]]; then
    find "$root/test/Dialect" "$root/test/Transforms" "$root/examples" \
      -name '*.mlir' -size -16k | while read -r f; do
        cp -n "$f" "$corpus/$(echo "$f" | md5sum | cut -c1-16).mlir"
      done
  fi
  before=$(ls "$build/crashes" | wc -l)
  log=$build/logs/$target.log
  status=0
  ASAN_OPTIONS=detect_leaks=0 "$build/bin/gopt-fuzz-$target" "$corpus" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$build/crashes/$target-" \
    >"$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  crashes=$(( $(ls "$build/crashes" | wc -l) - before ))
  total=$((total + ${runs:-0}))
  printf '%-10s %12s %10s %8s %s\n' "$target" "${runs:-0}" "${rate:-0}" "$crashes" "$(ls "$corpus" | wc -l) inputs"
  if [[ $status -ne 0 || $crashes -gt 0 ]]; then
    failed=1
    echo "fuzz: $target failed (status $status); its log: $log" >&2
  fi
done
echo "fuzz: $total executions in all"
exit $failed
