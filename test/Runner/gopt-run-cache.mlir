// gopt-run --cache-dir: the first run compiles and stores the program; a
// second run of the same program loads it (its report says so, with what
// the stored compile took) and computes the same results; another
// pipeline is another program, compiled anew.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --cache-dir=%t/cache --output-dir=%t/cold | FileCheck %s --check-prefix=COLD
// COLD: compile {{[0-9.]+}} ms: graph passes {{[0-9.]+}}, lowering {{[0-9.]+}}, LLVM codegen {{[0-9.]+}}

// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --cache-dir=%t/cache --expect=%t/cold/result0.npy 2>&1 | FileCheck %s --check-prefix=WARM
// WARM: result #0 vs {{.*}}result0.npy: match
// WARM: compile {{[0-9.]+}} ms: graph passes {{[0-9.]+}}, loaded from the compile cache {{[0-9.]+}} (when stored: lowering {{[0-9.]+}}, LLVM codegen {{[0-9.]+}})
// WARM: kernels 2 (
// WARM: main_k0_matmul_relu_exp
// WARM: main_k1_softmax

// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --cache-dir=%t/cache --format=json | FileCheck %s --check-prefix=JSON
// JSON: "compile_ms": {
// JSON-DAG: "from_cache": true
// JSON-DAG: "wall":
// JSON-DAG: "load":

// Without graph passes the program differs: a miss, stored beside.
// RUN: gopt-run %s --reps=1 --cache-dir=%t/cache | FileCheck %s --check-prefix=COLD
// RUN: gopt-run %s --reps=1 --cache-dir=%t/cache --format=json | FileCheck %s --check-prefix=JSON

// No --cache-dir, or an empty one: nothing is cached.
// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --cache-dir= | FileCheck %s --check-prefix=COLD
// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize | FileCheck %s --check-prefix=COLD

// A cache folder that cannot be made or is a file is an error, not a
// cache silently skipped.
// RUN: touch %t/file
// RUN: not gopt-run %s --reps=1 --cache-dir=%t/file 2>&1 | FileCheck %s --check-prefix=NOTDIR
// NOTDIR: gopt-run: error: --cache-dir: '{{.*}}file' is not a folder
// RUN: not gopt-run %s --reps=1 --cache-dir=%t/file/sub 2>&1 | FileCheck %s --check-prefix=NOCREATE
// NOCREATE: gopt-run: error: --cache-dir: cannot create '{{.*}}file/sub':

func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = gopt.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %r = gopt.relu %m : tensor<4x8xf32>
  %e = gopt.exp %r : tensor<4x8xf32>
  %s = gopt.softmax %e axis = 1 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
