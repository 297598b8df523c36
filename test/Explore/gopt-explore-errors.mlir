// Bad input to gopt-explore: a clear error and a non-zero exit, before
// anything is measured; never a crash.

// RUN: not gopt-explore %s --passes=fold,frobnicate 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: gopt-explore: error: unknown pass 'frobnicate': use fold, dce, cse, fuse, layout, canonicalize, plan, cuda-graph or a pass registered with gopt-opt

// RUN: not gopt-explore %s --passes= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: gopt-explore: error: the pass set is empty

// RUN: not gopt-explore %s --passes=fold,fold 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: gopt-explore: error: pass 'fold' is named twice in the pass set

// RUN: not gopt-explore %s --mode=fast 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: gopt-explore: error: unknown --mode 'fast' (verify, default or autotune)

// A --min-rounds above --max-rounds is an error; a --max-rounds alone below
// the default minimum (5) lowers the minimum (test/Explore/gopt-explore.mlir).
// RUN: not gopt-explore %s --min-rounds=6 --max-rounds=3 2>&1 | FileCheck %s --check-prefix=ROUNDS
// ROUNDS: gopt-explore: error: need --reps >= 1, --warmup >= 0 and 1 <= --min-rounds <= --max-rounds

// A checking run that outlives --config-timeout is killed and reported; here
// it is the baseline's, so nothing can be compared.
// RUN: not gopt-explore %S/Inputs/slow.mlir --passes=fold --pairs=false --default-pipeline=false --config-timeout=0.01 --progress=never 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// TIMEOUT: gopt-explore: error: the baseline (no graph pass) cannot be measured, so nothing can be compared: the compiled code of @main did not finish within 0.01 s (its run was killed)
// RUN: not gopt-explore %s --config-timeout=0 2>&1 | FileCheck %s --check-prefix=CTIMEOUT
// CTIMEOUT: gopt-explore: error: --budget and --config-timeout must be positive

// RUN: not gopt-explore %s --steady-runs=-1 2>&1 | FileCheck %s --check-prefix=STEADY
// STEADY: gopt-explore: error: --steady-runs must not be negative

// RUN: not gopt-explore %s --memory-limit=lots 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: gopt-explore: error: --memory-limit='lots' is not a size (e.g. 512M, 2G, 1048576)

// RUN: not gopt-explore %s --pipeline=nolabel 2>&1 | FileCheck %s --check-prefix=LABEL
// LABEL: gopt-explore: error: --pipeline='nolabel' must be LABEL=PIPELINE

// RUN: not gopt-explore %s --pipeline='mine=builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: gopt-explore: error: the pipeline of 'mine', 'builtin.module(no-such-pass)', is not valid:
// PIPE: 'no-such-pass' does not refer to a registered pass or pass pipeline

// RUN: not gopt-explore %s --pipeline='fold=builtin.module(gopt-fold)' 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: gopt-explore: error: two configurations are named 'fold'

// RUN: not gopt-explore %s --reps=0 2>&1 | FileCheck %s --check-prefix=REPS
// REPS: gopt-explore: error: need --reps >= 1

// RUN: not gopt-explore %s --json=%t.missing-dir/r.json 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: gopt-explore: error: {{.*}}missing-dir/r.json{{.*}}

// RUN: not gopt-explore %s --input-shape=x=1x2 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: gopt-explore: error: --input-shape applies to ONNX models only

// RUN: not gopt-explore %t.no-such-model.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: gopt-explore: error: {{.*}}no-such-model.mlir

// A model whose baseline cannot run leaves nothing to compare against.
// RUN: not gopt-explore %s --progress=never 2>&1 | FileCheck %s --check-prefix=BASELINE
// BASELINE: gopt-explore: error: the baseline (no graph pass) cannot be measured, so nothing can be compared: cannot run @main: argument #0 has type tensor<?xf32>

// RUN: not gopt-explore %s --mode=verify --choose 2>&1 | FileCheck %s --check-prefix=BASELINE

func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// Compiled code that traps (an integer division by zero on the random
// inputs) is a failed run, reported; it does not take gopt-explore down.
// RUN: not gopt-explore %S/Inputs/div-by-zero.mlir --passes=fold --pairs=false --progress=never --cache-dir= 2>&1 | FileCheck %s --check-prefix=CRASH
// CRASH-NOT: Stack dump
// CRASH: gopt-explore: error: the baseline (no graph pass) cannot be measured, so nothing can be compared: the compiled code of @main crashed: signal 8,

// RUN: not gopt-explore %s --threads=-1 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: gopt-explore: error: --threads must not be negative, got -1
