// A failing pass is recorded as FAILED, the record is still written, and the
// tool exits non-zero.
// RUN: not gopt-opt %s --pass-pipeline='builtin.module(gopt-fold,gopt-fuse{max-group-size=1})' --gopt-measure -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: error: gopt-fuse: max-group-size must be at least 2, got 1
// FAIL: 0 gopt-fold {{[0-9.]+}} 2 -1 2 32 B yes
// FAIL: 1 gopt-fuse {{[0-9.]+}} 2 0 2 32 B FAILED

// Bad flags fail before any work, with a clear message.
// RUN: not gopt-opt %s --gopt-fold --gopt-measure --gopt-measure-format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: unknown --gopt-measure-format 'xml'; expected json, csv, table or trace
// RUN: not gopt-opt %s --gopt-fold --gopt-measure=%t.missing-dir/record.json 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: error: cannot write the --gopt-measure record to '{{.*}}record.json'

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = gopt.exp %x : tensor<4xf32>
  %1 = gopt.neg %0 : tensor<4xf32>
  %2 = gopt.neg %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
