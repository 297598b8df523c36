// On a machine with an NVIDIA GPU and driver: gopt-run --target=cuda
// compiles, writes a bundle, runs it and checks it against the CPU. Elsewhere
// the test is skipped (and counted as such).
// REQUIRES: cuda-device
// RUN: gopt-run --target=cuda %S/../../examples/mlp.mlir --reps=3 | FileCheck %s
// RUN: gopt-run --target=cuda --pipeline=gopt-optimize %S/../../examples/transformer_block.mlir --reps=3 | FileCheck %s
// CHECK: result 0  f32 {{.*}}: matches the reference
// CHECK: latency
// CHECK: compile

// The same models as one CUDA graph: the replay's results checked too.
// RUN: gopt-run --target=cuda --cuda-graph %S/../../examples/mlp.mlir --reps=3 | FileCheck %s --check-prefix=GRAPH
// RUN: gopt-run --target=cuda --cuda-graph --pipeline=gopt-optimize %S/../../examples/transformer_block.mlir --reps=3 | FileCheck %s --check-prefix=GRAPH
// GRAPH: result 0  f32 {{.*}}: matches the reference
// GRAPH: cuda graph
// GRAPH: result 0 matches the reference
