// gopt-run: compile, run, measure. Report structure only, never timings.

// RUN: gopt-run %s --reps=3 --warmup=1 | FileCheck %s --check-prefix=TABLE
// TABLE: @main: 3 runs after 1 warm-up
// TABLE-NEXT: latency {{.*}} ms median [IQR {{.*}}], CV {{.*}}%, min
// TABLE-NEXT: throughput {{.*}} runs/s
// TABLE-NEXT: peak memory [[PEAK:[0-9]+]] bytes held by the compiled code ({{[0-9]+}} allocations per run; inputs 128 bytes)
// TABLE-NEXT: arena 256 bytes planned for 2 intermediates of 256 bytes in all; 256 live at most
// TABLE-NEXT: reserved {{[0-9]+}} bytes held from the system after 4 runs (after the first: {{[0-9]+}})
// TABLE-NEXT: at peak held {{[0-9]+}} bytes, {{[0-9]+}} free in cached blocks (largest {{[0-9]+}}): fragmentation {{[0-9.]+}}
// TABLE-NEXT: compile {{.*}} ms: graph passes {{.*}}, lowering {{.*}}, LLVM codegen
// TABLE-NEXT: threads {{[0-9]+}} in the {{onednn|openblas|loops}} GEMM and convolutions; the generated code runs on one thread
// TABLE-NEXT: kernels 3 (library calls in 0, generated loops only in 3)
// TABLE-NEXT: id ms/run share kernel
// TABLE-NEXT: 0 {{.*}}% main_k0_exp
// TABLE-NEXT: 1 {{.*}}% main_k1_add
// TABLE-NEXT: 2 {{.*}}% main_k2_mul

// The static buffer plan, as JSON too. Exp's and add's results share a 256-byte
// arena (both alive while add runs); mul's result is the graph's result and
// is allocated on its own. Without the planner every intermediate is
// allocated on its own, and the report has no arena line.
// RUN: gopt-run %s --reps=1 --format=json | FileCheck %s --check-prefix=PLAN
// PLAN: "allocations_per_run": 2,
// PLAN: "arena_bytes": 256,
// PLAN: "most_live_bytes": 256,
// PLAN: "planned_buffers": 2,
// PLAN-NEXT: "planned_bytes": 256,
// RUN: gopt-run %s --reps=1 --lowering-options=plan-buffers=false | FileCheck %s --check-prefix=NOPLAN
// NOPLAN: peak memory {{[0-9]+}} bytes held by the compiled code (3 allocations per run; inputs 128 bytes)
// NOPLAN-NOT: arena
// RUN: gopt-run %s --reps=1 --lowering-options=plan-buffers=false --format=json | FileCheck %s --check-prefix=NOPLAN-JSON
// NOPLAN-JSON: "arena_bytes": 0,
// NOPLAN-JSON: "planned_buffers": 0,
// NOPLAN-JSON-NEXT: "planned_bytes": 0,

// The default pipeline fuses the three ops into one kernel.
// RUN: gopt-run %s --pipeline=gopt-optimize --reps=2 --threads=1 --format=json | FileCheck %s --check-prefix=JSON
// JSON: "allocations_per_run": 1,
// JSON: "compile_ms": {
// JSON-NEXT: "codegen":
// JSON-NEXT: "from_cache": false,
// JSON-NEXT: "graph_passes":
// JSON-NEXT: "import": 0,
// JSON-NEXT: "load": 0,
// JSON-NEXT: "lowering":
// JSON-NEXT: "process_compiles_before": 0,
// JSON-NEXT: "total":
// JSON-NEXT: "wall":
// JSON: "entry": "main",
// JSON: "external_fragmentation": {{[0-9.e+-]+}},
// JSON-NEXT: "free_at_peak": {{[0-9]+}},
// JSON: "gemm_library": "{{onednn|openblas|loops}}",
// JSON: "input_bytes": 128,
// JSON: "kernel_times": [
// JSON-NEXT: {
// JSON-NEXT: "calls_per_run": 1,
// JSON-NEXT: "id": 0,
// JSON-NEXT: "library_calls": "",
// JSON-NEXT: "ms_per_run":
// JSON-NEXT: "name": "main_k0_exp_add_mul",
// JSON-NEXT: "share": 1
// JSON: "kernels": 1,
// JSON: "largest_free_at_peak": {{[0-9]+}},
// JSON: "latency_ms": {
// JSON: "library_threads": 1,
// JSON-NEXT: "most_live_bytes": 0,
// JSON-NEXT: "parallel_loops": 0,
// JSON: "peak_bytes": {{[1-9][0-9]*}},
// JSON: "repetitions": 2,
// JSON: "reserved_at_peak": {{[1-9][0-9]*}},
// JSON: "reserved_bytes_by_run": [
// Three warm-ups, two timed runs: the water level after each.
// JSON-COUNT-5: {{^ *[1-9][0-9]*,?$}}
// JSON-NEXT: ],

