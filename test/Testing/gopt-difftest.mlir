// Graph passes keep results: every subset of {gopt-fold, gopt-dce, cse,
// gopt-fuse} and gopt-optimize agree with the unoptimized graph on random
// graphs and on every example (docs/Testing.md). Bounded for CI (about a
// minute on two shared cores); scripts/difftest.sh runs more seeds.

// RUN: gopt-difftest --seeds=0-7 --ops=30 %examples/attention_redundant.mlir %examples/conv_block.mlir %examples/mlp.mlir %examples/transformer_block.mlir | FileCheck %s
// The embedded default of gopt-explore is larger (seq 256, d_model 512): the
// reference and gopt-optimize compiled, every configuration evaluated.
// RUN: gopt-difftest --seeds=0-0 --ops=5 --compile-all=false %examples/attention_block.mlir %examples/causal_attention.mlir | FileCheck %s --check-prefix=BLOCK
// RUN: ls %examples/*.mlir | count 6
// BLOCK: attention_block.mlir: ok (16 configurations, 1 compiled, 16 evaluated; checked against the evaluator)
// BLOCK: causal_attention.mlir: ok (16 configurations, 1 compiled, 16 evaluated; checked against the evaluator)
// BLOCK-NOT: MISMATCH

// CHECK: seed 0: ok (16 configurations
// CHECK: seed 7: ok (16 configurations
// CHECK: attention_redundant.mlir: ok (16 configurations
// CHECK: conv_block.mlir: ok (16 configurations
// CHECK: mlp.mlir: ok (16 configurations
// CHECK: transformer_block.mlir: ok (16 configurations
// CHECK-NOT: MISMATCH
// CHECK: difftest: 12 graphs (12 checked against the evaluator), 192 configurations ({{[0-9]+}} compiled, 192 evaluated), 0 failed

