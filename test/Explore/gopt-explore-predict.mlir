// gopt-explore --predict: every configuration's run time and S on other
// hardware by the roofline model, from the kernels' FLOPs and bytes. On a
// made-up target (1 GFLOP/s, 1 GB/s, 1 us per kernel) the figures are
// computed by hand: exp reads and writes 1 KiB each (2048 B: 2.048 us + 1),
// add and mul read their operand twice (3072 B: 3.072 us + 1), so the
// baseline's three kernels take 11.192 us; fused, one kernel reads x and
// writes the result (2048 B: 3.048 us), S = 11.192 / 3.048 = 3.67.

// RUN: gopt-explore %s --mode=verify --passes=fuse --pairs=false --default-pipeline=false \
// RUN:   --predict=%S/Inputs/toy-target.json,h100 --progress=never --format=markdown \
// RUN:   --json=%t.json | FileCheck %s --check-prefix=MD
// MD: ## Prediction for hardware not at hand
// MD: - toy: a toy CPU no machine has (cpu, 1 thread) - 1 GFLOP/s, 1 GB/s, 1 us per kernel. Source: made up
// MD: - h100: NVIDIA H100 SXM5 80GB (gpu) - 67000 GFLOP/s, 3350 GB/s, 3 us per kernel. Source: NVIDIA H100 Tensor Core GPU datasheet
// MD: | configuration | kernels | toy ms | toy S | h100 ms | h100 S |
// MD: | baseline | 3 | 0.0112 | 1.00x | 0.009 | 1.00x |
// MD: | fuse | 1 | 0.00305 | 3.67x | 0.003 | 3.00x |
// MD: - toy: predicted fastest fuse (S 3.67x, 32.8% of its time fixed cost).
// MD: - h100: predicted fastest fuse (S 3.00x, 100.0% of its time fixed cost).

// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "predictions": [
// JSON: "configurations": [
// JSON: "name": "baseline",
// JSON-NEXT: "predicted_ms": 0.01119
// JSON-NEXT: "speedup": 1,
// JSON: "name": "fuse",
// JSON-NEXT: "predicted_ms": 0.00304
// JSON-NEXT: "speedup": 3.67
// JSON: "fastest": "fuse",
// JSON: "measured_here": false,
// JSON: "target": {
// JSON: "device": "a toy CPU no machine has",

// The terminal summary: one line per target.
// RUN: gopt-explore %s --mode=verify --passes=fuse --pairs=false --default-pipeline=false \
// RUN:   --predict=h200 --progress=never | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: Predicted by the roofline model (--predict; tables in the Markdown/HTML reports):
// SUMMARY-NEXT: h200: predicted fastest fuse (S 3.00x,

// This CPU as gopt-probe-target measured it, at the thread count of the
// run: the configurations were measured on it, so the measured S and the
// error stand beside the prediction.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: gopt-probe-target -o %t.dir/host.json --seconds=0.01 --threads=1 2>/dev/null
// RUN: env GOPT_HOST_TARGET=%t.dir/host.json gopt-explore %s --passes=fuse --pairs=false \
// RUN:   --default-pipeline=false --threads=1 --predict=host,h100 --budget=5 --reps=2 \
// RUN:   --round-ms=0 --max-rounds=2 --min-rounds=2 --progress=never --cache-dir=%t.dir/cache \
// RUN:   --format=markdown | FileCheck %s --check-prefix=HOST
// HOST: - host: {{.*}}(cpu, 1 thread){{.*}}; the configurations were measured on it. Source: measured by gopt-probe-target on
// HOST: | configuration | kernels | host ms | host S | host S measured | error | h100 ms | h100 S |
// HOST: | baseline | 3 | {{[0-9.e+-]+}} | 1.00x | 1.00x | +0% | 0.009 | 1.00x |
// HOST: | fuse | 1 | {{[0-9.e+-]+}} | {{[0-9.]+}}x | {{[0-9.]+}}x | {{[-+][0-9]+}}% | 0.003 | 3.00x |
// HOST: - host: predicted fastest fuse {{.*}}; measured fastest {{baseline|fuse}}; mean \|error\| of S {{[0-9.]+}}%; predicted times {{[0-9.]+}}x the measured (geometric mean).
// At another thread count the description is not the measured hardware.
// RUN: sed 's/"threads": 1/"threads": 99/' %t.dir/host.json > %t.dir/other.json
// RUN: env GOPT_HOST_TARGET=%t.dir/other.json gopt-explore %s --passes=fuse --pairs=false \
// RUN:   --default-pipeline=false --threads=1 --predict=host --budget=5 --reps=2 \
// RUN:   --round-ms=0 --max-rounds=2 --min-rounds=2 --progress=never --cache-dir=%t.dir/cache \
// RUN:   --format=markdown | FileCheck %s --check-prefix=OTHER
// OTHER: | configuration | kernels | host ms | host S |
// OTHER-NOT: S measured

// Errors: before anything is measured.
// RUN: not gopt-explore %s --predict=tpu 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: gopt-explore: error: --predict: unknown target 'tpu' (h100, h200, host, or a description file ending in .json)
// RUN: not gopt-explore %s --predict=h100,h100 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: gopt-explore: error: --predict names target 'h100' twice
// RUN: not env GOPT_HOST_TARGET=%t.dir/none.json gopt-explore %s --predict=host 2>&1 | FileCheck %s --check-prefix=NOHOST
// NOHOST: gopt-explore: error: --predict: no description of this CPU at '{{.*}}none.json': measure one with `gopt-probe-target -o {{.*}}none.json` (scripts/setup.sh does after the build)
// RUN: not gopt-explore %s --predict=%S/Inputs/bad-target.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: gopt-explore: error: --predict: '{{.*}}bad-target.json': target description: "peak_gflops" must be a positive number
// RUN: not gopt-explore %s --predict=%t.dir/missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: gopt-explore: error: --predict: cannot read target description '{{.*}}missing.json': No such file or directory

func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = gopt.exp %x : tensor<256xf32>
  %b = gopt.add %a, %a : tensor<256xf32>
  %c = gopt.mul %b, %b : tensor<256xf32>
  return %c : tensor<256xf32>
}