// --steady-runs: untimed runs after the warm-up, counted in the water level.
// RUN: gopt-run %s --reps=3 --warmup=1 --steady-runs=7 | FileCheck %s --check-prefix=STEADY
// STEADY: reserved {{[0-9]+}} bytes held from the system after 11 runs (after the first: {{[0-9]+}})

// Unfused and fused builds give the same results (seeded inputs).
// RUN: rm -rf %t && gopt-run %s --reps=0 --output-dir=%t/plain
// RUN: gopt-run %s --reps=0 --pipeline=gopt-optimize --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: result #0 vs {{.*}}result0.npy: match (0 of 32 elements outside rtol=0.0001 atol=1e-05, max abs error

// Code compiled at LLVM's O0 (--opt-level=0: faster to compile) computes
// the same.
// RUN: gopt-run %s --reps=0 --opt-level=0 --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=SAME
// The CPU code compiled with one codegen thread or three computes the same
// (this graph is too small to split; unittests/Runner/CompiledGraphTest.cpp
// splits a larger one).
// RUN: gopt-run %s --reps=0 --codegen-threads=1 --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: gopt-run %s --reps=0 --codegen-threads=3 --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=SAME
// --verify-each: the verifier after every graph and lowering pass (by
// default, once after each pipeline); the same code either way.
// RUN: gopt-run %s --reps=0 --pipeline=gopt-optimize --verify-each --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=SAME

// --pass-timing: MLIR's timing report of the graph passes, then of the
// lowering, on stderr.
// RUN: gopt-run %s --reps=0 --pipeline=gopt-optimize --pass-timing 2>&1 | FileCheck %s --check-prefix=PASSTIMING
// PASSTIMING: Execution time report
// PASSTIMING: GOptFuse
// PASSTIMING: Execution time report
// PASSTIMING: GOptOutlineKernels
// PASSTIMING: GOptDeduplicateKernels
// PASSTIMING: GOptVerifyLLVMLowered

// LLVM's own --time-passes reports its passes and instruction selection.
// RUN: gopt-run %s --reps=0 --codegen-threads=1 --time-passes 2>&1 | FileCheck %s --check-prefix=LLVMTIMING
// LLVMTIMING: Pass execution timing report
// LLVMTIMING: DAG->DAG Instruction Selection

// Given inputs are used as given: the saved inputs reproduce the results.
// RUN: gopt-run %s --reps=0 --inputs=%t/plain/input0.npy --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=SAME

// Another seed gives other inputs, hence other results: a mismatch fails.
// RUN: not gopt-run %s --reps=0 --seed=7 --expect=%t/plain/result0.npy 2>&1 | FileCheck %s --check-prefix=DIFF
// DIFF: result #0 vs {{.*}}result0.npy: MISMATCH ({{[0-9]+}} of 32 elements outside rtol=0.0001 atol=1e-05, max abs error {{.*}}): element {{[0-9]+}}: got
// DIFF: gopt-run: error: results differ from the references

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = gopt.exp %x : tensor<4x8xf32>
  %a = gopt.add %e, %x : tensor<4x8xf32>
  %m = gopt.mul %a, %a : tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// --threads sets the library GEMM's threads; more than the machine has are
// clamped with a warning (no machine has 100000 cores).
// RUN: gopt-run %s --reps=1 --threads=100000 2>&1 | FileCheck %s --check-prefix=CLAMP
// CLAMP: gopt-run: warning: --threads=100000 is more than this machine's {{[0-9]+}} cores; using {{[0-9]+}}
// CLAMP: threads {{[0-9]+}} in the
