// gopt-run --warm-compiles=N: the graph is compiled N times first and the
// results dropped, then imported (here: parsed) and compiled again; that
// last compile is the one reported and run, after one line per warm-up
// compile. Every compile says how many came before it in the process.

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --output-dir=%t/cold | FileCheck %s --check-prefix=COLD
// COLD: compile {{[0-9.]+}} ms: graph passes
// COLD-NOT: warm-up
// COLD: threads

// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --warm-compiles=2 --expect=%t/cold/result0.npy 2>&1 | FileCheck %s --check-prefix=WARM
// WARM: result #0 vs {{.*}}result0.npy: match
// WARM: compile {{[0-9.]+}} ms: graph passes {{[0-9.]+}}, lowering {{[0-9.]+}}, LLVM codegen {{[0-9.]+}}
// WARM-NEXT: warm-up {{[0-9.]+}} ms: graph passes {{[0-9.]+}}, lowering {{[0-9.]+}}, LLVM codegen {{[0-9.]+}}
// WARM-NEXT: warm-up {{[0-9.]+}} ms: graph passes
// WARM-NEXT: threads

// RUN: gopt-run %s --reps=1 --pipeline=gopt-optimize --warm-compiles=2 --format=json | FileCheck %s --check-prefix=JSON
// JSON: "compile_ms": {
// JSON: "process_compiles_before": 2,
// JSON: "warm_up_compile_ms": [
// JSON: "process_compiles_before": 0,
// JSON: "process_compiles_before": 1,
// JSON: ]

// RUN: gopt-run %s --reps=1 --format=json | FileCheck %s --check-prefix=FIRST
// FIRST: "process_compiles_before": 0,
// FIRST: "warm_up_compile_ms": []

// The warm-up compiles neither read nor fill the compile cache: the
// compile reported is the cache's first, a miss, and the next run's a hit.
// RUN: gopt-run %s --reps=1 --warm-compiles=1 --cache-dir=%t/cache | FileCheck %s --check-prefix=MISS
// MISS: compile {{[0-9.]+}} ms: graph passes {{[0-9.]+}}, lowering
// RUN: gopt-run %s --reps=1 --warm-compiles=1 --cache-dir=%t/cache | FileCheck %s --check-prefix=HIT
// HIT: compile {{[0-9.]+}} ms: graph passes {{[0-9.]+}}, loaded from the compile cache
// HIT-NEXT: warm-up {{[0-9.]+}} ms: graph passes {{[0-9.]+}}, lowering

// The serving worker's ready line names them too.
// RUN: echo quit | gopt-run %s --warm-compiles=2 --serve | FileCheck %s --check-prefix=SERVE
// SERVE: "process_compiles_before":2,
// SERVE-SAME: "ready":true,"warm_up_compile_ms":[
// SERVE-SAME: "process_compiles_before":0,
// SERVE-SAME: "process_compiles_before":1,
// RUN: echo quit | gopt-run %s --serve | FileCheck %s --check-prefix=SERVE-COLD
// SERVE-COLD: "process_compiles_before":0
// SERVE-COLD-NOT: warm_up_compile_ms

// RUN: not gopt-run %s --warm-compiles=1 --target=cuda-emulated 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: gopt-run: error: --warm-compiles is for --target=cpu

func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = gopt.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %r = gopt.relu %m : tensor<4x8xf32>
  %s = gopt.softmax %r axis = 1 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
