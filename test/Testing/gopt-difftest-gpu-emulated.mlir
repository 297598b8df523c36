// gopt-difftest --gpu-emulated: random graphs and the examples also run as
// the GPU pipeline maps them, their kernels emulated on the CPU thread by
// thread, unoptimized and after gopt-optimize (docs/Testing.md). Seed 1 at
// 40 ops holds a dead op reading a slice, which the GPU pipeline could not
// lower (gopt-fuse-slice-inputs made a fusion exposing no value). Dims up
// to 40 give reductions the one-block-per-tile mapping takes; reversed
// threads and blocks of 32 in the second run.

// RUN: gopt-difftest --seeds=0-3 --ops=30 --max-dim=40 --gpu-emulated --compile-all=false %examples/mlp.mlir %examples/conv_block.mlir | FileCheck %s
// RUN: gopt-difftest --seeds=1 --ops=40 --gpu-emulated --compile-all=false --nvvm-options="block-size=32 emulate-reverse-threads" %examples/transformer_block.mlir | FileCheck %s --check-prefix=REV

// CHECK: seed 0: ok (18 configurations
// CHECK: seed 3: ok (18 configurations
// CHECK: mlp.mlir: ok (18 configurations
// CHECK: conv_block.mlir: ok (18 configurations
// CHECK-NOT: MISMATCH
// CHECK: difftest: 6 graphs {{.*}}, 0 failed

// REV: seed 1: ok (18 configurations
// REV: transformer_block.mlir: ok (18 configurations
// REV: difftest: 2 graphs {{.*}}, 0 failed
