// Every bundled example runs through gopt-run, and gopt-optimize keeps its
// results (seeded inputs; tolerances as in docs/Runner.md).

// RUN: rm -rf %t && mkdir -p %t
// RUN: gopt-run %examples/mlp.mlir --reps=0 --output-dir=%t/mlp
// RUN: gopt-run %examples/mlp.mlir --reps=0 --pipeline=gopt-optimize --expect=%t/mlp/result0.npy 2>&1 | FileCheck %s
// RUN: gopt-run %examples/transformer_block.mlir --reps=0 --output-dir=%t/tb
// RUN: gopt-run %examples/transformer_block.mlir --reps=0 --pipeline=gopt-optimize --expect=%t/tb/result0.npy 2>&1 | FileCheck %s
// RUN: gopt-run %examples/conv_block.mlir --reps=0 --output-dir=%t/conv
// RUN: gopt-run %examples/conv_block.mlir --reps=0 --pipeline=gopt-optimize --expect=%t/conv/result0.npy 2>&1 | FileCheck %s
// RUN: gopt-run %examples/attention_redundant.mlir --reps=0 --output-dir=%t/attn
// RUN: gopt-run %examples/attention_redundant.mlir --reps=0 --pipeline=gopt-optimize --expect=%t/attn/result0.npy,%t/attn/result1.npy 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: gopt-run %examples/attention_block.mlir --reps=0 --output-dir=%t/block
// RUN: gopt-run %examples/attention_block.mlir --reps=0 --pipeline=gopt-optimize --expect=%t/block/result0.npy,%t/block/result1.npy 2>&1 | FileCheck %s --check-prefix=TWO
// CHECK: result #0 vs {{.*}}result0.npy: match (0 of
// TWO: result #0 vs {{.*}}result0.npy: match (0 of
// TWO: result #1 vs {{.*}}result1.npy: match (0 of
