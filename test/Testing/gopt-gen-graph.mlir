// gopt-gen-graph is deterministic, seeds differ, and what it writes parses,
// verifies and survives the default pipeline.

// RUN: gopt-gen-graph --seed=3 --ops=30 -o %t.a.mlir
// RUN: gopt-gen-graph --seed=3 --ops=30 -o %t.b.mlir
// RUN: diff %t.a.mlir %t.b.mlir
// RUN: gopt-gen-graph --seed=4 --ops=30 -o %t.c.mlir
// RUN: not diff -q %t.a.mlir %t.c.mlir
// RUN: gopt-opt -verify-each %t.a.mlir | FileCheck %s
// RUN: gopt-opt -verify-each %t.c.mlir | FileCheck %s
// RUN: gopt-opt -verify-each --gopt-optimize %t.a.mlir | gopt-opt -verify-each > /dev/null
// RUN: gopt-gen-graph --seed=5 --ops=200 --max-rank=3 --max-dim=5 | gopt-opt -verify-each | FileCheck %s --check-prefix=BIG
// RUN: not gopt-gen-graph --max-rank=0 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @main(%arg0: tensor<{{[0-9x]+}}xf32>
// CHECK: gopt.
// CHECK: return

// BIG-LABEL: func.func @main
// BIG-NOT: tensor<{{[0-9]+x[0-9]+x[0-9]+x[0-9]+}}xf32>
// BIG: return

// BAD: error: random graph options out of range
